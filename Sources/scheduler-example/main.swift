// An example of another scheduler embedding FetchPredictor, against a simulated clock: it records
// the launches of a synthetic user as the clock reaches them, asks for the next wake, sleeps
// until it (or until the next launch), runs the fetches due and records their results.
//
//   swift run scheduler-example [DAYS]
import FetchPredictor
import Foundation

/// A clock that jumps instead of sleeping.
struct SimulatedClock {
    var now: Date
    mutating func sleep(until date: Date) { now = max(now, date) }
}

let days = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 14 : 14
let zone = TimeZone(identifier: "Europe/Warsaw")!
let user = SyntheticLog(persona: .commuter, days: days, timeZone: zone, seed: 42, fetchPeriodMinutes: 0).events()
let store = try EventStore.inMemory()
try await store.setTimeZone(zone, device: "phone")
try store.setDefaultInterval(.minimum)
try await store.setInterval(.seconds(2 * 3600), app: "com.example.mail", device: "phone")
let scheduler = FetchScheduler(store: store)

var random = SeededGenerator(seed: 7)
var clock = SimulatedClock(now: Date(milliseconds: user[0].time - 1))
var next = 0
var fetches = 0, freshLaunches = 0, coldLaunches = 0
var lastFetch: [String: Date] = [:]
var lastLaunch: [String: Date] = [:]
while next < user.count {
    let launch = user[next]
    let wake = try await scheduler.nextWake(after: clock.now, device: "phone")
    if let wake, wake.time.milliseconds < launch.time {
        clock.sleep(until: wake.time)
        for app in wake.apps {
            // Here a real scheduler would wake the app and give it 30 seconds to fetch.
            let result: FetchResult = random.unit() < 0.05 ? .failed : .newData
            try await scheduler.recordFetch(app.app, at: clock.now, result: result, duration: 3, device: "phone")
            if result != .failed { lastFetch[app.app] = clock.now }
            fetches += 1
        }
        // The fetches take their seconds; asked then, the answer knows them (an answer as of a
        // time knows the events before it, not one at that instant).
        clock.sleep(until: clock.now.addingTimeInterval(3))
        continue
    }
    clock.sleep(until: Date(milliseconds: launch.time))
    if lastLaunch[launch.app].map({ clock.now.timeIntervalSince($0) >= 1800 }) ?? true {
        coldLaunches += 1
        if let fetched = lastFetch[launch.app], (60...1800).contains(clock.now.timeIntervalSince(fetched)) {
            freshLaunches += 1
        }
    }
    lastLaunch[launch.app] = clock.now
    try await scheduler.recordLaunch(launch.app, at: clock.now, device: "phone")
    next += 1
}
print("simulated \(days) days of a commuter: \(coldLaunches) cold launches, \(fetches) background fetches")
print(
    String(
        format: "%.0f%% of cold launches found content fetched in the 30 minutes before",
        100 * Double(freshLaunches) / Double(max(1, coldLaunches))))
if let wake = try await scheduler.nextWake(after: clock.now, device: "phone") {
    print(
        "next wake: \(TimestampFormatter.iso(wake.time.milliseconds)) for \(wake.apps.map(\.app).joined(separator: ", "))"
    )
}
