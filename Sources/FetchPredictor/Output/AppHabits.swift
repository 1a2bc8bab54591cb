import FetchPredictorCore
import Foundation

/// What was learned of one app, as the command line's peaks and the HTTP service's habits show it:
/// its daily profiles (one, or weekdays and weekends apart) with their peaks, and its state now.
public struct AppHabits: Encodable, Sendable {
    /// One daily profile.
    public struct Profile: Encodable, Sendable {
        /// The days it is of.
        public var days: DayKind
        /// Cold launches a day.
        public var launchesPerDay: Double
        /// Its peaks.
        public var peaks: [Peak]
        /// Expected cold launches per day in each half hour from midnight.
        public var halfHourly: [Double]
    }

    /// The app.
    public var app: String
    /// Whether it has too little history to learn from yet.
    public var coldStart: Bool
    /// Its profiles.
    public var profiles: [Profile]
    /// How the app is used lately, as of now.
    public var state: AppState
    /// The state in a sentence.
    public var stateText: String

    /// What the scheduler learned of an app as of `now`: one profile, or weekdays and weekends
    /// apart, and its state.
    public init(app: String, device: String, now: Date, zone: TimeZone, scheduler: FetchScheduler) async throws {
        let weekday = try await scheduler.profile(app: app, device: device, days: .weekday, asOf: now)
        let profiles =
            weekday.days == .all
            ? [weekday] : [weekday, try await scheduler.profile(app: app, device: device, days: .weekend, asOf: now)]
        self.app = app
        coldStart = try await scheduler.isColdStart(app: app, device: device, asOf: now)
        state = try await scheduler.state(app: app, device: device, now: now)
        stateText = state.description(now: now, zone: zone)
        self.profiles = profiles.map {
            Profile(days: $0.days, launchesPerDay: $0.launchesPerDay, peaks: $0.peaks, halfHourly: Self.halfHourly($0))
        }
    }

    /// The profile's rates summed over each half hour.
    public static func halfHourly(_ profile: DailyProfile) -> [Double] {
        stride(from: 0, to: profile.rates.count, by: 6).map { profile.rates[$0..<($0 + 6)].reduce(0, +) }
    }
}
