import FetchPredictor
import Foundation

/// A store that holds a device's learning still until a test lets it go: its reads of that
/// device's events stop at a gate, so that a test can ask for another device (or the same one)
/// while the first is provably still learning, and check the order of answers, not their times.
/// It counts each device's reads of events, so that a test can tell how often a model was learned.
public final class GatedStore: EventStoring, @unchecked Sendable {
    /// The store every call goes to.
    public let base: any EventStoring
    /// The device whose reads of events wait at the gate.
    public let gatedDevice: String
    private let entered = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var reads: [String: Int] = [:]
    private var gateOpen = false
    private var waiting = 0

    public var calls: StoreCalls { base.calls }

    public init(_ base: any EventStoring, gating device: String) {
        self.base = base
        gatedDevice = device
    }

    /// Waits until a read of the gated device's events has reached the gate; `false` after
    /// `seconds` without one.
    public func waitUntilLearning(seconds: Double = 30) -> Bool {
        entered.wait(timeout: .now() + seconds) == .success
    }

    /// Waits, without holding a thread, until a read of the gated device's events has reached
    /// the gate; `false` after `seconds` without one. For async tests, whose threads the service
    /// under test needs.
    public func reachedGate(seconds: Double = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lock.withLock({ waiting > 0 }) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// Lets every read at the gate, and every later one, go on.
    public func open() {
        lock.withLock { gateOpen = true }
    }

    /// How many times a device's kept wake was read: once a device a plan, for a test to tell
    /// how far a sweep has gone.
    public var keptWakeReads: Int { lock.withLock { keptWakeReadCount } }
    private var keptWakeReadCount = 0

    /// How many times the events of `device` were read for learning.
    public func learnCount(_ device: String) -> Int { lock.withLock { reads[device, default: 0] } }

    /// How many events of `device` its reads for learning gave, in all.
    public func eventsRead(_ device: String) -> Int { lock.withLock { eventsGiven[device, default: 0] } }
    private var eventsGiven: [String: Int] = [:]

    /// Run before each read of the due kept wakes: a write of another client's, between the
    /// feed's plan of the stale devices and that read.
    public var beforeDueWakes: (@Sendable () async throws -> Void)? {
        get { lock.withLock { dueWakesHook } }
        set { lock.withLock { dueWakesHook = newValue } }
    }
    private var dueWakesHook: (@Sendable () async throws -> Void)?

    public var location: String { base.location }
    public func record(_ events: [Event], device: String) async throws -> RecordedBatch {
        try await base.record(events, device: device)
    }
    public func eventCount(
        device: String, after time: Milliseconds, through end: Milliseconds, atMost limit: Int
    ) async throws -> Int {
        try await base.eventCount(device: device, after: time, through: end, atMost: limit)
    }
    public func forEachEvent(
        device: String, after time: Milliseconds, through end: Milliseconds,
        _ body: @escaping @Sendable (Event) throws -> Void
    ) async throws {
        let gated = lock.withLock {
            reads[device, default: 0] += 1
            return device == gatedDevice && !gateOpen
        }
        if gated {
            lock.withLock { waiting += 1 }
            entered.signal()
            // Suspended, holding no thread, until the test opens the gate.
            while !lock.withLock({ gateOpen }) { try await Task.sleep(for: .milliseconds(2)) }
            lock.withLock { waiting -= 1 }
        }
        try await base.forEachEvent(device: device, after: time, through: end) { event in
            self.lock.withLock { self.eventsGiven[device, default: 0] += 1 }
            try body(event)
        }
    }
    public func apps(device: String?, asOf time: Date?) async throws -> [AppSummary] {
        try await base.apps(device: device, asOf: time)
    }
    public func forEachStoredEvent(
        device: String?, from start: Milliseconds?, to end: Milliseconds?,
        _ body: @escaping @Sendable (Event) throws -> Void
    ) async throws {
        try await base.forEachStoredEvent(device: device, from: start, to: end, body)
    }
    public func importFile(
        _ path: String, options: ImportOptions, now: Date, progress: (@Sendable (Int64, Int64) -> Void)?,
        onReject: (@Sendable (Rejection) -> Void)?
    ) async throws -> ImportReport {
        try await base.importFile(path, options: options, now: now, progress: progress, onReject: onReject)
    }
    public func imports() async throws -> [ImportSummary] { try await base.imports() }
    public func prune(before time: Milliseconds, device: String?, dryRun: Bool) async throws -> PruneReport {
        try await base.prune(before: time, device: device, dryRun: dryRun)
    }
    public func prune(importID: Int64, dryRun: Bool) async throws -> PruneReport {
        try await base.prune(importID: importID, dryRun: dryRun)
    }
    public func reread(device: String, in zone: TimeZone, now: Date) async throws -> [ImportReport] {
        try await base.reread(device: device, in: zone, now: now)
    }
    public func eraseDevice(_ device: String, dryRun: Bool) async throws -> PruneReport {
        try await base.eraseDevice(device, dryRun: dryRun)
    }
    public func devices() async throws -> [String] { try await base.devices() }
    public func wakesPerHour(device: String) async throws -> Int? { try await base.wakesPerHour(device: device) }
    public func devices(tenant: String, after: String?, limit: Int) async throws -> [String] {
        try await base.devices(tenant: tenant, after: after, limit: limit)
    }
    public func hasDevice(_ device: String) async throws -> Bool { try await base.hasDevice(device) }
    public func timeZone(device: String) async throws -> TimeZone? { try await base.timeZone(device: device) }
    public func changeDevice(_ change: DeviceSettingsChange, device: String) async throws {
        try await base.changeDevice(change, device: device)
    }
    public func defaultInterval() async throws -> FetchInterval { try await base.defaultInterval() }
    public func setDefaultInterval(_ interval: FetchInterval) async throws {
        try await base.setDefaultInterval(interval)
    }
    public func defaultInterval(device: String) async throws -> FetchInterval {
        try await base.defaultInterval(device: device)
    }
    public func changeApp(_ change: AppSettingsChange, app: String, device: String) async throws -> AppSettings {
        try await base.changeApp(change, app: app, device: device)
    }
    public func settings(app: String, device: String) async throws -> AppSettings {
        try await base.settings(app: app, device: device)
    }
    public func appSettings(device: String) async throws -> [AppSettings] { try await base.appSettings(device: device) }
    public func planningSettings(device: String) async throws -> PlanningSettings {
        try await base.planningSettings(device: device)
    }
    public func cachedModel(device: String, configuration key: String) async throws -> CachedModel? {
        try await base.cachedModel(device: device, configuration: key)
    }
    public func learningStart(
        device: String, configuration key: String, through end: Milliseconds, counting: LearningStart.Counting
    ) async throws -> LearningStart {
        try await base.learningStart(device: device, configuration: key, through: end, counting: counting)
    }
    public func cacheModel(
        _ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) async throws -> Bool {
        try await base.cacheModel(model, asOf: asOf, device: device, configuration: key, version: version)
    }
    public func dropLearnedModels() async throws { try await base.dropLearnedModels() }
    public func createKey(tenant: String, now: Date) async throws -> (key: String, info: APIKeyInfo) {
        try await base.createKey(tenant: tenant, now: now)
    }
    public func keys() async throws -> [APIKeyInfo] { try await base.keys() }
    public func cursorSecret() async throws -> [UInt8] { try await base.cursorSecret() }
    public func revokeKey(id: Int64, now: Date) async throws -> Bool { try await base.revokeKey(id: id, now: now) }
    public func tenant(forKey key: String) async throws -> String? { try await base.tenant(forKey: key) }
    public func keyRevocations() async throws -> KeyRevocations { try await base.keyRevocations() }
    public func check() async throws { try await base.check() }
    public func keptWake(device: String) async throws -> KeptWake? {
        lock.withLock { keptWakeReadCount += 1 }
        return try await base.keptWake(device: device)
    }
    public func keepWake(_ planned: PlannedWake, device: String, generation: Int64) async throws -> Bool {
        try await base.keepWake(planned, device: device, generation: generation)
    }
    public func devicesToPlan(
        scope: String?, at time: Milliseconds, after: String?, limit: Int
    ) async throws -> [String] {
        try await base.devicesToPlan(scope: scope, at: time, after: after, limit: limit)
    }
    public func plansBehind(at time: Milliseconds) async throws -> (count: Int, since: Milliseconds?) {
        try await base.plansBehind(at: time)
    }
    public func takeFreshnessWork(limit: Int, now: Milliseconds, settle: Milliseconds) async throws
        -> [FreshnessWork]
    {
        try await base.takeFreshnessWork(limit: limit, now: now, settle: settle)
    }
    public func markFreshness(_ work: FreshnessWork) async throws { try await base.markFreshness(work) }
    public func keepFreshness(_ kept: [KeptDays]) async throws -> Int { try await base.keepFreshness(kept) }
    public func keptFreshness(tenant: String, days: Range<Int>, app: String?) async throws -> KeptFreshness {
        try await base.keptFreshness(tenant: tenant, days: days, app: app)
    }
    public func dueWakes(
        scope: String?, at time: Milliseconds, before: Milliseconds, after cursor: WakeCursor?, limit: Int
    ) async throws -> [KeptWake] {
        if let hook = lock.withLock({ dueWakesHook }) { try await hook() }
        return try await base.dueWakes(scope: scope, at: time, before: before, after: cursor, limit: limit)
    }
    public func claimWakes(
        keeping plans: [KeptWake], scope: String?, at time: Milliseconds, before: Milliseconds, limit: Int,
        clock: Milliseconds, leaseUntil: Milliseconds
    ) async throws -> [KeptWake] {
        try await base.claimWakes(
            keeping: plans, scope: scope, at: time, before: before, limit: limit, clock: clock, leaseUntil: leaseUntil)
    }
    public func planWakesWith(settings: String) async throws -> Bool {
        try await base.planWakesWith(settings: settings)
    }
    public func keepWakes(_ plans: [KeptWake]) async throws -> Int { try await base.keepWakes(plans) }
    public func keptPlanWake(device: String, settings: String, at time: Milliseconds, app: String?) async throws
        -> KeptPlanAnswer
    {
        try await base.keptPlanWake(device: device, settings: settings, at: time, app: app)
    }
    public func keepPlan(
        _ plan: DevicePlan, device: String, settings: String, validFrom: Milliseconds, generation: Int64
    ) async throws -> Bool {
        try await base.keepPlan(plan, device: device, settings: settings, validFrom: validFrom, generation: generation)
    }
    public func setDefaultWakesPerHour(_ wakesPerHour: Int?, scope: String) async throws {
        try await base.setDefaultWakesPerHour(wakesPerHour, scope: scope)
    }
    public func defaultWakesPerHour(scope: String) async throws -> Int? {
        try await base.defaultWakesPerHour(scope: scope)
    }
}
