import FetchPredictorCore
import Foundation

/// The rules every store applies before it writes, the same for SQLite and PostgreSQL: what a
/// tenant may be named, and when a zone given for a device is refused (what an event may hold is
/// `EventLimits.problem(with:timeField:appField:)`, which the importers apply too).
public enum StoreRules {
    /// A stored interval's text as an interval: the rule every store reads an app's interval, a
    /// device's default and the store's by.
    ///
    /// - Throws: ``StoreError/damaged(path:detail:)`` when it is none.
    package static func storedInterval(_ text: String, location: String) throws -> FetchInterval {
        do {
            return try FetchInterval(parsing: text)
        } catch {
            throw StoreError.damaged(path: location, detail: "the interval '\(text)' is not an interval")
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

    /// Refuses a batch of events with one that breaks `EventLimits`, naming the first by its
    /// position in the batch: a store then stores none of them.
    /// - Throws: ``InvalidFieldError/invalidInBatch(index:field:reason:)``.
    package static func checkBatch(_ events: [Event]) throws {
        for (index, event) in events.enumerated() {
            if let (field, reason) = EventLimits.problem(with: event) {
                throw InvalidFieldError.invalidInBatch(index: index, field: field, reason: reason)
            }
        }
    }
}
