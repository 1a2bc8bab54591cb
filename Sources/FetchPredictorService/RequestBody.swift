import FetchPredictor
import Foundation

/// A route's JSON body read into a type. One reader (``Routes/body(_:of:context:)``) keeps the
/// rules every body keeps: a key twice, a string that is not UTF-8, and a key the body does not
/// take are refused, the last by name. Each field is read by its kind (``BodyField/Kind``), and
/// each kind words its refusal once, naming the field.
///
/// The OpenAPI document's schema of each body names the same fields, the same required ones,
/// with the JSON types each kind takes (``BodyField/Kind/jsonTypes``); a test holds them equal.
protocol RequestBody: BodySchema, Sendable {
    /// Reads the body's fields from its members, whose keys are all fields of the body.
    init(_ body: BodyMembers) throws
}

/// The fields a body takes, as the OpenAPI document's schema of it names them.
protocol BodySchema: SendableMetatype {
    /// The fields, in the order they are read: a body with two bad fields is refused for the
    /// first.
    static var fields: [BodyField] { get }
}

/// A field of a request body: its name, what it holds, and whether a body must give it.
struct BodyField: Sendable {
    /// What a field holds, read and refused in one way wherever it is.
    enum Kind: Sendable, Equatable {
        /// An IANA zone name (`TimeZoneName`).
        case zone
        /// `"never"`, `"minimum"` or a whole number of seconds, as text or number.
        case interval
        /// An interval, or null for none of its own.
        case intervalOrNull
        /// A push budget: a whole number of wakes from 1 to 60, or null for none.
        case budget
        /// One of `Forecasters.names`, or null for the service's.
        case forecaster
        case flag
        /// An instant: ISO 8601 with an offset or `Z`, or Unix seconds.
        case instant
        /// A whole number within a range.
        case whole(ClosedRange<Int>)
        /// A batch of events (``EventsBody``).
        case events

        /// The JSON types the field takes, as the document's schema writes them.
        var jsonTypes: Set<String> {
            switch self {
            case .zone: ["string"]
            case .interval: ["string", "integer"]
            case .intervalOrNull: ["string", "integer", "null"]
            case .budget: ["integer", "null"]
            case .forecaster: ["string", "null"]
            case .flag: ["boolean"]
            case .instant: ["string", "number"]
            case .whole: ["integer"]
            case .events: ["array"]
            }
        }
    }

    var name: String
    var kind: Kind
    var required = false
}

/// The members of a body, every key one of its fields, read by kind.
struct BodyMembers {
    typealias Scalar = SettingsBodyReader.Value

    let members: [String: Scalar]
    /// The instant the request is read at, by the service's clock.
    let clock: Date

    /// A zone; `nil` when the body gives none.
    func zone(_ field: BodyField) throws -> TimeZone? {
        guard let value = members[field.name] else { return nil }
        guard case .string(let name) = value else {
            throw APIError(
                .badRequest, "'\(field.name)' must be an IANA zone name such as Europe/Warsaw", field: field.name)
        }
        do {
            return try TimeZoneName.zone(named: name)
        } catch {
            throw APIError(.badRequest, error.description, field: field.name)
        }
    }

    /// An interval; `nil` when the body gives none, `.some(nil)` for a null it may take.
    func interval(_ field: BodyField) throws -> FetchInterval?? {
        guard let value = members[field.name] else { return nil }
        if value == .null, field.kind == .intervalOrNull { return .some(nil) }
        let text: String
        switch value {
        // As the document writes it: no case, spaces, sign or leading zero that the command line
        // forgives.
        case .string(let string)
        where string == "never" || string == "minimum"
            || (string.first != "0" && !string.isEmpty && string.utf8.allSatisfy { (0x30...0x39).contains($0) }):
            text = string
        case .number(let number) where Int(exactly: number) != nil: text = String(Int(exactly: number)!)
        default:
            throw APIError(
                .badRequest,
                "'\(field.name)' must be never, minimum or a whole number of seconds from 1 to \(FetchInterval.maximumSeconds)",
                field: field.name)
        }
        do {
            return try FetchInterval(parsing: text)
        } catch {
            throw APIError(.badRequest, "\(error)", field: field.name)
        }
    }

    /// A push budget; `nil` when the body gives none, `.some(nil)` for null: no budget.
    func budget(_ field: BodyField) throws -> Int?? {
        guard let value = members[field.name] else { return nil }
        switch value {
        case .null: return .some(nil)
        case .number(let number) where Int(exactly: number).map({ (1...60).contains($0) }) == true:
            return Int(exactly: number)
        default:
            throw APIError(
                .badRequest, "'\(field.name)' must be a whole number of wakes from 1 to 60, or null for no budget",
                field: field.name)
        }
    }

    /// A forecaster's name; `nil` when the body gives none, `.some(nil)` for null: the service's.
    func forecaster(_ field: BodyField) throws -> String?? {
        guard let value = members[field.name] else { return nil }
        switch value {
        case .null: return .some(nil)
        case .string(let name) where Forecasters.named(name) != nil: return name
        default:
            throw APIError(
                .badRequest,
                "'\(field.name)' must be one of \(Forecasters.names.joined(separator: ", ")), or null for the service's",
                field: field.name)
        }
    }

