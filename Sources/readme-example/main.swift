// Package.swift: .package(path: "../FetchPredictor") (a clone), and "FetchPredictor" in the target's dependencies
import FetchPredictor
import Foundation

let store = try EventStore(path: "events.sqlite")
try await store.setTimeZone(TimeZone(identifier: "Europe/Warsaw")!, device: "phone")
try await store.setInterval(.minimum, app: "com.example.news", device: "phone")
let scheduler = FetchScheduler(store: store)
try await scheduler.recordLaunch("com.example.news", at: Date(), device: "phone")
var now = Date()
while let wake = try await scheduler.nextWake(after: now, device: "phone") {
    print("next wake at \(wake.time) for \(wake.apps.map(\.app))")
    try await Task.sleep(for: .seconds(max(0, wake.time.timeIntervalSinceNow)))
    for app in wake.apps {
        // ... fetch for app.app, then record how it ended:
        try await scheduler.recordFetch(app.app, at: Date(), result: .newData, device: "phone")
    }
    now = Date()  // an answer as of a time knows the events before it: ask once they are recorded
}
