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
/// minute its plan starts at. They are a function of the app, that minute, the traces
/// (``LaunchTraces/version``: the launches, unlocks and notifications so far, the same at every
/// level) and the app's planning and habit profiles. The profiles are kept beside the readings
/// and compared whole, not by a version: a level's own fetch can start a new day's profiles
/// sooner than another level's, and such a level reads on its own.
///
/// Replays run on every core at once, so the store is behind a lock, taken once for a batch of
/// requests to find their readings and once to keep new ones; the profiles are compared outside
/// it. It holds at most ``capacity`` readings, then keeps no more: a replay past it reads the
/// trees, as without the store.
final class SharedReadings: Sendable {
    /// About 100 MB of readings.
    static let capacity = 12_000_000

    /// What an app's readings are read from.
    struct Source {
        let app: String
        let traces: Int
        /// The instant of the plan's first minute.
        let start: Milliseconds
        let profiles: Planner.DayProfiles
        let habits: Planner.DayProfiles

        fileprivate var key: Key { Key(app: app, traces: traces, start: start) }
    }

    fileprivate struct Key: Hashable {
        let app: String
        let traces: Int
        let start: Milliseconds
    }

    private struct Readings {
        let profiles: Planner.DayProfiles
        let habits: Planner.DayProfiles
        var chances: [Double]

        func reads(_ source: Source) -> Bool { profiles == source.profiles && habits == source.habits }
    }

    private struct Store {
        var readings: [Key: [Readings]] = [:]
        var count = 0
    }

    private let store = Mutex(Store())

    init() {}

    /// The readings kept of each source, in order from its start: as many as were read; none
    /// when none were.
    func chances(_ sources: [Source]) -> [[Double]] {
        let found = store.withLock { store in sources.map { store.readings[$0.key] } }
        return zip(sources, found).map { source, found in found?.first { $0.reads(source) }?.chances ?? [] }
    }

    /// Keeps the readings of each source, in order from its start, where they go further than
    /// those kept.
    func keep(_ made: [(source: Source, chances: [Double])]) {
        store.withLock { store in
            for (source, chances) in made where store.count < Self.capacity {
                let key = source.key
                var kept = store.readings.removeValue(forKey: key) ?? []
                if let position = kept.firstIndex(where: { $0.reads(source) }) {
                    let more = chances.count - kept[position].chances.count
                    if more > 0 { (kept[position].chances, store.count) = (chances, store.count + more) }
                } else {
                    kept.append(Readings(profiles: source.profiles, habits: source.habits, chances: chances))
                    store.count += chances.count
                }
                store.readings[key] = kept
            }
        }
    }
}
