import Foundation

/// Why a device (or one app of it) has no wake planned, when its settings or its history say
/// (``Predictor/noWake(device:app:asOf:)``): the command line and the service both say it, each
/// in its own words.
public enum NoWake: Sendable, Hashable {
    /// The device has no app yet: no event and no app's settings.
    case noApps
    /// No app may fetch: every interval is `never` (the default) or fetch is off.
    case noAppMayFetch
    /// Low Power Mode is on: no app is woken until an event turns it off.
    case lowPowerMode(LowPowerMode)
    /// The device, or the app asked about, had gone silent: no launch for longer than the
    /// silence limit.
    case silent(Silence)
    /// The device's last event came this long before `now` (at least ``staleDays``): its apps
    /// are in a quiet spell, not yet silent.
    case stale(lastEvent: Date)

    /// Days without an event after which an empty answer says the log is old.
    public static let staleDays = 7.0

    /// A short name for scripts: `no-apps`, `no-app-may-fetch`, `low-power-mode`, `silent` or
    /// `stale`.
    public var code: String {
        switch self {
        case .noApps: "no-apps"
        case .noAppMayFetch: "no-app-may-fetch"
        case .lowPowerMode: "low-power-mode"
        case .silent: "silent"
        case .stale: "stale"
        }
    }
}

extension Predictor {
    /// Why the device (or `app` on it) has no wake as of `now`, when its settings or history
    /// explain it; `nil` when they do not, and no launch is expected soon enough to be worth a
    /// wake. The planner's cuts, in the order it makes them and a user reads them: no app, none
    /// that may fetch (`never`, or fetch off), Low Power Mode (no wake is planned in it), silence
    /// (a silent device or app is not woken), an old log (its apps in a quiet spell).
    ///
    /// - Parameters:
    ///   - device: the device.
    ///   - app: the app asked about, or `nil` for the device.
    ///   - now: the time asked about.
    public func noWake(device: String, app: String? = nil, asOf now: Date) -> NoWake? {
        let apps = self.apps(device: device)
        if apps.isEmpty { return .noApps }
        let policies = (app.map { [$0] } ?? apps).map { policy(app: $0, device: device) }
        if policies.allSatisfy({ $0.interval == .never || !$0.enabled }) { return .noAppMayFetch }
        if let mode = lowPowerMode(device: device, at: now) { return .lowPowerMode(mode) }
        if let silence = silence(device: device, app: app, at: now) { return .silent(silence) }
        if let last = devices[device]?.lastEventTime,
            now.timeIntervalSince(Date(milliseconds: last)) > NoWake.staleDays * 86_400
        {
            return .stale(lastEvent: Date(milliseconds: last))
        }
        return nil
    }
}
