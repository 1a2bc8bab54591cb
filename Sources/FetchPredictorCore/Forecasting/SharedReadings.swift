import Synchronization

/// A forecaster whose replays of one device's events may share what they compute: the backtest
/// replays each device once per budget level, and what a forecaster reads of the launches alone
/// is the same at every level.
protocol SharesReplayReadings: LaunchForecaster {
    /// This forecaster, with a store of readings that the replays of one device share; the
    /// backtest asks for one per device it prepares.
    func sharingReadings() -> any LaunchForecaster
}

/// The readings of the trees that the replays of one device share (``TreesForecaster``, in a
/// backtest): an app's chances at every ``Planner/launchModelStepMinutes``th minute from the
/// minute its plan starts at.
///
/// A reading is a function of the app, the minute, the traces (``LaunchTraces/version``: the
/// launches, unlocks and notifications so far, the same at every level) and the app's planning
/// and habit profiles. Those are made of the launches and of the days the device's model has
/// moved through, a day at a time (``DeviceModel``'s clock, which a level's own fetch may move
/// sooner than another level's): the day and the decayed counts of days stand for them in the
/// key. Debug builds keep the profiles too and check that a reading found was read from equal
/// ones.
///
/// Replays run on every core at once, so the store is behind a lock, taken once for a batch of
/// requests to find their readings and once to keep new ones. It holds at most ``capacity``
/// readings, then keeps no more: a replay past it reads the trees, as without the store.
final class SharedReadings: Sendable {
    /// About 250 MB of readings with their keys (India's 49 days of the shared logs keep 3.6
    /// million, in 115 MB).
    static let capacity = 8_000_000

    /// What an app's readings are read from.
    struct Source {
        let app: String
        let profiles: Planner.DayProfiles
        let habits: Planner.DayProfiles
        fileprivate let key: Key

        /// The source of an app's plan starting at the instant `start`, on the device's model.
        init(
            app: String, start: Milliseconds, device: DeviceModel, profiles: Planner.DayProfiles,
            habits: Planner.DayProfiles
        ) {
            (self.app, self.profiles, self.habits) = (app, profiles, habits)
            key = Key(
                app: app, traces: device.traces.version, start: start, day: device.currentDay ?? .min,
                days: DayCounts(device))
        }
    }

    fileprivate struct Key: Hashable {
        let app: String
        let traces: Int
        let start: Milliseconds
        /// The device model's day, and its decayed counts of days.
        let day: Int
        let days: DayCounts
    }

    /// A device model's decayed counts of days, as bits.
    fileprivate struct DayCounts: Hashable {
        let recent, weekday, weekend: UInt64

        init(_ device: DeviceModel) {
            (recent, weekday, weekend) = (
                device.recentDays.bitPattern, device.weekdayDays.bitPattern, device.weekendDays.bitPattern
            )
        }
    }

    private struct Readings {
        var chances: [Double]
        #if DEBUG
            let profiles: Planner.DayProfiles
            let habits: Planner.DayProfiles
        #endif

        init(_ chances: [Double], of source: Source) {
            self.chances = chances
            #if DEBUG
                (profiles, habits) = (source.profiles, source.habits)
            #endif
        }

        /// Whether these were read from the source's profiles (always, in a release build).
        func read(from source: Source) -> Bool {
            #if DEBUG
                profiles == source.profiles && habits == source.habits
            #else
                true
            #endif
        }
    }

    private struct Store {
        var readings: [Key: Readings] = [:]
        var count = 0
    }

    private let store = Mutex(Store())

    init() {}

    /// The readings kept of each source, in order from its start: as many as were read; none
    /// when none were.
    func chances(_ sources: [Source]) -> [[Double]] {
        let found = store.withLock { store in sources.map { store.readings[$0.key] } }
        return zip(sources, found).map { source, found in
            assert(found?.read(from: source) ?? true, "readings kept for \(source.app) from other profiles")
            return found?.chances ?? []
        }
    }

    /// Keeps the readings of each source, in order from its start, where they go further than
    /// those kept.
    func keep(_ made: [(source: Source, chances: [Double])]) {
        store.withLock { store in
            for (source, chances) in made where store.count < Self.capacity {
                let more = chances.count - (store.readings[source.key]?.chances.count ?? 0)
                guard more > 0 else { continue }
                store.readings[source.key] = Readings(chances, of: source)
                store.count += more
            }
        }
    }
}
