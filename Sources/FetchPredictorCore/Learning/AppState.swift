import Foundation

/// How an app is used lately, shown beside its habits: what happened in the last days is its
/// state, not a rewrite of its habits.
public struct AppState: Sendable, Hashable, Codable {
    /// The app's last launch before now.
    public var lastLaunch: Date?
    /// Cold launches in the last seven local days up to now.
    public var coldLaunchesLastWeek: Double
    /// The cold launches its habits make in seven such days; `nil` when its launches span less
    /// than a week (``usualWeekDays``): a day or two of use says nothing of a usual week.
    public var usualLastWeek: Double?
    /// The local days from the app's first launch to its latest, both included.
    public var launchSpanDays: Int
    /// The span of launches, in days, from which a usual week is told.
    public static let usualWeekDays = 7
    /// The share of the launches of its last days' use (the planning profile) that the planner
    /// expects of it now, from 0 to 1: below 1 when that profile expected launches that did not
    /// come, a quiet spell.
    public var expectedShare: Double

    /// The state of an app with no launch learned: never launched, and no quiet spell.
    public static let noHistory = AppState(
        lastLaunch: nil, coldLaunchesLastWeek: 0, usualLastWeek: nil, launchSpanDays: 0, expectedShare: 1)

    /// A sentence for people, such as "no launch since 2022-01-15; 2 cold launches in the last 7
    /// days, usually 14; a quiet spell: expecting 40% of its last days' use". The habits' usual
    /// week is the recent weeks'; the planner follows the last days, which a quiet week lowers
    /// already.
    public func description(now: Date, zone: TimeZone) -> String {
        var parts: [String] = []
        if let lastLaunch {
            let local = TimestampFormatter.iso(
                lastLaunch.milliseconds, utcOffset: zone.secondsFromGMT(for: lastLaunch))
            let hours = now.timeIntervalSince(lastLaunch) / 3600
            let ago =
                hours >= 1
                ? "\(Int(hours.rounded(.down))) h ago" : "\(Int((hours * 60).rounded(.down))) min ago"
            parts.append(
                hours >= 24
                    ? "no launch since \(local.prefix(10))"
                    : "last launch \(local.dropFirst(11).prefix(5)), \(ago)")
        } else {
            parts.append("never launched")
        }
        let lastWeek = String(format: "%.0f", coldLaunchesLastWeek)
        let launches = "\(lastWeek) cold launch\(lastWeek == "1" ? "" : "es") in the last 7 days"
        if let usualLastWeek {
            parts.append(launches + String(format: ", usually %.0f", usualLastWeek))
        } else {
            parts.append(
                launches
                    + (lastLaunch == nil
                        ? ""
                        : ", too few days of use to say what is usual (launched over \(launchSpanDays) "
                            + (launchSpanDays == 1 ? "day)" : "days)")))
        }
        parts.append(
            expectedShare >= 0.995
                ? "no quiet spell: its wakes follow its last days' use"
                : String(format: "a quiet spell: expecting %.0f%% of its last days' use", expectedShare * 100))
        return parts.joined(separator: "; ")
    }
}

extension DeviceModel {
    /// How an app is used lately, as of `now`.
    ///
    /// - Parameters:
    ///   - app: the app.
    ///   - now: the moment of the answer; events after it must not have been learned.
    public func state(app: String, now: Date, _ configuration: PredictorConfiguration) -> AppState {
        guard let model = apps[app] else { return .noHistory }
        let today = local(now.milliseconds, utcOffset: nil).day
        let recent = model.habits.coldLaunches(from: today - 6, through: today)
        let span = model.lastLaunch.map { local($0, utcOffset: nil).day - (model.firstLaunchDay ?? today) + 1 } ?? 0
        var usual: Double?
        if span >= AppState.usualWeekDays {
            var sum = 0.0
            for day in (today - 6)...today {
                let (bins, days) = model.habits.bins(DeviceModel.isWeekend(day: day) ? .weekend : .weekday)
                if days > 0 { sum += bins.reduce(0, +) / days }
            }
            usual = sum
        }
        var share = 1.0
        if let last = model.lastLaunch, now.milliseconds - last >= .minutes(Planner.recencyHorizon) {
            let missed = Planner.expectedLaunches(
                from: last, to: now.milliseconds, device: self,
                profiles: (
                    weekday: planningProfile(app: app, for: .weekday, configuration, findsPeaks: false),
                    weekend: planningProfile(app: app, for: .weekend, configuration, findsPeaks: false)
                ))
            share = Planner.quietShare(missed: missed)
        }
        return AppState(
            lastLaunch: model.lastLaunch.map { Date(milliseconds: $0) }, coldLaunchesLastWeek: recent,
            usualLastWeek: usual, launchSpanDays: span, expectedShare: share)
    }
}
