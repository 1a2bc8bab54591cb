import Foundation

/// What a device's model in memory was learned from: which of the device's events, and the
/// device's version in the store when it was read.
///
/// A query as of a time needs a model of exactly the events up to that time. This value says
/// which events the model in memory learned, and ``answers(asOf:version:)`` whether it serves a
/// query.
///
/// ```swift
/// let loaded = LoadedModel(extent: .everything(newest: lastEvent), version: 7)
/// loaded.answers(asOf: later, version: 7)  // true: nothing happened since
/// loaded.answers(asOf: later, version: 8)  // false: the device was written since
/// ```
package struct LoadedModel: Equatable, Sendable {
    /// Which events of a device a model was learned from.
    package enum Extent: Equatable, Sendable {
        /// Every event of every app the store held; the newest at `newest`
        /// (``Milliseconds/min`` when there were none). Serves any query as of that time or later.
        case everything(newest: Milliseconds)
        /// The events up to `limit` (included), of every app, for a query as of it: the store
        /// held later ones, which were left out. Serves only queries as of exactly `limit`.
        case through(limit: Milliseconds)
    }

    /// Which events the model was learned from.
    package var extent: Extent
    /// The device's version in the store when its settings were read, before the model was
    /// learned: a write of its events, zone or settings, by any process, bumps it.
    package var version: Int64

    package init(extent: Extent, version: Int64) {
        self.extent = extent
        self.version = version
    }

    /// Whether the model answers a query as of `time` of the device as it is at `version`.
    package func answers(asOf time: Milliseconds, version: Int64) -> Bool {
        guard version == self.version else { return false }
        switch extent {
        case .everything(let newest): return newest <= time
        case .through(let limit): return limit == time
        }
    }

    /// The newest event learned, when the model learned every event the store held: the one a
    /// newer event may be learned on top of. `nil` for a model of part of the events.
    package var newestOfEverything: Milliseconds? {
        if case .everything(let newest) = extent { return newest }
        return nil
    }
}

/// A model being learned from a store's events: the store may call with each event on a thread
/// of its own (``EventKeeping/forEachEvent(device:after:through:_:)``), one call after another,
/// and the learner reads it once the store's call has returned.
final class Learning: @unchecked Sendable {
    var model: DeviceModel
    /// The time of the newest event learned.
    var asOf = Milliseconds.min
    /// How many events were learned.
    var count = 0
    /// After how many events to keep the model as it is, for the cache: kept at the first
    /// instant past them, so that the events after it are exactly those later than its time.
    var checkpointAfter: Int?
    /// The model kept there, and the time of the last event it learned.
    private var checkpoint: CachedModel?

    /// Whether the model learned is the one to cache, when it learned any event.
    var keepsEnd = false

    /// The model to cache: the one kept at the checkpoint, or the one learned.
    var kept: CachedModel? {
        checkpoint ?? (keepsEnd && count > 0 ? CachedModel(asOf: asOf, model: model) : nil)
    }

    init(model: DeviceModel) {
        self.model = model
    }

    func observe(_ event: Event, _ configuration: PredictorConfiguration, learning inputs: ForecastInputs) {
        if checkpoint == nil, let after = checkpointAfter, count >= after, event.time > asOf {
            checkpoint = CachedModel(asOf: asOf, model: model)
        }
        model.observe(event, configuration, learning: inputs)
        asOf = event.time
        count += 1
    }
}
