import FetchPredictorCore
import Foundation

/// The rules every store applies before it writes, the same for SQLite and PostgreSQL: what an
/// event may hold, what a tenant may be named, and when a zone given for a device is refused.
public enum StoreRules {
    /// The field of an event that cannot be stored and why, or `nil` when it can; the time is
    /// named `timeField`.
    package static func problem(with event: Event, timeField: String = "timestamp") -> (field: String, reason: String)?
    {
        if !event.kind.isDeviceEvent, let problem = EventLimits.problem(withAppName: event.app) {
            return ("app", problem)
        }
        if let problem = EventLimits.problem(withTime: event.time) { return (timeField, problem) }
        if let duration = event.duration, let problem = EventLimits.problem(withDuration: duration) {
            return ("duration", problem)
        }
        if let offset = event.utcOffset, let problem = EventLimits.problem(withUTCOffset: offset) {
            return (timeField, problem)  // the offset is read from the time's text
        }
        if let bytes = event.bytes, let problem = EventLimits.problem(withBytes: bytes) { return ("bytes", problem) }
        if event.kind == .fetch, event.result == nil { return ("result", "a fetch needs a result") }
        switch EventLimits.value(event.value, for: event.kind) {
        case .failure(let problem): return ("value", problem.reason)
        case .success(let value) where value != event.value:
            return ("value", "the value is not written as the store keeps it: '\(value ?? "")'")
        case .success: return nil
        }
    }

    /// The characters a tenant name may use: letters, digits, `.`, `_` and `-`, up to 64.
    public static func problem(withTenantName name: String) -> String? {
        if name.isEmpty { return "the tenant name is empty" }
        if name.utf8.count > 64 { return "the tenant name is longer than 64 bytes" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        if !name.allSatisfy(allowed.contains) {
            return "the tenant name may hold only letters, digits, '.', '_' and '-'"
        }
        if name == "." || name == ".." { return "the tenant name is '.' or '..'" }
        return nil
    }

    /// Refuses a zone given for a device that is in another: local times read in it would mean
    /// other instants, and habits read in it other hours.
    /// - Throws: ``StoreError/timeZoneConflict(device:stored:given:)``.
    package static func checkZone(_ given: TimeZone?, of device: String, against stored: TimeZone?) throws {
        guard let given, let stored, given.identifier != stored.identifier else { return }
        throw StoreError.timeZoneConflict(device: device, stored: stored.identifier, given: given.identifier)
    }

    /// Refuses an app name that breaks `EventLimits`, naming the field `app`.
    /// - Throws: ``InvalidFieldError/invalid(field:reason:)``.
    package static func checkAppName(_ app: String) throws {
        if let problem = EventLimits.problem(withAppName: app) {
            throw InvalidFieldError.invalid(field: "app", reason: problem)
        }
    }
}
