import Foundation

/// The predictor on top of the event store: what other schedulers embed.
///
/// It records launches and fetch results in the store, keeps each device's learned model in
/// memory (and cached in the store, so that it never learns from all events twice), and answers
/// when to wake which app. One value can be shared by many tasks; time is always passed in.
///
/// ```swift
/// let store = try EventStore(path: path)
/// try store.setTimeZone(TimeZone(identifier: "Europe/Warsaw")!, device: "phone")
/// let scheduler = FetchScheduler(store: store)
/// try await scheduler.recordLaunch("com.example.news", at: now, device: "phone")
/// if let wake = try await scheduler.nextWake(after: now, device: "phone") {
///     // sleep until wake.time, then fetch for each of wake.apps and record the results
/// }
/// ```
///
/// ## Topics
/// - ``init(store:configuration:forecaster:maximumLoadedDevices:requiresKnownDevices:admission:learningWait:largeLearn:cacheLag:keepsPlans:)``
/// - ``recordLaunch(_:at:device:)``
/// - ``recordFetch(_:at:result:duration:device:)``
/// - ``nextWake(after:before:device:)``
/// - ``schedule(from:to:device:)``
public final class FetchScheduler: @unchecked Sendable {
    /// The store the scheduler reads and writes: the SQLite ``EventStore``, or any other.
    public let store: any SchedulingStore
    /// The settings of learning and planning.
    public let configuration: PredictorConfiguration
    /// What forecasts each app's cold launches, for every device that sets none of its own.
    public let forecaster: any LaunchForecaster
    /// The most devices whose models are kept in memory; the least recently used goes first.
    public let maximumLoadedDevices: Int
    /// Whether a query about a device the store does not have throws
    /// ``StoreError/unknownDevice(_:)``, rather than answer as for a device with no events.
    public let requiresKnownDevices: Bool
    /// Who may learn a device's model now, when the learn is large (``largeLearn``); `nil` lets
    /// every query learn, and a query of a device that another is learning waits for it.
    public let admission: (any LearningAdmission)?
    /// With an ``admission``, how long a query waits in line for learning (its turn to learn,
    /// or its device's model being learned by another query), suspended and holding no thread,
    /// before it throws ``SchedulerBusy``. Waiters are served in the order they came.
    public let learningWait: Duration
    /// How many events past a device's cached model a learn must read to be large, and ask the
    /// ``admission``: one of fewer costs about what planning a day does (4,096 events are learned
    /// in a few milliseconds), and runs at once, as a relearn after a batch of older events does.
    public let largeLearn: Int
    /// The default ``largeLearn``.
    public static let defaultLargeLearn = 4_096
    /// How many of a device's newest events its cached model leaves out: a learn caches the model
    /// as it was before its newest `cacheLag` events (fewer, when several share the instant where
    /// it stops), and leaves the cache as it is when that would move it by fewer than `cacheLag`
    /// events. So a batch a little older than the newest event learned (a device's launches sent
    /// after the fetches its server recorded, two uploads crossing) leaves the cache standing, and
    /// the next query learns fewer than twice as many events, and those stored since, not every
    /// event again. With 0 the cache is as of the newest event.
    public let cacheLag: Int
    /// The default ``cacheLag``: a learn from the cache reads fewer than 128 events, well under
    /// a millisecond.
    public static let defaultCacheLag = 64
    /// Whether a next-wake query answers from the plan the store keeps for the device
    /// (``PlanKeeping``) when one holds, and keeps the plan it makes when none does, while its
    /// caller goes on (``plansKept()`` waits for it): for a process that asks once and exits,
    /// which then answers without learning the device's model.
    public let keepsPlans: Bool
    /// Each device's model in memory, behind a lock of its own.
    let slots: DeviceSlots
    /// Whether the store's kept wakes were checked to be planned with this configuration.
    let wakePlanning = Once()
    /// The plans being kept in the store (``keepsPlans``).
    let keptPlans = PlansBeingKept()

