import FetchPredictorImport
import Foundation

/// What a store does at each step of an import, within the import's one transaction: the
/// small part of an import that differs between SQLite and PostgreSQL. The steps themselves,
/// their order and their rules are ``ImportSteps``'s, the same for every store.
package protocol ImportTransaction {
    associatedtype Loader: ImportLoader

    /// The device's zone, held by the transaction so that no other import changes it meanwhile;
    /// `nil` when the device is new or has none.
    func zone(ofDevice device: String) async throws -> TimeZone?

    /// Gives a device that has no zone the zone an import names.
    func adoptZone(_ zone: TimeZone, device: String) async throws

    /// Writes the import's entry in the log, before any of its events, and returns its id.
    func beginImport(path: String, device: String, readingKey: String?, at time: Date) async throws -> Int64

    /// What stores the events of import `id`; a device it creates named in `newDeviceTimeZone`
    /// gets that zone.
    func loader(importID id: Int64, newDeviceTimeZone: (device: String, zone: String)?) async throws -> Loader

    /// The earlier imports of a file (by SHA-256) whose events the store still holds, oldest first.
    func importsHoldingEvents(sha256: String, before id: Int64) async throws -> [ImportReading]

    /// Completes the import's entry in the log with what it read and stored.
    func finishImport(id: Int64, report: ImportReport) async throws
}

/// What stores the events of one import.
package protocol ImportLoader {
    /// Takes some events of the file, in the file's order, each for its own device or else
    /// `device`.
    func add(_ events: [Event], device: String) async throws

    /// Stores what is left, drops the learned models that missed an event stored, bumps the
    /// version of every device written, and returns how many events were new.
    func finish() async throws -> Int
}

/// The steps of an import, written once for every store: the zone checked and adopted, the log's
/// entry begun, the file read into the store, a reading that contradicts an earlier one of the
/// same file refused, and the entry completed. The caller runs them in one transaction.
package enum ImportSteps {
    /// Imports one file through `transaction`; see ``ImportLogKeeping/importFile(_:options:now:progress:onReject:)``.
    package static func run<Transaction: ImportTransaction>(
        _ path: String, options: ImportOptions, now: Date, progress: (@Sendable (Int64, Int64) -> Void)?,
        onReject: (@Sendable (Rejection) -> Void)?, in transaction: Transaction
    ) async throws -> ImportReport {
        let deviceZone = try await transaction.zone(ofDevice: options.device)
        try StoreRules.checkZone(options.timeZone, of: options.device, against: deviceZone)
        // A device with no zone takes the one the import names, as a new one does.
        if let given = options.timeZone, deviceZone == nil {
            try await transaction.adoptZone(given, device: options.device)
        }
        let id = try await transaction.beginImport(
            path: path, device: options.device, readingKey: options.readingKey, at: now)
        let loader = try await transaction.loader(
            importID: id, newDeviceTimeZone: options.timeZone.map { (options.device, $0.identifier) })
        // Local times are read in the device's zone when the import names none.
        var reading = options
        reading.timeZone = options.timeZone ?? deviceZone
        // The file is read on a thread of its own while its events are stored; the devices its
        // rows name are noted on the way (a file's rows come a device at a time, mostly).
        var devices = Set<String>(), last: String?, begun = false
        var report = try await ReadAhead.read(
            path, with: LogReader(options: reading), progress: progress, onReject: onReject
        ) { events in
            for event in events where !begun || event.device != last {
                (begun, last) = (true, event.device)
                devices.insert(event.device ?? options.device)
            }
            try await loader.add(events, device: options.device)
        }
        report.devices = devices.sorted()
        report.stored = try await loader.finish()
        report.duplicates = report.events - report.stored
        try ImportReading.refuseOtherReadings(
            of: report, options: options,
            earlier: try await transaction.importsHoldingEvents(sha256: report.sha256, before: id))
        try await transaction.finishImport(id: id, report: report)
        report.timeZone = try await transaction.zone(ofDevice: options.device).map(TimeZoneName.name(of:))
        return report
    }
}
