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

    /// When something last launched at `lastLaunch` goes silent: the silence limit after it;
    /// `nil` with no launch, or while the configuration wakes devices however long unused. The
    /// one rule of silence, for the device and for each app.
    static func silentFrom(lastLaunch: Milliseconds?, _ configuration: PredictorConfiguration) -> Milliseconds? {
        guard let limit = configuration.silenceLimitMilliseconds, let lastLaunch else { return nil }
        return lastLaunch + limit
    }

    /// When the device went (or goes) silent: the limit after its last launch of any app.
    func silentFrom(_ configuration: PredictorConfiguration) -> Milliseconds? {
        Self.silentFrom(lastLaunch: lastLaunch, configuration)
    }

    /// Whether the device, or else one of its apps, is silent at `now`: the device's silence
    /// when it is, else the app's when `app` is given and it is.
    public func silence(app: String? = nil, at now: Date, _ configuration: PredictorConfiguration) -> Silence? {
        Self.silence(of: nil, lastLaunch: lastLaunch, at: now, configuration)
            ?? app.flatMap { appSilence($0, at: now, configuration) }
    }

    /// Whether an app is silent at `now` by its own launches, whatever the device's.
    func appSilence(_ app: String, at now: Date, _ configuration: PredictorConfiguration) -> Silence? {
        Self.silence(of: app, lastLaunch: apps[app]?.lastLaunch, at: now, configuration)
    }

    /// The silence of the device (`app` `nil`) or an app last launched at `lastLaunch`, when it
    /// began by `now`.
    private static func silence(
        of app: String?, lastLaunch: Milliseconds?, at now: Date, _ configuration: PredictorConfiguration
    ) -> Silence? {
        guard let lastLaunch, let since = silentFrom(lastLaunch: lastLaunch, configuration),
            now.milliseconds >= since
        else { return nil }
        return Silence(app: app, lastLaunch: Date(milliseconds: lastLaunch), since: Date(milliseconds: since))
    }
}

extension Planner {
    /// The first minute of the horizon at which an app is silent, its own silence or the
    /// device's, whichever comes first; `nil` when that is past the horizon (or never). No wake
    /// of the app is planned from it on.
    func silenceIndex(app: String) -> Int? {
        let own = DeviceModel.silentFrom(lastLaunch: device.apps[app]?.lastLaunch, configuration)
        guard let from = own.map({ min($0, deviceSilentFrom ?? $0) }) ?? deviceSilentFrom else { return nil }
        let index = max(0, from.minutesRoundedUp(since: clock.start))
        return index < clock.count ? index : nil
    }
}
