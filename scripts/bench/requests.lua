-- wrk: requests of the bench tenant's devices, each to a random device of FP_DEVICES, at a present
-- that moves on a minute a second from 2024-01-29T06:00:00Z (FP_START, the epoch second it began),
-- as schedulers ask about their present and devices send what just happened.
--   FP_NEXT_SHARE: the share of GET next-wake (1: only those; 0: only batches); the others POST a
--     batch of 10 new launches at instants of the minute before the present that no other uses.
--   FP_CLOCK=random: next-wake at a random minute of the day instead, planned anew almost every time.
--   FP_KEY: the key; FP_DELAY_MS: a pause before each request, to offer less than saturation.
--   FP_DAY: the present's day, as the epoch second of its 00:00Z (default 2024-01-29).
local key = os.getenv("FP_KEY")
local devices = tonumber(os.getenv("FP_DEVICES") or "1000")
local pause = tonumber(os.getenv("FP_DELAY_MS") or "0")
local nextShare = tonumber(os.getenv("FP_NEXT_SHARE") or "1")
local random = os.getenv("FP_CLOCK") == "random"
local counter = 0
local start = tonumber(os.getenv("FP_START") or os.time())
local day = tonumber(os.getenv("FP_DAY") or "1706486400")

function setup(thread)
  thread:set("id", math.random(1, 1000000))
  thread:set("start", start)
end

function init(args)
  math.randomseed(id)
end

function delay()
  return pause
end

request = function()
  local device = math.random(0, devices - 1)
  local headers = { ["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json" }
  local minute = 360 + os.time() - start
  if math.random() < nextShare then
    if random then minute = math.random(0, 1439) end
    local path = string.format("/v1/devices/d%04d/next-wake?now=%sT%02d:%02d:00Z", device,
      os.date("!%Y-%m-%d", day), math.floor(minute / 60) % 24, minute % 60)
    return wrk.format("GET", path, headers)
  end
  counter = counter + 1
  -- The minute before the present, to the millisecond: thread and counter keep batches apart.
  local base = day + (minute - 1) * 60 + ((id % 50) * 1000 + counter * 10 % 1000) / 1000
  local events = {}
  for i = 0, 9 do
    events[#events + 1] = string.format(
      '{"timestamp": %.3f, "app": "com.example.app%d", "event": "launch"}', base + i * 0.001, i % 5)
  end
  local body = '{"events": [' .. table.concat(events, ",") .. ']}'
  return wrk.format("POST", string.format("/v1/devices/d%04d/events", device), headers, body)
end

done = function(summary, latency, requests)
  local codes = summary.errors.status
  io.write(string.format("non-2xx answers: %d\n", codes))
end
