import Foundation

/// One device's model in memory, with the lock its queries take: the queries of one device take
/// turns, while those of different devices never wait for each other.
final class DeviceSlot: @unchecked Sendable {
    /// The device, as the store names it.
    let device: String
    /// Held across a query of the device: its store reads, learning and planning.
    let lock = AsyncLock()
    /// The device's predictor, knowing this device alone. Guarded by ``lock``.
    var predictor: Predictor
    /// What is loaded of the device, and what each event makes of it: the rules the scheduler
    /// follows, as a value. Guarded by ``lock``.
    var scheduling = DeviceScheduling()
    /// The model loaded now, if any. Guarded by ``lock``.
    var loaded: LoadedModel? { scheduling.loaded }
    /// When the model was last used, on the registry's counter. Guarded by the registry's lock.
    var lastUse: UInt64 = 0
    /// Whether a query holding ``lock`` is learning the model now: one that does not wait for
    /// learning reads it without the lock, to tell a learn from a short query.
    var isLearning: Bool {
        get { flagLock.withLock { learning } }
        set { flagLock.withLock { learning = newValue } }
    }
    private let flagLock = NSLock()
    private var learning = false
    /// Which of the device's apps are system packages (`SystemApps`), as found: every query
    /// sets every app's policy. Guarded by ``lock``.
    private var systemApps: [String: Bool] = [:]

    /// Whether an app is a system package. Call holding ``lock``.
    func isSystemApp(_ app: String) -> Bool {
        if let known = systemApps[app] { return known }
        let system = SystemApps.contains(app)
        systemApps[app] = system
        return system
    }

    init(device: String, configuration: PredictorConfiguration, forecaster: any LaunchForecaster) {
        self.device = device
        predictor = Predictor(configuration: configuration, forecaster: forecaster)
    }
}

/// Until when a query waits for learning, and how long that is from when it began.
struct LearningDeadline: Sendable {
    /// `nil`: as long as it takes.
    var instant: ContinuousClock.Instant?
    var wait: Duration
}

