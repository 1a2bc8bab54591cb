import Foundation

/// Who may learn a device's model now: how a service bounds the learning work that one tenant
/// runs at once, so that its heavy requests cannot take every core from the others.
///
/// ``FetchScheduler`` asks ``beginLearning(device:)`` before a large learn of a device's model
/// from the store (the costly step of a query: reading many of the device's events and learning
/// them; at least ``FetchScheduler/largeLearn`` past its cached model), and calls
/// ``endLearning(device:)`` once it is done, whatever the outcome. A smaller learn costs about
/// what planning does, and is not asked about. A scheduler made with an
/// admission never waits on its thread for another request's learning: when this refuses, or the
/// device is being learned by another request, the query throws ``SchedulerBusy``, and the
/// caller waits where waiting costs no thread, then asks again.
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
public protocol LearningAdmission: Sendable {
    /// Whether a device's model may be learned now; `true` obliges the scheduler to call
    /// ``endLearning(device:)`` after.
    func beginLearning(device: String) -> Bool
    /// The learning that ``beginLearning(device:)`` let start has ended.
    func endLearning(device: String)
}

/// A query that a scheduler with a ``LearningAdmission`` did not run, rather than wait on its
/// thread: ask again shortly. Nothing was changed.
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

    public init(device: String, reason: Reason) {
        self.device = device
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .learningRefused: "Learning the model of device '\(device)' must wait for others: ask again shortly."
        case .deviceBeingLearned: "The model of device '\(device)' is being learned: ask again shortly."
        }
    }
}