    /// A flag; `nil` when the body gives none.
    func flag(_ field: BodyField) throws -> Bool? {
        guard let value = members[field.name] else { return nil }
        guard case .bool(let flag) = value else {
            throw APIError(.badRequest, "'\(field.name)' must be true or false", field: field.name)
        }
        return flag
    }

    /// An instant; `nil` when the body gives none.
    func instant(_ field: BodyField) throws -> Date? {
        switch members[field.name] {
        case nil: return nil
        case .string(let text): return try Routes.instant(text, field: field.name)
        // Unix seconds, as a query and an event's timestamp take them.
        case .number(let seconds) where seconds.isFinite:
            let text = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
            return try Routes.instant(text, field: field.name)
        default:
            throw APIError(
                .badRequest, "'\(field.name)' must be an instant such as 2024-01-29T07:00:00Z or Unix seconds",
                field: field.name)
        }
    }

    /// A whole number within the field's range; `nil` when the body gives none.
    func whole(_ field: BodyField) throws -> Int? {
        guard case .whole(let range) = field.kind else { preconditionFailure("'\(field.name)' is not a whole number") }
        guard let value = members[field.name] else { return nil }
        guard case .number(let number) = value, let whole = Int(exactly: number), range.contains(whole) else {
            throw APIError(
                .badRequest, "'\(field.name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)",
                field: field.name)
        }
        return whole
    }
}

// MARK: The bodies

/// `PUT /v1/devices/{device}`: the device's zone, default interval, push budget and forecaster.
struct DeviceSettingsBody: RequestBody {
    static let timeZone = BodyField(name: "timeZone", kind: .zone)
    static let defaultInterval = BodyField(name: "defaultInterval", kind: .interval)
    static let wakesPerHour = BodyField(name: "wakesPerHour", kind: .budget)
    static let forecaster = BodyField(name: "forecaster", kind: .forecaster)
    static let fields = [timeZone, defaultInterval, wakesPerHour, forecaster]

    var change: DeviceSettingsChange

    init(_ body: BodyMembers) throws {
        change = DeviceSettingsChange(
            timeZone: try body.zone(Self.timeZone), defaultInterval: try body.interval(Self.defaultInterval),
            wakesPerHour: try body.budget(Self.wakesPerHour), forecaster: try body.forecaster(Self.forecaster))
    }
}

/// `PUT /v1/devices/{device}/apps/{app}`: the app's interval (null: the device's default), whether
/// it is fetched, and the state its wakes need.
struct AppSettingsBody: RequestBody {
    static let interval = BodyField(name: "interval", kind: .intervalOrNull)
    static let enabled = BodyField(name: "enabled", kind: .flag)
    static let constraints = AppConstraints.names.map { BodyField(name: $0, kind: .flag) }
    static let fields = [interval, enabled] + constraints

    var change = AppSettingsChange()

    init(_ body: BodyMembers) throws {
        change.interval = try body.interval(Self.interval)
        change.enabled = try body.flag(Self.enabled)
        for field in Self.constraints {
            if let flag = try body.flag(field) { change.setConstraint(field.name, to: flag) }
        }
    }
}

/// `PUT /v1/settings`: the push budget of the tenant's devices that set none of their own.
struct TenantSettingsBody: RequestBody {
    static let wakesPerHour = BodyField(name: "wakesPerHour", kind: .budget)
    static let fields = [wakesPerHour]

    /// `nil` when the body gives none; `.some(nil)`: no budget.
    var wakesPerHour: Int??

    init(_ body: BodyMembers) throws {
        wakesPerHour = try body.budget(Self.wakesPerHour)
    }
}

/// `POST /v1/wakes/claim`: the wakes due by `before`, as of `now`, at most `limit`, leased for
/// `leaseSeconds`.
struct ClaimBody: RequestBody {
    static let before = BodyField(name: "before", kind: .instant, required: true)
    static let limit = BodyField(name: "limit", kind: .whole(1...1000))
    static let leaseSeconds = BodyField(name: "leaseSeconds", kind: .whole(1...3600))
    static let now = BodyField(name: "now", kind: .instant)
    static let fields = [before, limit, leaseSeconds, now]

    /// The instant the claim is made as of: the body's, else the service's clock.
    var now: Date
    /// The instant the wakes are due by, after `now`.
    var before: Date
    var limit: Int
    var leaseSeconds: Int

    init(_ body: BodyMembers) throws {
        now = try body.instant(Self.now) ?? body.clock
        before = try Routes.dueBefore(try body.instant(Self.before), now: now)
        limit = try body.whole(Self.limit) ?? 100
        leaseSeconds = try body.whole(Self.leaseSeconds) ?? 60
    }
}

/// `POST /v1/devices/{device}/events`: a batch of events, read by the events' own reader
/// (`EventBatchReader`), which keeps the same rules and names the field at fault by its path
/// (`events[3].timestamp`).
enum EventsBody: BodySchema {
    static let fields = [BodyField(name: "events", kind: .events, required: true)]

    /// The batch's events, at most `maximumEvents`.
    static func read(_ bytes: [UInt8], maximumEvents: Int) throws -> [Event] {
        try EventBatchReader.read(bytes, maximumEvents: maximumEvents).get()
    }
}
