import FetchPredictorCore
import Foundation

/// What a store does at each step of a settings change, within the change's one transaction: the
/// part that differs between SQLite and PostgreSQL. The steps, their order and their rules are
/// ``SettingsSteps``'s, the same for every store.
package protocol SettingsTransaction {
    /// A device's id and its zone as stored, the device made (in `zone`, when given) if new; its
    /// row held until the transaction ends.
    func device(_ name: String, creatingIn zone: TimeZone?) async throws -> (id: Int64, zone: String?)

    /// The imports of a device that read local times in a zone other than `zone`, by id.
    func importsReadingLocalTimes(device: String, otherThan zone: String) async throws -> [Int64]

    /// Puts a device in a zone; when it was in another, its learned models go and its version
    /// moves on, so that every process learns it again.
    func move(deviceID: Int64, to zone: TimeZone) async throws

    /// Sets the interval of a device's apps that set none; `nil` for the store's.
    func setDefaultInterval(_ interval: FetchInterval?, deviceID: Int64) async throws

    /// Sets a device's own push budget; `nil` for none.
    func setWakesPerHour(_ wakesPerHour: Int?, deviceID: Int64) async throws

    /// Sets the name of the forecaster a device is planned with; `nil` for the scheduler's.
    func setForecaster(_ forecaster: String?, deviceID: Int64) async throws

    /// An app's id and settings, the app made with the defaults if new; its row held until the
    /// transaction ends.
    func app(_ app: String, deviceID: Int64, device: String) async throws -> (id: Int64, settings: AppSettings)

    /// Writes an app's settings, each in its column (`AppSettingsColumns`).
    func setAppSettings(_ settings: AppSettings, appID: Int64) async throws
}

/// The steps of a settings change, written once for every store. The caller runs them in one
/// transaction, so that a change is made whole or not at all.
package enum SettingsSteps {
    /// See ``DeviceSettingsKeeping/changeDevice(_:device:)``.
    package static func changeDevice<Transaction: SettingsTransaction>(
        _ change: DeviceSettingsChange, device: String, in transaction: Transaction
    ) async throws {
        if let name = change.forecaster ?? nil, Forecasters.named(name) == nil {
            throw StoreError.unknownForecaster(name)
        }
        // The zone first: when it is refused, nothing else changes either.
        let (id, stored) = try await transaction.device(device, creatingIn: change.timeZone)
        if let zone = change.timeZone {
            if let stored, stored != zone.identifier {
                let imports = try await transaction.importsReadingLocalTimes(device: device, otherThan: zone.identifier)
                if !imports.isEmpty {
                    // Moved, each of those events would mean another instant.
                    throw StoreError.localTimesReadInZone(
                        device: device, stored: stored, given: zone.identifier, imports: imports)
                }
            }
            try await transaction.move(deviceID: id, to: zone)
        }
        if let interval = change.defaultInterval {
            try await transaction.setDefaultInterval(interval, deviceID: id)
        }
        if let budget = change.wakesPerHour {
            try await transaction.setWakesPerHour(budget, deviceID: id)
        }
        if let forecaster = change.forecaster {
            try await transaction.setForecaster(forecaster, deviceID: id)
        }
    }

    /// See ``DeviceSettingsKeeping/changeApp(_:app:device:)``; the name checked by
    /// ``StoreRules/checkAppName(_:)`` before the transaction.
    package static func changeApp<Transaction: SettingsTransaction>(
        _ change: AppSettingsChange, app: String, device: String, in transaction: Transaction
    ) async throws -> AppSettings {
        let deviceID = try await transaction.device(device, creatingIn: nil).id
        let (id, stored) = try await transaction.app(app, deviceID: deviceID, device: device)
        let settings = change.applied(to: stored)
        if !change.isEmpty { try await transaction.setAppSettings(settings, appID: id) }
        return settings
    }
}