    /// - Parameters:
    ///   - store: the event store.
    ///   - configuration: learning and planning settings.
    ///   - forecaster: what forecasts each app's cold launches (`HazardForecaster` by default)
    ///     for the devices that set none of their own (``DeviceSettingsChange/forecaster``);
    ///     models are cached for what each reads (`LaunchForecaster/learningKey(_:)`).
    ///   - maximumLoadedDevices: the most devices whose learned models stay in memory; the least
    ///     recently used are dropped first (a sixteenth of the limit at once, when it is passed),
    ///     and learned again from the store's cache when asked.
    ///   - requiresKnownDevices: whether a query about a device the store does not have throws
    ///     ``StoreError/unknownDevice(_:)``, as a service that answers 404 for it wants.
    ///   - admission: who may learn a device's model now, when the learn is large. With one, a
    ///     query waits for learning, its own turn or another query's learn of its device, at most
    ///     `learningWait`, then throws ``SchedulerBusy``, as the HTTP service wants.
    ///   - learningWait: with an admission, how long a query waits for learning (``learningWait``).
    ///   - largeLearn: how many events past the cached model a learn reads to be large.
    ///   - cacheLag: how many of a device's newest events its cached model leaves out
    ///     (``cacheLag``): 0 for a process that asks once, as a command of the CLI does.
    ///   - keepsPlans: whether next-wake queries answer from the store's kept plans, and keep
    ///     the plans they make (``keepsPlans``): for a process that asks once.
    public init(
        store: any SchedulingStore, configuration: PredictorConfiguration = PredictorConfiguration(),
        forecaster: any LaunchForecaster = HazardForecaster(), maximumLoadedDevices: Int = .max,
        requiresKnownDevices: Bool = false,
        admission: (any LearningAdmission)? = nil, learningWait: Duration = .zero,
        largeLearn: Int = FetchScheduler.defaultLargeLearn,
        cacheLag: Int = FetchScheduler.defaultCacheLag, keepsPlans: Bool = false
    ) {
        self.store = store
        self.configuration = configuration
        self.forecaster = forecaster
        self.maximumLoadedDevices = max(1, maximumLoadedDevices)
        self.requiresKnownDevices = requiresKnownDevices
        self.admission = admission
        self.learningWait = max(.zero, learningWait)
        self.largeLearn = max(1, largeLearn)
        self.cacheLag = max(0, cacheLag)
        self.keepsPlans = keepsPlans
        slots = DeviceSlots(maximum: self.maximumLoadedDevices, configuration: configuration, forecaster: forecaster)
    }

    /// How many devices' models are in memory now; read without waiting for a query in flight.
    public var loadedDeviceCount: Int { slots.loadedCount }

    /// The key under which a device's learned model is cached: only settings that change
    /// learning, for its forecaster's inputs.
    func cacheKey(_ slot: DeviceSlot) -> String { slot.predictor.forecaster.learningKey(configuration) }

    /// Loads a device's settings and its model as of `time`, holding the device's lock: learned
    /// from the events before it (`Date.knownThrough`), never from one at it or later, so that an
    /// answer about the past is the one a store holding only the events until then gives.
    ///
    /// The model of every event is cached in the store, and a query learns only from the events
    /// the cache has not seen; a model as of an earlier time is learned from the cache when the
    /// cache is older, else from the start, and is not cached.
    ///
    /// - Returns: whether the model may stay loaded after this query: not when the device was
    ///   written while it was learned, since it may or may not hold that write.
    private func prepare(
        _ slot: DeviceSlot, settings: PlanningSettings, asOf time: Date, until deadline: LearningDeadline
    )
        async throws -> Bool
    {
        let device = slot.device
        let defaultInterval = settings.defaultInterval
        if slot.predictor.defaultInterval != defaultInterval { slot.predictor.defaultInterval = defaultInterval }
        if slot.predictor.wakesPerHour(device: device) != settings.wakesPerHour {
            slot.predictor.setWakesPerHour(settings.wakesPerHour, device: device)
        }
        // What to do is the device's scheduling state's to say (DeviceScheduling); this does it.
        let preparation = slot.scheduling.query(asOf: time.knownThrough, settings: settings)
        if preparation.forgetModel { slots.forget(slot) }
        if let own = preparation.forecaster {
            // The device's own forecaster, else the scheduler's.
            slot.predictor.forecaster = own.flatMap(Forecasters.named) ?? forecaster
        }
        var (step, mayStay) = (preparation.next, true)
        while true {
            switch step {
            case .answerAsAbsent:
                // A device that is not there has no events, no settings and no zone: the
                // predictor knows nothing of it, and answers as for a device with no events.
                return true
            case .failNoTimeZone:
                // One that is there is planned in its own zone, never in an assumed one.
                throw StoreError.noTimeZone(device: device)
            case .learn(let limit, let version, let zone):
                let loaded: LoadedModel
                (loaded, mayStay) = try await learnModel(
                    slot, zone: zone, through: limit, version: version, until: deadline)
                step = slot.scheduling.learned(loaded)
                slots.installed(slot)
            case .setPolicies:
                setPolicies(slot, settings: settings)
                step = slot.scheduling.policiesSet(from: settings)
            case .answer:
                slots.markUsed(slot)
                return mayStay
            }
        }
    }

