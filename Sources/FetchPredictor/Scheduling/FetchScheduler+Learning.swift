import Foundation

/// Learning a device's model into its slot: from the store's cache and the events after it,
/// with the ``FetchScheduler/admission``'s turn when the learn is large. Called holding the
/// slot's lock, by `prepare`, as the device's scheduling state (``DeviceScheduling``) says.
extension FetchScheduler {
    /// Learns the model of a slot's device as of `limit`, the device at `version`.
    /// - Returns: what it learned from, and whether it may serve later queries: only if no write
    ///   of the device came meanwhile (as the model's cache found it, else as its settings say now).
    func learnModel(
        _ slot: DeviceSlot, zone: TimeZone, through limit: Milliseconds, version: Int64,
        until deadline: LearningDeadline
    ) async throws -> (LoadedModel, mayStay: Bool) {
        slot.isLearning = true
        defer { slot.isLearning = false }
        do {
            let (loaded, cached) = try await load(slot, zone: zone, through: limit, version: version, until: deadline)
            if let cached { return (loaded, cached) }
            return (loaded, try await store.planningSettings(device: slot.device).version == version)
        } catch {
            slot.scheduling.learnFailed()
            slots.forget(slot)
            throw error
        }
    }

    /// Learns a device's model into its slot's predictor as of `limit`, from the cache and the
    /// events after it.
    ///
    /// - Returns: what the model was learned from, and, when it was cached, whether the device was
    ///   still at `version` then.
    func load(
        _ slot: DeviceSlot, zone: TimeZone, through limit: Milliseconds, version: Int64,
        until deadline: LearningDeadline
    ) async throws -> (model: LoadedModel, cached: Bool?) {
        // With an admission, whether the learn is large; for a model that is cached behind a lag
        // (none comes after the limit), where the newest cacheLag events start. Only events up to
        // the limit are read, even when there were none after it: one that another process
        // stores meanwhile is not learned into this answer.
        let large = admission != nil ? largeLearn : nil
        let start = try await store.learningStart(
            device: slot.device, configuration: cacheKey(slot), through: limit,
            counting: LearningStart.Counting(whenLatest: cacheLag > 0 ? .max : large, whenLater: large))
        let later = start.hasLaterEvents
        let (newest, cached) = try await learn(
            slot, zone: zone, from: consume start, through: limit, caching: later ? nil : version, until: deadline)
        let extent: LoadedModel.Extent = later ? .through(limit: limit) : .everything(newest: newest)
        return (LoadedModel(extent: extent, version: version), cached)
    }

    /// Learns a device's model from where `start` says (the cache, else the start) and the events
    /// after it, up to `end`; caches the model as of a checkpoint when `caching` gives the
    /// device's version it was learned at, and no process wrote the device since.
    ///
    /// The cache is written as of the model before the newest ``cacheLag`` events, and only when
    /// that moves it by ``cacheLag`` events or more.
    ///
    /// - Returns: the time of the newest event learned, and, when the model was cached, whether
    ///   the device was still at `caching` then.
    func learn(
        _ slot: DeviceSlot, zone: TimeZone, from start: consuming LearningStart, through end: Milliseconds,
        caching version: Int64?, until deadline: LearningDeadline
    ) async throws -> (newest: Milliseconds, cached: Bool?) {
        let device = slot.device
        let learning = Learning(model: DeviceModel(timeZone: zone))
        var fromCache = false
        if let cached = start.cached, cached.model.timeZone == zone {
            (learning.asOf, learning.model, fromCache) = (cached.asOf, cached.model, true)
        }
        // Counted from the cache: of no use when the cache is in a zone the settings no longer say
        // (a write the version will refuse to cache over).
        let pending = fromCache || start.cached == nil ? start.pending : nil
        // The model learned on is the only reference to the cached one's storage: learning
        // changes it in place, not a copy of every app's arrays.
        start.cached = nil
        let admitted = try await admit(device, pending: pending, until: deadline)
        defer { if admitted { admission?.endLearning(device: device) } }
        if version != nil, cacheLag > 0, let pending {
            // Moved by at least cacheLag events.
            let before = pending - cacheLag
            if before >= (fromCache ? cacheLag : 1) { learning.checkpointAfter = before }
        } else if version != nil, cacheLag == 0 {
            learning.keepsEnd = true
        }
        let (configuration, inputs) = (self.configuration, slot.predictor.forecaster.inputs)
        try await store.forEachEvent(device: device, after: learning.asOf, through: end) { event in
            learning.observe(event, configuration, learning: inputs)
        }
        var cached: Bool?
        if let version, let checkpoint = learning.kept {
            cached = try await store.cacheModel(
                checkpoint.model, asOf: checkpoint.asOf, device: device, configuration: cacheKey(slot), version: version
            )
        }
        slot.predictor.setModel(learning.model, device: device)
        return (learning.asOf, cached)
    }

    /// Asks the ``admission`` to learn a device's `pending` events, when they are a large learn,
    /// waiting for a turn until `deadline`.
    ///
    /// - Returns: whether the admission let the learn start, and must be told when it ends.
    /// - Throws: ``SchedulerBusy`` when it still refused at the deadline.
    func admit(_ device: String, pending: Int?, until deadline: LearningDeadline) async throws -> Bool {
        guard let admission, let pending, pending >= largeLearn else { return false }
        if admission.beginLearning(device: device) { return true }
        guard let instant = deadline.instant, instant > .now else {
            throw SchedulerBusy(device: device, reason: .learningRefused, waited: deadline.wait)
        }
        admission.queryWaits(device: device, for: .learningRefused)
        guard await admission.beginLearning(device: device, waitingUntil: instant) else {
            throw SchedulerBusy(device: device, reason: .learningRefused, waited: deadline.wait)
        }
        return true
    }
}
