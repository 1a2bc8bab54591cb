// Measures the library's planning speed on a large store:
//   fetchpredict-bench STORE.sqlite
// The store should hold the 1,000,000 launches of 200 apps of ../shared/bench/make-launches.py
// (scripts/bench-predictor.sh makes it). Prints the learning time, the latency of
// nextWake(after:) once learned (with nothing new, and after each new launch), and the time of a
// 24-hour schedule of every app.
import FetchPredictor
import Foundation

func percentile(_ values: [Duration], _ share: Double) -> Double {
    let sorted = values.sorted()
    let index = min(sorted.count - 1, Int(Double(sorted.count) * share))
    let (seconds, attoseconds) = sorted[index].components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: fetchpredict-bench STORE.sqlite\n".utf8))
    exit(2)
}
let store = try EventStore(path: CommandLine.arguments[1])
try store.setDefaultInterval(.minimum)
let clock = ContinuousClock()
let counts = try store.eventCounts()
let apps = try store.apps(device: "default").map(\.app)
guard let last = try store.apps(device: "default").compactMap(\.lastSeen).max() else {
    print("the store is empty")
    exit(1)
}
print("store: \(counts.launches) launches, \(apps.count) apps")

// Learning: from scratch (no cache), then from the cache a new process would find.
try store.dropLearnedModels()
var scheduler = FetchScheduler(store: store)
var start = clock.now
_ = try scheduler.nextWake(after: last, device: "default")
print(String(format: "learn from all events and plan: %.0f ms", milliseconds(clock.now - start)))
scheduler = FetchScheduler(store: store)
start = clock.now
_ = try scheduler.nextWake(after: last, device: "default")
print(String(format: "load the cached model and plan (a new process): %.1f ms", milliseconds(clock.now - start)))

// nextWake once learned, nothing new: the plans are cached.
var latencies: [Duration] = []
var now = last
for _ in 0..<2000 {
    now = now.addingTimeInterval(7)
    let begin = clock.now
    _ = try scheduler.nextWake(after: now, device: "default")
    latencies.append(clock.now - begin)
}
print(
    String(
        format: "nextWake(after:), nothing new: p50 %.3f ms, p99 %.3f ms", percentile(latencies, 0.5),
        percentile(latencies, 0.99)))

// nextWake after each new launch: one app's plan is made again.
latencies = []
var random = SeededGenerator(seed: 1)
for _ in 0..<500 {
    now = now.addingTimeInterval(60 + random.unit() * 120)
    try scheduler.recordLaunch(apps[Int(random.next() % UInt64(apps.count))], at: now, device: "default")
    let begin = clock.now
    _ = try scheduler.nextWake(after: now, device: "default")
    latencies.append(clock.now - begin)
}
print(
    String(
        format: "nextWake(after:) after a new launch: p50 %.3f ms, p99 %.3f ms", percentile(latencies, 0.5),
        percentile(latencies, 0.99)))

// A 24-hour schedule of every app.
latencies = []
for run in 0..<20 {
    let from = now.addingTimeInterval(Double(run) * 3600)
    let begin = clock.now
    let schedule = try scheduler.schedule(from: from, to: from.addingTimeInterval(86_400), device: "default")
    latencies.append(clock.now - begin)
    if run == 0 {
        print("24-hour schedule: \(schedule.wakes.count) device wakes, \(schedule.appWakeCount) app fetches")
    }
}
print(
    String(
        format: "24-hour schedule of %d apps: p50 %.1f ms, max %.1f ms", apps.count, percentile(latencies, 0.5),
        percentile(latencies, 1)))

// What a new process pays for `fetchpredict next APP`: open, load the cached model, plan one app.
latencies = []
for _ in 0..<10 {
    let begin = clock.now
    let fresh = FetchScheduler(store: try EventStore(path: CommandLine.arguments[1]))
    _ = try fresh.nextWake(after: now, device: "default", app: apps[7])
    latencies.append(clock.now - begin)
}
print(String(format: "open, load the cached model, plan one app: p50 %.1f ms", percentile(latencies, 0.5)))
