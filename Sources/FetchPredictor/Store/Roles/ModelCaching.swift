import Foundation

/// The learned models a store keeps, so that a process learns a device's events once and a new
/// one starts from where another left off. One role of ``EventStoring``.
public protocol ModelCaching: AnyObject, Sendable {
    /// The learned model of a device cached in the store, with all its apps or only those named,
    /// and the time of the last event it learned from; `nil` when there is none for this
    /// configuration key, or the device's zone changed since.
    func cachedModel(device: String, configuration key: String, apps only: [String]?) async throws -> CachedModel?

    /// Caches a device's learned model, unless the device is gone, in another zone, or written
    /// since `version` (the version it was learned at): a model that may have missed an event
    /// stored meanwhile, by any process, is not kept.
    func cacheModel(
        _ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) async throws

    /// Forgets every cached learned model: the next scheduler learns from all events again.
    func dropLearnedModels() async throws
}

extension ModelCaching {
    /// The learned model of a device cached in the store, with all its apps.
    public func cachedModel(device: String, configuration key: String) async throws -> CachedModel? {
        try await cachedModel(device: device, configuration: key, apps: nil)
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