    /// Sets the policy of every app of a slot's device from its settings.
    private func setPolicies(_ slot: DeviceSlot, settings: PlanningSettings) {
        let device = slot.device
        let policies = settings.policies
        // A system package with no interval of its own is never woken (SystemApps).
        for app in slot.predictor.apps(device: device) where policies[app] == nil {
            slot.predictor.setPolicy(
                slot.isSystemApp(app) ? AppPolicy(interval: .never) : nil, app: app, device: device)
        }
        for (app, own) in policies {
            let interval = own.interval ?? (slot.isSystemApp(app) ? .never : settings.defaultInterval)
            slot.predictor.setPolicy(
                AppPolicy(interval: interval, enabled: own.enabled, constraints: own.constraints), app: app,
                device: device)
        }
    }

    /// Records a launch and learns from it.
    public func recordLaunch(_ app: String, at time: Date, device: String = "default") async throws {
        try await record(Event(kind: .launch, app: app, time: time.milliseconds), device: device)
    }

    /// Records how a background fetch ended and learns from it.
    public func recordFetch(
        _ app: String, at time: Date, result: FetchResult, duration: Double? = nil, device: String = "default"
    ) async throws {
        try await record(
            Event(kind: .fetch, app: app, time: time.milliseconds, result: result, duration: duration), device: device)
    }

    /// Stores an event, and learns from it when the device's model is loaded and the event is
    /// its newest; otherwise the next query learns it. Recording needs no time zone.
    private func record(_ event: Event, device: String) async throws {
        if let (field, reason) = EventLimits.problem(with: event, timeField: "time") {
            throw InvalidFieldError.invalid(field: field, reason: reason)
        }
        try await record([event], device: device)
    }

    /// Stores a batch of a device's events, all or none, and learns from them when the device's
    /// model is loaded, no other process wrote meanwhile, and they are all new and not older
    /// than what it learned; otherwise the next query learns them. Recording needs no time zone.
    ///
    /// A batch waits for a query of its device in flight only when the device's model is loaded;
    /// with an ``admission``, one that comes while the model is being learned is stored at once,
    /// and leaves the model to be learned again at the next query, rather than wait.
    ///
    /// - Throws: ``InvalidFieldError/invalidInBatch(index:field:reason:)`` for the first invalid event,
    ///   and then nothing is stored.
    @discardableResult
    public func record(_ events: [Event], device: String) async throws -> RecordedBatch {
        // With a model loaded, the batch is stored holding the device's lock, so that no query of
        // the device reads the store between the batch and the model learning it (it would find
        // the model behind the store, and learn the device again).
        guard let slot = await slots.loadedSlot(device, waitingForLearning: admission == nil) else {
            return try await store.record(events, device: device)
        }
        defer { slots.release(slot) }
        let batch = try await store.record(events, device: device)
        guard batch.stored > 0 else { return batch }
        let learned = events.filter(\.kind.isLearnedFromStore)
        switch slot.scheduling.recorded(
            version: batch.version, duplicates: batch.duplicates, times: learned.map(\.time))
        {
        case .learn?:
            // In the order the store gives when learning: by time, launches before fetches before
            // the device's state.
            for event in learned.sorted(by: Self.learningOrder) {
                var event = event
                event.device = nil
                // Loaded, the device has its zone: learning it cannot fail.
                try slot.predictor.observe(event, device: device)
            }
        case .forgetModel?:
            // Older events, a repeated one, or another writer's: learned again when asked.
            slots.forget(slot)
        case nil:
            break
        }
        return batch
    }

