import Foundation

/// A device's planned wake as a store keeps it (``WakeKeeping``).
public struct KeptWake: Sendable, Hashable {
    /// The device, as the store names it.
    public var device: String
    /// The plan: the wake, and from when until when it holds.
    public var planned: PlannedWake
    /// The device's plan generation when it was read: a plan made from what was read then is
    /// kept only if nothing moved it on since (``WakeKeeping/keepWake(_:device:generation:)``).
    public var generation: Int64

    /// Creates a value with every field given.
    public init(device: String, planned: PlannedWake, generation: Int64) {
        self.device = device
        self.planned = planned
        self.generation = generation
    }
}

/// Where a page of due wakes goes on from: after the wake of this time and device.
public struct WakeCursor: Sendable, Hashable {
    public var time: Milliseconds
    public var device: String

    public init(time: Milliseconds, device: String) {
        self.time = time
        self.device = device
    }
}

/// What a store keeps of each device's planned wake (`Predictor.plannedWake(asOf:device:)`),
/// so that a fleet's devices due before a time are found by an index rather than planned one by
/// one. The store makes a device's kept wake hold nowhere, in the transaction of the change,
/// whenever its events, zone, intervals, push budget or the store's default interval change;
/// planning it again is the scheduler's (``FetchScheduler/plannedWake(asOf:device:)``).
///
/// A scope is the part of a device's name up to and including its first `/` (a tenant's
/// devices in the service), `""` for names with none; `nil` is every device.
public protocol WakeKeeping: AnyObject, Sendable {
    /// The device's kept wake, which may hold nowhere; `nil` for a device the store does not have.
    func keptWake(device: String) async throws -> KeptWake?

    /// Keeps a device's plan, if its generation is still `generation`.
    /// - Returns: whether it was kept.
    func keepWake(_ planned: PlannedWake, device: String, generation: Int64) async throws -> Bool

    /// Keeps each of `plans` at its generation, as ``keepWake(_:device:generation:)`` does, all in
    /// one transaction.
    /// - Returns: how many were kept.
    func keepWakes(_ plans: [KeptWake]) async throws -> Int

    /// The devices of `scope` whose kept wake does not hold at `time`, by name, after `after`.
    func devicesToPlan(scope: String?, at time: Milliseconds, after: String?, limit: Int) async throws -> [String]

    /// How many devices of every scope have a kept wake that does not hold at `time`, and the
    /// earliest time from which one holds no more (of those whose time passed; a plan a write
    /// moved has none): how far planning is behind.
    func plansBehind(at time: Milliseconds) async throws -> (count: Int, since: Milliseconds?)

    /// The kept wakes of `scope` that hold at `time` and come before `before`, in the order of
    /// their time and device, after `cursor`.
    func dueWakes(scope: String?, at time: Milliseconds, before: Milliseconds, after cursor: WakeCursor?, limit: Int)
        async throws -> [KeptWake]

    /// Keeps `plans` (as ``keepWake(_:device:generation:)`` does, each at its generation), then
    /// leases up to `limit` of the wakes ``dueWakes(scope:at:before:after:limit:)`` gives, in
    /// their order, that no lease holds at `clock` (a lease is of one wake: a new plan's wake is
    /// free), until `leaseUntil`, all in one transaction: two claims never get the same wake, and
    /// no plan kept for another time comes between the plans and the claim.
    func claimWakes(
        keeping plans: [KeptWake], scope: String?, at time: Milliseconds, before: Milliseconds, limit: Int,
        clock: Milliseconds, leaseUntil: Milliseconds
    ) async throws -> [KeptWake]

    /// Makes every kept wake hold nowhere when the plans were made with settings other than
    /// `settings` (a description of the planning configuration), and records these.
    /// - Returns: whether they were other.
    @discardableResult
    func planWakesWith(settings: String) async throws -> Bool
}

extension KeptWake {
    /// The apps of a wake as a store keeps them: JSON.
    package static func encodeApps(_ apps: [AppWake]) -> String {
        String(decoding: (try? JSONEncoder().encode(apps)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// A kept wake from a store's columns.
    package static func make(
        device: String, generation: Int64, plannedAt: Milliseconds, validUntil: Milliseconds, time: Milliseconds?,
        apps: String?
    ) throws -> KeptWake {
        var wake: DeviceWake?
        if let time, let apps {
            let decoded = try JSONDecoder().decode([AppWake].self, from: Data(apps.utf8))
            wake = DeviceWake(device: device, time: Date(milliseconds: time), apps: decoded)
        }
        return KeptWake(
            device: device,
            planned: PlannedWake(
                wake: wake, plannedAt: Date(milliseconds: plannedAt), validUntil: Date(milliseconds: validUntil)),
            generation: generation)
    }
}
