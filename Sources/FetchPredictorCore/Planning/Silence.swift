import Foundation

/// Why a device, or one app of it, gets no wake: no launch for longer than the silence limit
/// (``PredictorConfiguration/silenceLimit``). A phone unused for weeks was likely put away,
/// replaced or thrown away; waking it spends pushes and battery on no one.
public struct Silence: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The app that went silent; `nil` when the whole device did.
    public var app: String?
    /// The last launch (of the app, or of any app of the device).
    public var lastLaunch: Date
    /// When it went silent, and its wakes stopped: the silence limit after the last launch.
    public var since: Date

    /// Creates a value with every field given.
    public init(app: String?, lastLaunch: Date, since: Date) {
        self.app = app
        self.lastLaunch = lastLaunch
        self.since = since
    }

    /// A sentence for people: what went silent, since when, and what brings its wakes back.
    public var description: String {
        let days = Int((since.timeIntervalSince(lastLaunch) / 86_400).rounded())
        let subject = app.map { "app \($0)" } ?? "the device"
        return "\(subject) went silent: no launch since \(TimestampFormatter.iso(lastLaunch.milliseconds)), "
            + "so no wake since \(TimestampFormatter.iso(since.milliseconds)) (\(days) days later); "
            + "its next launch brings its wakes back"
    }
}

extension DeviceModel {
    /// The device's last launch of any app.
    /// - Complexity: O(apps).
    public var lastLaunch: Milliseconds? {
        var last: Milliseconds?
        for app in apps.values { if let time = app.lastLaunch { last = max(last ?? time, time) } }
        return last
    }

    /// When the device went (or goes) silent, or `nil` while the configuration wakes devices
    /// however long unused, or the device has no launch yet.
    func silentFrom(_ configuration: PredictorConfiguration) -> Milliseconds? {
        guard let limit = configuration.silenceLimitMilliseconds, let last = lastLaunch else { return nil }
        return last + limit
    }

    /// Whether the device, or else one of its apps, is silent at `now`: the device's silence
    /// when it is, else the app's when `app` is given and it is.
    public func silence(app: String? = nil, at now: Date, _ configuration: PredictorConfiguration) -> Silence? {
        guard let limit = configuration.silenceLimitMilliseconds else { return nil }
        if let last = lastLaunch, now.milliseconds >= last + limit {
            return Silence(app: nil, lastLaunch: Date(milliseconds: last), since: Date(milliseconds: last + limit))
        }
        if let app, let last = apps[app]?.lastLaunch, now.milliseconds >= last + limit {
            return Silence(app: app, lastLaunch: Date(milliseconds: last), since: Date(milliseconds: last + limit))
        }
        return nil
    }
}

extension Planner {
    /// The first minute of the horizon at which an app is silent, its own silence or the
    /// device's, whichever comes first; `nil` when that is past the horizon (or never). No wake
    /// of the app is planned from it on.
    func silenceIndex(app: String) -> Int? {
        var from = deviceSilentFrom
        if let limit = configuration.silenceLimitMilliseconds, let last = device.apps[app]?.lastLaunch {
            from = min(from ?? last + limit, last + limit)
        }
        guard let from else { return nil }
        let index = max(0, from.minutesRoundedUp(since: clock.start))
        return index < clock.count ? index : nil
    }
}
