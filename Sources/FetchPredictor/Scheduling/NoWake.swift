import Foundation

/// Why a device (or one app of it) has no wake planned, when its settings or its history say:
/// the command line and the service both say it, each in its own words.
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

extension FetchScheduler {
    /// Why the device (or `app` on it) has no wake as of `now`, when its settings or history
    /// explain it; `nil` when they do not, and no launch is expected soon enough to be worth a
    /// wake. Ask it after a query that found no wake: read from the model that query planned with.
    public func whyNoWake(device: String = "default", app: String? = nil, asOf now: Date) async throws -> NoWake? {
        try await withDevice(device, asOf: now) { predictor in
            Self.whyNoWake(predictor, device: device, app: app, asOf: now)
        }
    }

    /// The next device wake strictly after `time` (``nextWake(after:before:device:)``), or, when
    /// there is none, why (``whyNoWake(device:app:asOf:)``), in one query of the device: what the
    /// service's next-wake answers.
    public func nextWakeOrReason(after time: Date, before limit: Date? = nil, device: String = "default")
        async throws -> (wake: DeviceWake?, noWake: NoWake?)
    {
        try await withSlot(device, asOf: time) { slot, settings in
            guard let wake = try committedWake(in: slot, settings: settings, asOf: time, before: limit) else {
                return (nil, Self.whyNoWake(slot.predictor, device: device, app: nil, asOf: time))
            }
            return (wake, nil)
        }
    }

    /// Why `predictor`'s device (or `app` on it) has no wake as of `now`, in the order a user
    /// reads it: no app, none that may fetch, Low Power Mode, silence, an old log.
    static func whyNoWake(_ predictor: Predictor, device: String, app: String?, asOf now: Date) -> NoWake? {
        let apps = predictor.apps(device: device)
        if apps.isEmpty { return .noApps }
        let policies = (app.map { [$0] } ?? apps).map { predictor.policy(app: $0, device: device) }
        if policies.allSatisfy({ $0.interval == .never || !$0.enabled }) { return .noAppMayFetch }
        if let mode = predictor.lowPowerMode(device: device, at: now) { return .lowPowerMode(mode) }
        if let silence = predictor.silence(device: device, app: app, at: now) { return .silent(silence) }
        if let last = predictor.devices[device]?.lastEventTime,
            now.timeIntervalSince(Date(milliseconds: last)) > NoWake.staleDays * 86_400
        {
            return .stale(lastEvent: Date(milliseconds: last))
        }
        return nil
    }
}