/// The devices a scheduler has in memory, each in its own ``DeviceSlot``.
///
/// The registry's lock guards only the table of slots and the order of their use: it is held for
/// a lookup, never across a store read, learning or planning, and never while waiting for a
/// slot's lock (it only tries one, to evict a slot no query holds), so that no lock order can
/// deadlock. A slot's lock is taken while holding no other.
final class DeviceSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [String: DeviceSlot] = [:]
    /// The devices whose slot holds a model.
    private var loaded: Set<String> = []
    /// A counter of uses, to find the least recently used model.
    private var uses: UInt64 = 0
    /// The most models kept.
    let maximum: Int
    /// The configuration of every slot's predictor.
    let configuration: PredictorConfiguration
    /// What forecasts for every slot's predictor.
    let forecaster: any LaunchForecaster

    init(maximum: Int, configuration: PredictorConfiguration, forecaster: any LaunchForecaster) {
        self.maximum = maximum
        self.configuration = configuration
        self.forecaster = forecaster
    }

    /// How many devices' models are in memory now.
    var loadedCount: Int { lock.withLock { loaded.count } }

    /// The device's slot, locked: made when the device has none. Hand it back with ``release(_:)``.
    ///
    /// - Parameters:
    ///   - deadline: how long to wait, in line, while another query learns the device's model;
    ///     past it, that throws ``SchedulerBusy`` (a short query of the device is still waited for).
    ///   - admission: told of a wait for the device's learn.
    func lockedSlot(_ device: String, until deadline: LearningDeadline, admission: (any LearningAdmission)?)
        async throws -> DeviceSlot
    {
        while true {
            let slot = lock.withLock {
                if let slot = slots[device] { return slot }
                let slot = DeviceSlot(device: device, configuration: configuration, forecaster: forecaster)
                slots[device] = slot
                return slot
            }
            let taken = await take(slot, until: deadline.instant) {
                admission?.queryWaits(device: device, for: .deviceBeingLearned)
            }
            guard taken else { throw SchedulerBusy(device: device, reason: .deviceBeingLearned, waited: deadline.wait) }
            if !slot.scheduling.isRetired { return slot }
            slot.lock.unlock()
        }
    }

    /// The device's slot, locked, when it holds a model; `nil` when it holds none, or, unless
    /// `waitingForLearning`, while a query learns it.
    func loadedSlot(_ device: String, waitingForLearning: Bool) async -> DeviceSlot? {
        guard let slot = lock.withLock({ slots[device] }),
            await take(slot, until: waitingForLearning ? nil : .now, waitsForLearn: {})
        else { return nil }
        if slot.loaded == nil {
            slot.lock.unlock()
            return nil
        }
        return slot
    }

    /// Takes a slot's lock, waiting in line for the queries of the device in flight: with a
    /// `deadline`, `false`, without the lock, when a query learns the model from then on (a short
    /// query is waited for). `waitsForLearn` is told when it begins to wait for a learn.
    private func take(
        _ slot: DeviceSlot, until deadline: ContinuousClock.Instant?, waitsForLearn: () -> Void
    ) async -> Bool {
        if slot.lock.tryLock() { return true }
        guard let deadline else {
            await slot.lock.lock()
            return true
        }
        if slot.isLearning, deadline > .now { waitsForLearn() }
        if await slot.lock.lock(until: deadline) { return true }
        // Past the deadline a learn is not waited for; a short query is, a few milliseconds at a
        // time, so that a query behind it that learns is not waited for either.
        while !slot.isLearning {
            if await slot.lock.lock(until: .now + .milliseconds(5)) { return true }
        }
        return false
    }

    /// Unlocks a slot that ``lockedSlot(_:until:admission:)`` gave; one left with no model
    /// leaves the registry.
    func release(_ slot: DeviceSlot) {
        if slot.scheduling.release() {
            lock.withLock {
                if slots[slot.device] === slot { slots[slot.device] = nil }
            }
        }
        slot.lock.unlock()
    }

    /// Marks a locked slot's model as just used.
    func markUsed(_ slot: DeviceSlot) {
        lock.withLock {
            uses += 1
            slot.lastUse = uses
        }
    }

    /// Records that a locked slot's predictor holds the model it learned
    /// (``DeviceScheduling/learned(_:)``), then drops the least recently used models of other
    /// devices beyond the limit.
    func installed(_ slot: DeviceSlot) {
        lock.withLock {
            loaded.insert(slot.device)
            evictBeyondLimit(keeping: slot.device)
        }
    }

    /// Forgets a locked slot's model in its predictor, once its ``DeviceScheduling`` forgot it.
    func forget(_ slot: DeviceSlot) {
        slot.predictor.forget(device: slot.device)
        _ = lock.withLock { loaded.remove(slot.device) }
    }

    /// Drops the least recently used models, of slots no query holds, once more than the limit
    /// are loaded: a sixteenth of the limit more than needed, so that the models are sorted by
    /// use once in that many installs, not at every one (at 20,000 devices, a sort at every
    /// install held a cold start of 100,000 devices to 30 a second). Called holding the
    /// registry's lock.
    private func evictBeyondLimit(keeping device: String) {
        guard loaded.count > maximum else { return }
        let target = maximum - maximum / 16
        let candidates = loaded.compactMap { name in name == device ? nil : slots[name] }
            .sorted { $0.lastUse < $1.lastUse }
        for slot in candidates where loaded.count > target {
            // Only a slot no query holds: trying never waits, so no lock order can deadlock.
            guard slot.lock.tryLock() else { continue }
            slot.predictor.forget(device: slot.device)
            slot.scheduling.evict()
            slots[slot.device] = nil
            loaded.remove(slot.device)
            slot.lock.unlock()
        }
    }
}
