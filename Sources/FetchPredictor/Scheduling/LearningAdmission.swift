import Foundation

/// Who may learn a device's model now: how a service bounds the learning work that one tenant
/// runs at once, so that its heavy requests cannot take every core from the others.
///
/// ``FetchScheduler`` asks before a large learn of a device's model from the store (the costly
/// step of a query: reading many of the device's events and learning them; at least
/// ``FetchScheduler/largeLearn`` past its cached model), and calls ``endLearning(device:)`` once
/// it is done, whatever the outcome. A smaller learn costs about what planning does, and is not
/// asked about. A query waits for its turn, suspended and holding no thread, in line, at most the
/// scheduler's ``FetchScheduler/learningWait``
/// (``beginLearning(device:waitingUntil:)``); refused then, it throws ``SchedulerBusy``.
///
/// ```swift
/// final class OneLearnAtATime: LearningAdmission, @unchecked Sendable {
///     private let lock = NSLock()
///     private var running = false
///     func beginLearning(device: String) -> Bool {
///         lock.withLock {
///             if running { return false }
///             running = true
///             return true
///         }
///     }
///     func endLearning(device: String) { lock.withLock { running = false } }
/// }
/// ```
///
/// An admission with only these two refuses at once; one that keeps a line of its own
/// implements ``beginLearning(device:waitingUntil:)`` too.
public protocol LearningAdmission: Sendable {
    /// Whether a device's model may be learned now, without waiting; `true` obliges the
    /// scheduler to call ``endLearning(device:)`` after.
    func beginLearning(device: String) -> Bool
    /// Whether a device's model may be learned, waiting for a turn in the order the queries
    /// came until `deadline`; `true` obliges the scheduler to call ``endLearning(device:)`` after.
    /// By default, ``beginLearning(device:)``: no wait.
    ///
    /// - Parameters:
    ///   - device: the device whose model is to be learned.
    ///   - deadline: when a query still refused stops waiting.
    func beginLearning(device: String, waitingUntil deadline: ContinuousClock.Instant) async -> Bool
    /// The learning that ``beginLearning(device:)`` let start has ended.
    func endLearning(device: String)
    /// A query begins to wait for learning (its turn, or its device's model being learned by
    /// another query): for a count of waits. By default, nothing.
    ///
    /// - Parameters:
    ///   - device: the device asked about.
    ///   - reason: what it waits for.
    func queryWaits(device: String, for reason: SchedulerBusy.Reason)
}

extension LearningAdmission {
    public func beginLearning(device: String, waitingUntil deadline: ContinuousClock.Instant) async -> Bool {
        beginLearning(device: device)
    }

    public func queryWaits(device: String, for reason: SchedulerBusy.Reason) {}
}

/// A query that a scheduler with a ``LearningAdmission`` did not run, having waited for learning
/// as long as it may (``FetchScheduler/learningWait``): ask again shortly. Nothing was changed.
public struct SchedulerBusy: Error, Equatable, CustomStringConvertible {
    /// Why the query did not run.
    public enum Reason: Sendable, Equatable {
        /// The admission refused to let the device's model be learned now.
        case learningRefused
        /// Another query is learning this device's model now.
        case deviceBeingLearned
    }

    /// The device asked about.
    public var device: String
    /// Why the query did not run.
    public var reason: Reason
    /// How long the query was let wait (``FetchScheduler/learningWait``).
    public var waited: Duration

    /// - Parameters:
    ///   - device: the device asked about.
    ///   - reason: why the query did not run.
    ///   - waited: how long it was let wait.
    public init(device: String, reason: Reason, waited: Duration = .zero) {
        self.device = device
        self.reason = reason
        self.waited = waited
    }

    public var description: String {
        switch reason {
        case .learningRefused: "Learning the model of device '\(device)' must wait for others: ask again shortly."
        case .deviceBeingLearned: "The model of device '\(device)' is being learned: ask again shortly."
        }
    }
}
