import Foundation

/// What a scheduler holds of one device, as a value: whether its model is loaded and what it was
/// learned from, the forecaster it plans with, and the settings its policies were set from. The
/// plan itself is the predictor's to keep (`Predictor.plannedWake(asOf:device:)`), dropped by
/// every change of the model or the settings that this value passes on to it.
///
/// Each event (a query as of an instant, a model learned, a batch recorded, an eviction) is a
/// function of this value alone that says what the scheduler must do next: read no store, learn,
/// set the policies, answer, forget the model. The scheduler does it (``FetchScheduler``'s
/// `prepare` and `record`, under the device's lock) and reports back, so that every rule of what
/// is loaded when is written here once and tested without a store (`DeviceSchedulingTests`).
///
/// ```swift
/// var state = DeviceScheduling()
/// state.query(asOf: limit, settings: settings)  // .learn(through: limit, version: 3, zone: zone)
/// state.learned(LoadedModel(extent: .everything(newest: last), version: 3))  // .setPolicies
/// state.policiesSet(from: settings)  // .answer
/// state.query(asOf: later, settings: settings)  // .answer: nothing changed
/// ```
struct DeviceScheduling: Equatable, Sendable {
    /// What is loaded of the device's model.
    enum Model: Equatable, Sendable {
        /// Nothing.
        case none
        /// A query is learning it, as of `limit`, from the device at `version`.
        case learning(limit: Milliseconds, version: Int64)
        /// Loaded, learned from what the value says.
        case loaded(LoadedModel)
        /// The device left the scheduler's table (evicted, or released with nothing loaded): a
        /// query that waited for it takes a new one.
        case retired
    }

    /// What a query does, once the device's settings are read (``query(asOf:settings:)``).
    struct Preparation: Equatable, Sendable {
        /// Whether to forget the predictor's model of the device first.
        var forgetModel = false
        /// The forecaster to plan with from now on, when it changed (`.some(nil)`: the
        /// scheduler's own).
        var forecaster: String?? = nil
        /// What comes then.
        var next: Step
    }

    /// A step of a query.
    enum Step: Equatable, Sendable {
        /// The device is not in the store: answer as for a device with no events, in no zone.
        case answerAsAbsent
        /// The device has no zone: it is never planned in an assumed one.
        case failNoTimeZone
        /// Learn the model from the store as of `limit`, in the device's `zone`, the device being
        /// at `version`; then ``learned(_:)``.
        case learn(through: Milliseconds, version: Int64, zone: TimeZone)
        /// Set every app's policy from the settings; then ``policiesSet(from:)``.
        case setPolicies
        /// Answer from the predictor as it is.
        case answer
    }

    /// What a batch stored while the model is loaded does to it (``recorded(version:duplicates:times:)``).
    enum BatchStep: Equatable, Sendable {
        /// Learn the batch's events into the model, which then holds every event up to `newest`
        /// at `version`.
        case learn(newest: Milliseconds, version: Int64)
        /// Forget the model: the batch is learned at the next query.
        case forgetModel
    }

    private(set) var model: Model = .none
    /// The device's own forecaster the predictor plans with; `nil` for the scheduler's.
    private(set) var forecaster: String?
    /// The settings the policies were set from, on the model loaded now.
    private(set) var policies: PlanningSettings?
    /// The model loaded now, if any.
    var loaded: LoadedModel? {
        if case .loaded(let loaded) = model { return loaded }
        return nil
    }

    /// Whether the device left the scheduler's table.
    var isRetired: Bool { model == .retired }

    /// A query as of `limit` (the last instant whose events it may read), the device's settings
    /// just read: what to do first.
    mutating func query(asOf limit: Milliseconds, settings: PlanningSettings) -> Preparation {
        var preparation = Preparation(next: .answer)
        // A model learned for another forecaster's inputs is learned again.
        if forecaster != settings.forecaster {
            forecaster = settings.forecaster
            preparation.forecaster = .some(settings.forecaster)
            preparation.forgetModel = forget()
        }
        guard settings.exists else {
            preparation.forgetModel = forget() || preparation.forgetModel
            preparation.next = .answerAsAbsent
            return preparation
        }
        guard let zone = settings.timeZone else {
            preparation.next = .failNoTimeZone
            return preparation
        }
        if let loaded, !loaded.answers(asOf: limit, version: settings.version) {
            preparation.forgetModel = forget() || preparation.forgetModel
        }
        if case .loaded = model {
            preparation.next = policies == settings ? .answer : .setPolicies
        } else {
            model = .learning(limit: limit, version: settings.version)
            preparation.next = .learn(through: limit, version: settings.version, zone: zone)
        }
        return preparation
    }

    /// The model a ``Step/learn(through:version:zone:)`` learned, now in the predictor: its policies
    /// are to be set.
    mutating func learned(_ loaded: LoadedModel) -> Step {
        model = .loaded(loaded)
        policies = nil
        return .setPolicies
    }

    /// A learn that failed: nothing is loaded.
    mutating func learnFailed() {
        if case .learning = model { model = .none }
    }

    /// The policies were set from `settings`: the query answers.
    mutating func policiesSet(from settings: PlanningSettings) -> Step {
        policies = settings
        return .answer
    }

    /// The query answered. `mayStay` is whether the model may serve later queries (not when the
    /// device was written while it was learned: it may or may not hold that write).
    /// - Returns: whether to forget the predictor's model.
    mutating func answered(mayStay: Bool) -> Bool {
        mayStay ? false : forget()
    }

    /// A batch of the device's events stored while its model is loaded, the device now at
    /// `version`, with `duplicates` already stored and its learned events at `times`: learned into
    /// the model when they all come after it and no one else wrote the device, else forgotten.
    mutating func recorded(version: Int64, duplicates: Int, times: [Milliseconds]) -> BatchStep? {
        guard let loaded else { return nil }
        if let newest = loaded.newestOfEverything, loaded.version == version - 1, duplicates == 0,
            times.allSatisfy({ $0 > newest })
        {
            let now = times.max().map { max($0, newest) } ?? newest
            model = .loaded(LoadedModel(extent: .everything(newest: now), version: version))
            policies = nil
            return .learn(newest: now, version: version)
        }
        // Older events, a repeated one, or another writer's: learned again when asked.
        _ = forget()
        return .forgetModel
    }

    /// The device erased from the store.
    /// - Returns: whether to forget the predictor's model.
    mutating func erased() -> Bool { forget() }

    /// The device dropped from memory: its model is forgotten, and it leaves the table.
    mutating func evict() {
        _ = forget()
        model = .retired
    }

    /// The query holding the device ended: one with no model loaded leaves the table.
    /// - Returns: whether it left.
    mutating func release() -> Bool {
        switch model {
        case .none:
            model = .retired
            return true
        case .retired: return true
        case .learning, .loaded: return false
        }
    }

    /// Forgets what is loaded. - Returns: whether a model was (the predictor's is to be forgotten).
    private mutating func forget() -> Bool {
        policies = nil
        switch model {
        case .loaded, .learning:
            model = .none
            return true
        case .none, .retired:
            return false
        }
    }
}
