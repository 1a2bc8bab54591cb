import Foundation

/// The predictor on top of the event store: what other schedulers embed.
///
/// It records launches and fetch results in the store, keeps each device's learned model in
/// memory (and cached in the store, so that it never learns from all events twice), and answers
/// when to wake which app. One value can be shared by many tasks; time is always passed in.
///
/// ```swift
/// let scheduler = try FetchScheduler(store: EventStore(path: path))
/// try scheduler.recordLaunch("com.example.news", at: now, device: "phone")
/// if let wake = try scheduler.nextWake(after: now, device: "phone") {
///     // sleep until wake.time, then fetch for each of wake.apps and record the results
/// }
/// ```
///
/// ## Topics
/// - ``init(store:configuration:)``
/// - ``recordLaunch(_:at:device:)``
/// - ``recordFetch(_:at:result:duration:device:)``
/// - ``nextWake(after:device:)``
/// - ``schedule(from:to:device:)``
public final class FetchScheduler: @unchecked Sendable {
    /// The store the scheduler reads and writes.
    public let store: EventStore
    private let lock = NSLock()
    private var predictor: Predictor
    /// The devices whose model and settings are loaded, with the time of the last event learned.
    private var loaded: [String: Milliseconds] = [:]
    /// Devices loaded with only some of their apps, for a query about one app.
    private var partial: Set<String> = []

    /// - Parameters:
    ///   - store: the event store.
    ///   - configuration: learning and planning settings.
    public init(store: EventStore, configuration: PredictorConfiguration = PredictorConfiguration()) {
        self.store = store
        predictor = Predictor(configuration: configuration)
    }

    /// The settings of learning and planning.
    public var configuration: PredictorConfiguration {
        lock.withLock { predictor.configuration }
    }

    /// The key under which learned models are cached: only settings that change learning.
    private var cacheKey: String {
        let configuration = predictor.configuration
        return
            "v1 decay=\(configuration.dailyDecay) fetch=\(configuration.fetchDecay) gap=\(configuration.coldLaunchGap)"
    }

    /// Loads a device's settings and model, learning from the events the cached model has not seen.
    ///
    /// With `app`, and a cached model that has seen every event, only that app's model is read.
    private func prepare(_ device: String, app: String? = nil) throws {
        let settings = try store.planningSettings(device: device)
        let defaultInterval = settings.defaultInterval
        if predictor.defaultInterval != defaultInterval { predictor.defaultInterval = defaultInterval }
        let zone = settings.timeZone ?? TimeZone(identifier: "UTC")!
        if app == nil, partial.contains(device) {
            loaded[device] = nil
            partial.remove(device)
        }
        if loaded[device] == nil, let app,
            var cached = try store.cachedModel(device: device, configuration: cacheKey, apps: [app]),
            try !store.hasEvents(device: device, after: cached.asOf)
        {
            cached.model.timeZone = zone
            predictor.setModel(cached.model, device: device)
            loaded[device] = cached.asOf
            partial.insert(device)
        }
        if loaded[device] == nil {
            var asOf = Milliseconds.min
            var model = DeviceModel(timeZone: zone)
            if let cached = try store.cachedModel(device: device, configuration: cacheKey) {
                (asOf, model) = cached
            }
            model.timeZone = zone
            var learned = 0
            let configuration = predictor.configuration
            try store.forEachEvent(device: device, after: asOf) { event in
                model.observe(event, configuration)
                asOf = event.time
                learned += 1
            }
            if learned > 0 { try store.cacheModel(model, asOf: asOf, device: device, configuration: cacheKey) }
            predictor.setModel(model, device: device)
            loaded[device] = asOf
        }
        predictor.setTimeZone(zone, device: device)
        let policies = settings.policies
        for app in predictor.apps(device: device) where policies[app] == nil {
            predictor.setPolicy(nil, app: app, device: device)
        }
        for (app, settings) in policies {
            predictor.setPolicy(
                AppPolicy(interval: settings.interval ?? defaultInterval, enabled: settings.enabled), app: app,
                device: device)
        }
    }

    /// Records a launch and learns from it.
    public func recordLaunch(_ app: String, at time: Date, device: String = "default") throws {
        try record(Event(kind: .launch, app: app, time: time.milliseconds), device: device)
    }

    /// Records how a background fetch ended and learns from it.
    public func recordFetch(
        _ app: String, at time: Date, result: FetchResult, duration: Double? = nil, device: String = "default"
    ) throws {
        try record(
            Event(kind: .fetch, app: app, time: time.milliseconds, result: result, duration: duration), device: device)
    }

    private func record(_ event: Event, device: String) throws {
        try lock.withLock {
            try prepare(device)
            guard try store.record(event, device: device) else { return }
            if let asOf = loaded[device], event.time < asOf {
                // An event older than what was learned: learn the device again from its cache-less history.
                loaded[device] = nil
                try prepare(device)
            } else {
                predictor.observe(event, device: device)
                loaded[device] = event.time
            }
        }
    }

    /// The next device wake strictly after `time`, within a day; `nil` when none is planned.
    public func nextWake(after time: Date, device: String = "default") throws -> DeviceWake? {
        try lock.withLock {
            try prepare(device)
            return predictor.nextWake(after: time, device: device)
        }
    }

    /// The next planned wake of one app strictly after `time`, within a day, before coalescing.
    public func nextWake(after time: Date, device: String = "default", app: String) throws -> AppWake? {
        try lock.withLock {
            try prepare(device, app: app)
            return predictor.nextWake(after: time, device: device, app: app)
        }
    }

    /// The device wakes planned from `start` to `end`.
    public func schedule(from start: Date, to end: Date, device: String = "default") throws -> Schedule {
        try lock.withLock {
            try prepare(device)
            return predictor.schedule(from: start, to: end, device: device)
        }
    }

    /// What was learned of an app: its daily profile for a kind of day, with its peaks.
    public func profile(app: String, device: String = "default", days: DayKind = .all) throws -> DailyProfile {
        try lock.withLock {
            try prepare(device)
            return predictor.profile(app: app, device: device, days: days)
        }
    }

    /// How an app is used lately, as of `now`.
    public func state(app: String, device: String = "default", now: Date) throws -> AppState {
        try lock.withLock {
            try prepare(device)
            return predictor.state(app: app, device: device, now: now)
        }
    }

    /// Whether an app has too little history to learn from yet.
    public func isColdStart(app: String, device: String = "default") throws -> Bool {
        try lock.withLock {
            try prepare(device)
            return predictor.isColdStart(app: app, device: device)
        }
    }

    /// The apps of a device that the predictor knows.
    public func apps(device: String = "default") throws -> [String] {
        try lock.withLock {
            try prepare(device)
            return predictor.apps(device: device)
        }
    }
}
