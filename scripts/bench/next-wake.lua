-- wrk: GET next-wake of a random device of the bench tenant, in the day after the history.
-- FP_CLOCK=advancing (the default) asks at a present that moves on, one minute a second from
-- 2024-01-29T06:00:00Z, as schedulers ask about their present; FP_CLOCK=random asks at a random
-- minute of the day, so that almost every answer is planned anew. Environment: FP_KEY (the key),
-- FP_DEVICES (how many devices), FP_DELAY_MS (a pause before each request, to offer a rate below
-- saturation; 0 for none).
local key = os.getenv("FP_KEY")
local devices = tonumber(os.getenv("FP_DEVICES") or "1000")
local pause = tonumber(os.getenv("FP_DELAY_MS") or "0")
local random = os.getenv("FP_CLOCK") == "random"
local start = tonumber(os.getenv("FP_START") or os.time())

function setup(thread)
  thread:set("seed", math.random(1, 1000000))
  thread:set("start", start)
end

function init(args)
  math.randomseed(seed)
end

function delay()
  return pause
end

request = function()
  local device = math.random(0, devices - 1)
  local minute = random and math.random(0, 1439) or (360 + os.time() - start) % 1440
  local path = string.format("/v1/devices/d%04d/next-wake?now=2024-01-29T%02d:%02d:00Z", device,
    math.floor(minute / 60) % 24, minute % 60)
  return wrk.format("GET", path, { ["Authorization"] = "Bearer " .. key })
end