    /// The order events are learned in: by time, by kind (a launch before a fetch before the
    /// device's state, as `EventKind.storeCode` numbers them), then by app.
    private static func learningOrder(_ a: Event, _ b: Event) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.kind != b.kind { return a.kind.storeCode < b.kind.storeCode }
        return a.app < b.app
    }

    /// The next device wake strictly after `time`, or `nil` when none is planned: the wake the
    /// device waits for at `time` (`Predictor.plannedWake(asOf:device:)`), planned at its last
    /// event, at the wake before, or at its daily re-plan, so that asking again at any time until
    /// the wake gives the same wake. With `limit`, only a wake before it.
    ///
    /// Every answer is as of its time: learned from the events before it, never from one at it or later.
    /// The wake is the one the caller carries out, as the loop in the type's overview does: it
    /// is committed to (`Predictor/commit(to:device:)`), so that the fetches recorded at its
    /// time teach the forecasts' correction while the device's model stays loaded.
    public func nextWake(after time: Date, before limit: Date? = nil, device: String = "default") async throws
        -> DeviceWake?
    {
        try await nextWake(after: time, before: limit, device: device, app: nil, withReason: false).wake
    }

    /// Holding the device's lock, reads its settings, loads its model as of `time` and runs
    /// `body` with its predictor. Only this device's queries wait for each other: the
    /// lock of the registry of devices is never held across a store read or learning. The
    /// predictor's ``PredictorError/noTimeZone(device:)`` becomes the store's
    /// ``StoreError/noTimeZone(device:)``, which callers already handle.
    ///
    /// - Throws: ``SchedulerBusy`` with an ``admission``, once it waited ``learningWait`` for learning.
    func withDevice<T>(_ device: String, asOf time: Date, _ body: (inout Predictor) throws -> T) async throws -> T {
        try await withSlot(device, asOf: time) { slot in try body(&slot.predictor) }
    }

    /// Until when a query begun now waits for learning: with no ``admission``, as long as it
    /// takes; with one, ``learningWait``, or not at all when `waiting` is `false` (a sweep that
    /// never takes a client's turn).
    func learningDeadline(waiting: Bool = true) -> LearningDeadline {
        guard admission != nil else { return LearningDeadline(instant: nil, wait: .zero) }
        if waiting, let shared = Self.sharedLearningDeadline { return shared }
        let wait = waiting ? learningWait : .zero
        return LearningDeadline(instant: .now + wait, wait: wait)
    }

    /// The deadline of every query in ``waitingForLearning(_:)``'s body.
    @TaskLocal static var sharedLearningDeadline: LearningDeadline?

    /// Runs `body`, whose queries of this scheduler wait for learning at most ``learningWait``
    /// from now in all, not each as long: for a request that asks several questions, as the
    /// service's habits of an app do.
    ///
    /// - Parameter body: the queries.
    public func waitingForLearning<T>(_ body: () async throws -> T) async rethrows -> T {
        try await Self.$sharedLearningDeadline.withValue(learningDeadline()) { try await body() }
    }

    /// ``withDevice(_:asOf:_:)`` with the device's slot, for a query that reads more of it than
    /// the predictor (the model loaded, to keep its plan in the store).
    ///
    /// - Parameter deadline: until when to wait for learning; by default ``learningWait`` from now.
    func withSlot<T>(
        _ device: String, asOf time: Date, until deadline: LearningDeadline? = nil,
        _ body: (DeviceSlot) throws -> T
    ) async throws -> T {
        let deadline = deadline ?? learningDeadline()
        let slot = try await slots.lockedSlot(device, until: deadline, admission: admission)
        defer { slots.release(slot) }
        // Read holding the device's lock: a batch stored through this scheduler meanwhile is
        // then both in the store's version and in the model, never in one alone (which would
        // make the model look stale, and the device be learned again).
        let settings = try await store.planningSettings(device: device)
        if requiresKnownDevices, !settings.exists { throw StoreError.unknownDevice(device) }
        let mayStay = try await prepare(slot, settings: settings, asOf: time, until: deadline)
        defer { if slot.scheduling.answered(mayStay: mayStay) { slots.forget(slot) } }
        do {
            return try body(slot)
        } catch let error as PredictorError {
            switch error {
            case .noTimeZone(let device): throw StoreError.noTimeZone(device: device)
            }
        }
    }

    /// Erases a device for good (``DeviceSettingsKeeping/eraseDevice(_:dryRun:)``) and forgets its model,
    /// holding the device's lock: no query of it answers from what was erased.
    ///
    /// - Throws: ``StoreError/unknownDevice(_:)`` when there is no such device.
    public func eraseDevice(_ device: String) async throws -> PruneReport {
        let slot = try await slots.lockedSlot(device, until: learningDeadline(), admission: admission)
        defer { slots.release(slot) }
        let report = try await store.eraseDevice(device, dryRun: false)
        if slot.scheduling.erased() { slots.forget(slot) }
        return report
    }
}
