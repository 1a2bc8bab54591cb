import FetchPredictorCore
import Foundation

/// What a store does at each step of a prune, an import's removal or a device's erasure, within
/// one transaction: the part that differs between SQLite and PostgreSQL. The steps, their order
/// and their rules are ``PruneSteps``'s, the same for every store.
package protocol PruneTransaction {
    /// How the store selects the events that go.
    associatedtype Events

    /// The events before `time`, of `device` or of every device (`nil`).
    func events(before time: Milliseconds, device: String?) async throws -> Events

    /// The events import `id` stored.
    func events(ofImport id: Int64) async throws -> Events

    /// Every event of a device, or `nil` when the store has no such device.
    func events(ofDevice device: String) async throws -> Events?

    /// Forgets that other imports also held `events`.
    func forgetAlsoImported(_ events: Events) async throws

    /// Gives each event import `id` stored, and another import also holds, to the earliest such
    /// other import (to none, as recorded events have, when it was also recorded), then forgets
    /// what import `id` also held; returns how many events passed on.
    func passOn(importID id: Int64) async throws -> Int

    /// Drops the learned models of every device some of `events` were learned from.
    func dropModels(learnedFrom events: Events) async throws

    /// Deletes `events`, and returns how many of each kind.
    func delete(_ events: Events) async throws -> PruneReport

    /// Deletes the apps left with no event and no setting of their own.
    func deleteAppsLeftEmpty() async throws

    /// Takes import `id` out of the log; `false` when the log has no such import.
    func deleteImport(_ id: Int64) async throws -> Bool

    /// Erases what is left of a device whose events went: its imports in the log, its apps and
    /// settings, the device itself; and makes a device created under its name later start past
    /// its version, so that a process that held its model learns it again.
    func eraseDeviceRecords(_ device: String) async throws

    /// Moves on the version of every device some of `events` belong to, so that models kept in
    /// memory by other processes are learned again and its kept plan is made again: of those
    /// devices alone, since no other's events, model or plan change.
    func moveVersions(of events: Events) async throws
}

/// The steps of removing events for good, written once for every store: what other imports held
/// is settled first, then the learned models that remember the events and the versions of their
/// devices, the events, the apps
/// left empty, and what else goes with them. The caller runs them in one
/// transaction and rolls it back for a dry run.
package enum PruneSteps {
    /// See ``EventKeeping/prune(before:device:dryRun:)``.
    package static func prune<Transaction: PruneTransaction>(
        before time: Milliseconds, device: String?, in transaction: Transaction
    ) async throws -> PruneReport {
        let events = try await transaction.events(before: time, device: device)
        // What other imports also held goes with the events.
        try await transaction.forgetAlsoImported(events)
        return try await remove(events, kept: 0, in: transaction)
    }

    /// See ``ImportLogKeeping/prune(importID:dryRun:)``.
    package static func prune<Transaction: PruneTransaction>(
        importID id: Int64, in transaction: Transaction
    ) async throws -> PruneReport {
        let events = try await transaction.events(ofImport: id)
        // Each event another import (or `record`) also holds passes to the earliest of them and stays.
        let kept = try await transaction.passOn(importID: id)
        return try await remove(events, kept: kept, in: transaction) {
            guard try await transaction.deleteImport(id) else { throw StoreError.unknownImport(id) }
        }
    }

    /// See ``DeviceSettingsKeeping/eraseDevice(_:dryRun:)``.
    package static func eraseDevice<Transaction: PruneTransaction>(
        _ device: String, in transaction: Transaction
    ) async throws -> PruneReport {
        guard let events = try await transaction.events(ofDevice: device) else {
            throw StoreError.unknownDevice(device)
        }
        try await transaction.forgetAlsoImported(events)
        return try await remove(events, kept: 0, in: transaction) { try await transaction.eraseDeviceRecords(device) }
    }

    private static func remove<Transaction: PruneTransaction>(
        _ events: Transaction.Events, kept: Int, in transaction: Transaction, then: () async throws -> Void = {}
    ) async throws -> PruneReport {
        // Models of every device whose events go are dropped: they remember them. Their
        // versions move on, and with them their kept plans; no other device's.
        try await transaction.dropModels(learnedFrom: events)
        try await transaction.moveVersions(of: events)
        var report = try await transaction.delete(events)
        report.kept = kept
        // Apps left with no event and no setting of their own go too: their names are data.
        try await transaction.deleteAppsLeftEmpty()
        try await then()
        return report
    }
}
