import FetchPredictor
import Foundation
import Hummingbird
import NIOCore

/// The routes of a device's settings and of the tenant's devices: read, listed, set, erased.
extension Routes {
    /// A device's settings, as `PUT /v1/devices/{device}` takes and answers them.
    struct DeviceSettingsAnswer: Encodable {
        var device: String
        var timeZone: String?
        /// The device's default interval: its own, or the store's.
        var defaultInterval: String
        /// The push budget the device is planned with: at most this many device wakes in any
        /// hour; null for none.
        var wakesPerHour: Int?
        /// Whose budget that is: `device` (its own), `tenant` (its tenant's, `PUT /v1/settings`),
        /// `store` (the store's), or `none`.
        var wakesPerHourFrom: String
        /// The forecaster the device is planned with: its own, else the service's.
        var forecaster: String
        /// Whose forecaster that is: `device` (its own) or `service` (`serve --forecaster`).
        var forecasterFrom: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(device, forKey: .device)
            try container.encodeIfPresent(timeZone, forKey: .timeZone)
            try container.encode(defaultInterval, forKey: .defaultInterval)
            // Always there, null for none: a client reads "no budget", not "not told".
            try container.encode(wakesPerHour, forKey: .wakesPerHour)
            try container.encode(wakesPerHourFrom, forKey: .wakesPerHourFrom)
            try container.encode(forecaster, forKey: .forecaster)
            try container.encode(forecasterFrom, forKey: .forecasterFrom)
        }

        enum CodingKeys: String, CodingKey {
            case device, timeZone, defaultInterval, wakesPerHour, wakesPerHourFrom, forecaster, forecasterFrom
        }
    }

    /// A device's settings, as GET and PUT answer them: the push budget and the forecaster the
    /// device is planned with, and whose each is.
    func settings(of device: DeviceIdentity) async throws -> DeviceSettingsAnswer {
        let budget = try await store.effectiveWakesPerHour(device: device.stored)
        // The zone, the default interval in force and the forecaster, in one read.
        let planning = try await store.planningSettings(device: device.stored)
        return DeviceSettingsAnswer(
            device: device.name, timeZone: planning.timeZone.map(TimeZoneName.name(of:)),
            defaultInterval: planning.defaultInterval.text,
            wakesPerHour: budget.wakesPerHour, wakesPerHourFrom: budget.from.rawValue,
            forecaster: planning.forecaster ?? scheduler.forecaster.name,
            forecasterFrom: planning.forecaster == nil ? "service" : "device")
    }

    @Sendable func getDevice(_ request: Request, context: APIContext) async throws -> Response {
        let device = try context.device()
        guard try await store.hasDevice(device.stored) else { throw APIError.notFound(device: device.name) }
        return try Self.json(try await settings(of: device))
    }

    /// What erasing a device deleted.
    struct ErasedAnswer: Encodable {
        var device: String
        var erased: PruneReport
    }

    /// Erases a device: every event, setting, learned model and import record of it, in one
    /// transaction; then it is gone (404), and a device made later under its name starts anew.
    @Sendable func deleteDevice(_ request: Request, context: APIContext) async throws -> Response {
        let device = try context.device()
        let scheduler = self.scheduler
        let report = try await scheduler.eraseDevice(device.stored)
        return try Self.json(ErasedAnswer(device: device.name, erased: report))
    }

    /// A page of the tenant's devices.
    struct DevicesAnswer: Encodable {
        var devices: [String]
        /// Where the next page starts; absent on the last.
        var cursor: String?
    }

    /// The tenant's devices in byte order of their names, `limit` a page (100 by default, at
    /// most 1,000), each page after the last's `cursor`.
    @Sendable func listDevices(_ request: Request, context: APIContext) async throws -> Response {
        guard let tenant = context.tenant else { throw APIError(.unauthorized, "an API key is needed") }
        let limit = try Self.limit(request.uri.queryParameters["limit"].map(String.init))
        let prefix = DeviceIdentity.scope(ofTenant: tenant)
        var after: String?
        if let text = request.uri.queryParameters["cursor"] {
            guard let name = try await cursors.device(String(text), tenant: tenant) else {
                throw APIError(.badRequest, "'cursor' is not one this service gave this key's tenant", field: "cursor")
            }
            after = prefix + name
        }
        // One more than the page: whether another page follows.
        let names = try await store.devices(tenant: tenant, after: after, limit: limit + 1)
        let page = names.prefix(limit).map { String($0.dropFirst(prefix.count)) }
        var cursor: String?
        if names.count > limit, let last = page.last { cursor = try await cursors.devices(after: last, tenant: tenant) }
        return try Self.json(DevicesAnswer(devices: page, cursor: cursor))
    }

    @Sendable func putDevice(_ request: Request, context: APIContext) async throws -> Response {
        let device = try context.device()
        let change = try await body(DeviceSettingsBody.self, of: request, context: context).change
        // One transaction: a zone refused changes nothing else.
        try await store.changeDevice(change, device: device.stored)
        return try Self.json(try await settings(of: device))
    }

    /// An app's settings, as `PUT /v1/devices/{device}/apps/{app}` answers them.
    struct AppSettingsAnswer: Encodable {
        var device: String
        var app: String
        /// The app's own interval, or `nil` when it follows the device's default.
        var interval: String?
        var enabled: Bool
        var requiresPower: Bool
        var requiresUnmetered: Bool
        var requiresBatteryNotLow: Bool

        init(_ settings: AppSettings, device: String) {
            self.device = device
            app = settings.app
            interval = settings.interval?.text
            enabled = settings.enabled
            requiresPower = settings.constraints.requiresPower
            requiresUnmetered = settings.constraints.requiresUnmetered
            requiresBatteryNotLow = settings.constraints.requiresBatteryNotLow
        }
    }

    @Sendable func putApp(_ request: Request, context: APIContext) async throws -> Response {
        let device = try context.device()
        let app = try context.app()
        let change = try await body(AppSettingsBody.self, of: request, context: context).change
        // One transaction: the settings answered are the ones the change made.
        let settings = try await store.changeApp(change, app: app, device: device.stored)
        return try Self.json(AppSettingsAnswer(settings, device: device.name))
    }
}
