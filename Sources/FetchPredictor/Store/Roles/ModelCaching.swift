import Foundation

/// The learned models a store keeps, so that a process learns a device's events once and a new
/// one starts from where another left off. One role of ``EventStoring``.
public protocol ModelCaching: AnyObject, Sendable {
    /// The learned model of a device cached in the store, and the time of the last event it
    /// learned from; `nil` when there is none for this configuration key, or the device's zone
    /// changed since.
    func cachedModel(device: String, configuration key: String) async throws -> CachedModel?

    /// Where learning a device's model through `end` starts, read at one moment: the cached model
    /// (``cachedModel(device:configuration:)``) when it learned no event after `end`, whether any
    /// event comes after `end`, and how many of the events a model learns from come after the
    /// cache (after the start, with none) through `end`, counted as far as `counting` says.
    func learningStart(
        device: String, configuration key: String, through end: Milliseconds, counting: LearningStart.Counting
    ) async throws -> LearningStart

    /// Caches a device's learned model, unless the device is gone, in another zone, or written
    /// since `version` (the version it was learned at): a model that may have missed an event
    /// stored meanwhile, by any process, is not kept.
    /// - Returns: whether it was cached: the device was still at `version`.
    @discardableResult
    func cacheModel(
        _ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) async throws -> Bool

    /// Forgets every cached learned model: the next scheduler learns from all events again.
    func dropLearnedModels() async throws
}

/// Where learning a device's model starts (``ModelCaching/learningStart(device:configuration:through:counting:)``).
public struct LearningStart: Sendable {
    /// How far the events a learn reads are counted: no further than `whenLatest` when no event
    /// comes after the end asked (the model then holds every event, and may be cached), than
    /// `whenLater` when one does; `nil` is not counted. Counting a million events is not free:
    /// a learn counts only as far as it needs.
    public struct Counting: Sendable {
        public var whenLatest: Int?
        public var whenLater: Int?

        /// Creates a value with every field given.
        public init(whenLatest: Int?, whenLater: Int?) {
            self.whenLatest = whenLatest
            self.whenLater = whenLater
        }

        /// As far as `limit` either way.
        public static func atMost(_ limit: Int?) -> Counting { Counting(whenLatest: limit, whenLater: limit) }
    }

    /// The cached model to learn on from; `nil` when there is none to start from.
    public var cached: CachedModel?
    /// How many events come after it (after the start, with none) through the end asked, counted
    /// no further than the limit asked; `nil` when not counted.
    public var pending: Int?
    /// Whether the device has an event after the end asked.
    public var hasLaterEvents: Bool

    /// Creates a value with every field given.
    public init(cached: CachedModel?, pending: Int?, hasLaterEvents: Bool) {
        self.cached = cached
        self.pending = pending
        self.hasLaterEvents = hasLaterEvents
    }
}

/// A learned model as a store caches it: the model, and the time of the last event it learned.
public struct CachedModel: Sendable {
    /// The time of the last event the model learned from.
    public var asOf: Milliseconds
    /// The model, in the device's zone.
    public var model: DeviceModel

    /// Creates a value with every field given.
    public init(asOf: Milliseconds, model: DeviceModel) {
        self.asOf = asOf
        self.model = model
    }
}

/// A learned model as a cache keeps it: the bytes the model's types make of it (the device's
/// own state, and each app's apart, so that a query about one app reads one app), with the zone
/// it was learned in. Both stores keep these bytes and give them back as they were; whether they
/// are a model of this version is decided here, once.
package struct EncodedModel: Sendable {
    /// The zone the model was learned in.
    package var timeZone: TimeZone
    /// The device's own state (``DeviceModel/encodedHeader()``).
    package var header: [UInt8]
    /// Each app's model (``AppModel/encoded()``), by name.
    package var apps: [(name: String, bytes: [UInt8])]

    /// The bytes of a model.
    package init(_ model: DeviceModel) {
        timeZone = model.timeZone
        header = model.encodedHeader()
        apps = model.apps.map { ($0.key, $0.value.encoded()) }
    }

    /// Bytes as a store kept them.
    package init(timeZone: TimeZone, header: [UInt8], apps: [(name: String, bytes: [UInt8])]) {
        self.timeZone = timeZone
        self.header = header
        self.apps = apps
    }

    /// The model, or `nil` when any part of it is not one of this version (a cache written by
    /// another version of the package, or damaged): the events are then learned again.
    package func decoded() -> DeviceModel? {
        var models: [String: AppModel] = [:]
        for (name, bytes) in apps {
            guard let model = AppModel(encoded: bytes) else { return nil }
            models[name] = model
        }
        return DeviceModel(encodedHeader: header, apps: models, timeZone: timeZone)
    }

    /// Whether a store may keep a model learned at `version` of a device in `timeZone`, which the
    /// device now has at `storedVersion` in `storedZone`: not when any process wrote the device
    /// since (the model may have missed an event), nor when its zone changed (habits would be
    /// read at other hours).
    package func mayBeKept(learnedAt version: Int64, storedVersion: Int64, storedZone: String?) -> Bool {
        storedVersion == version && storedZone.flatMap(TimeZone.init(identifier:)) == timeZone
    }
}
