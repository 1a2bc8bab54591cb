import Foundation

/// Time zones by their IANA names alone, such as `Europe/London`, and `UTC`.
///
/// Foundation also takes abbreviations and offsets, with meanings that surprise: `BST` is
/// Bangladesh, not British Summer Time; `IST` is India; `EST` keeps no daylight saving time while
/// `PST` does; `UTC+5:30` and `GMT+1` are fixed offsets, which a place's clock is not. A daily habit
/// read in the wrong zone is silently wrong, so every zone a person or a client gives is read here,
/// and anything but an IANA name is refused with the zones it likely meant.
///
/// ```swift
/// let zone = try TimeZoneName.zone(named: "Asia/Kolkata")
/// try TimeZoneName.zone(named: "BST")  // throws: it may mean Europe/London or Asia/Dhaka
/// ```
public enum TimeZoneName {
    /// The zone of an IANA name (`Area/Location`, as `Europe/Warsaw`), or of `UTC`.
    ///
    /// - Throws: ``TimeZoneNameError`` for anything else, with the names it likely meant.
    public static func zone(named name: String) throws(TimeZoneNameError) -> TimeZone {
        guard let zone = ianaZone(name) else {
            throw TimeZoneNameError(name: name, suggestions: suggestions(for: name))
        }
        return zone
    }

    /// The zones of the tz database named without an area that follow a region's daylight
    /// saving rules (`CET` is Central European time with its summer time), unlike the fixed
    /// offsets `EST`, `MST` and `HST`, which stay refused.
    static let ruleZones: Set<String> = ["CET", "EET", "WET", "MET", "EST5EDT", "CST6CDT", "MST7MDT", "PST8PDT"]

    /// A zone's name as people and clients read it: its IANA name, and `UTC` for the zone of
    /// `UTC` (which Foundation names `GMT` on Linux).
    public static func name(of zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }

    /// The zone of an IANA name or `UTC`; `nil` for anything else.
    private static func ianaZone(_ name: String) -> TimeZone? {
        if name == "UTC" { return TimeZone(identifier: "UTC")! }
        if ruleZones.contains(name), let zone = TimeZone(identifier: name), zone.identifier == name { return zone }
        guard name.contains("/"), let zone = TimeZone(identifier: name), zone.identifier == name else { return nil }
        return zone
    }

    /// The IANA names a text likely meant: the places an abbreviation is used in, the name with
    /// its letters' case mended, or the zones of a city.
    static func suggestions(for text: String) -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let places = abbreviations[trimmed.uppercased()] { return places }
        let key = normalized(trimmed)
        guard !key.isEmpty else { return [] }
        var found: [String] = []
        func add(_ name: String) {
            if !found.contains(name), ianaZone(name) != nil { found.append(name) }
        }
        // The whole name in another case, then a city: among the names Foundation lists, and
        // as the city of each area (Foundation's list has older names of some, as Asia/Calcutta).
        for name in TimeZone.knownTimeZoneIdentifiers where normalized(name) == key { add(name) }
        if !key.contains("/") {
            for name in TimeZone.knownTimeZoneIdentifiers
            where normalized(String(name.split(separator: "/").last ?? "")) == key {
                add(name)
            }
            for area in areas { add("\(area)/\(titled(trimmed))") }
        } else {
            add(key.split(separator: "/").map { titled(String($0)) }.joined(separator: "/"))
        }
        return Array(found.prefix(3))
    }

    /// A name compared without case, with spaces as underscores.
    private static func normalized(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: " ", with: "_")
    }

    /// A city as IANA writes it: each word capitalized, joined by underscores (`new york`,
    /// `NEW_YORK` → `New_York`).
    private static func titled(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "_")
    }

    /// The first part of IANA's names of places.
    private static let areas = [
        "Europe", "America", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian", "Antarctica",
    ]

    /// Abbreviations people write for a zone, with the places each is used in, the likeliest
    /// first. An abbreviation is no zone: most name several, and none says when its place
    /// changes its clocks.
    static let abbreviations: [String: [String]] = [
        "GMT": ["UTC", "Europe/London"], "Z": ["UTC"], "UT": ["UTC"],
        "BST": ["Europe/London", "Asia/Dhaka"], "IST": ["Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"],
        "WET": ["Europe/Lisbon"], "WEST": ["Europe/Lisbon"],
        "CET": ["Europe/Paris", "Europe/Berlin", "Europe/Warsaw"],
        "CEST": ["Europe/Paris", "Europe/Berlin", "Europe/Warsaw"],
        "EET": ["Europe/Athens", "Europe/Helsinki", "Europe/Kyiv"],
        "EEST": ["Europe/Athens", "Europe/Helsinki", "Europe/Kyiv"], "MSK": ["Europe/Moscow"],
        "EST": ["America/New_York", "America/Toronto"], "EDT": ["America/New_York", "America/Toronto"],
        "CST": ["America/Chicago", "Asia/Shanghai", "America/Havana"], "CDT": ["America/Chicago"],
        "MST": ["America/Denver", "America/Phoenix"], "MDT": ["America/Denver"],
        "PST": ["America/Los_Angeles", "America/Vancouver"], "PDT": ["America/Los_Angeles", "America/Vancouver"],
        "AKST": ["America/Anchorage"], "AKDT": ["America/Anchorage"], "HST": ["Pacific/Honolulu"],
        "AST": ["America/Halifax", "Asia/Riyadh"], "NST": ["America/St_Johns"],
        "BRT": ["America/Sao_Paulo"], "ART": ["America/Argentina/Buenos_Aires"],
        "JST": ["Asia/Tokyo"], "KST": ["Asia/Seoul"], "HKT": ["Asia/Hong_Kong"], "SGT": ["Asia/Singapore"],
        "PHT": ["Asia/Manila"], "WIB": ["Asia/Jakarta"], "ICT": ["Asia/Bangkok"], "PKT": ["Asia/Karachi"],
        "AEST": ["Australia/Sydney", "Australia/Brisbane"], "AEDT": ["Australia/Sydney"],
        "ACST": ["Australia/Adelaide", "Australia/Darwin"], "AWST": ["Australia/Perth"],
        "NZST": ["Pacific/Auckland"], "NZDT": ["Pacific/Auckland"],
        "SAST": ["Africa/Johannesburg"], "CAT": ["Africa/Maputo"], "EAT": ["Africa/Nairobi"],
        "WAT": ["Africa/Lagos"],
    ]
}

/// A time zone that is not an IANA name, with the names it likely meant.
public struct TimeZoneNameError: Error, Equatable, CustomStringConvertible {
    /// The text given, as given.
    public var name: String
    /// The IANA names it likely meant, the likeliest first; empty when nothing comes close.
    public var suggestions: [String]

    public init(name: String, suggestions: [String]) {
        self.name = name
        self.suggestions = suggestions
    }

    /// The text given, shortened for a message: a client may send anything.
    var shownName: String { name.count > 40 ? name.prefix(40) + "…" : name }

    public var description: String {
        let offset = name.range(of: #"^(UTC|GMT)?\s*[-+−]\d"#, options: .regularExpression) != nil
        if offset {
            return
                "'\(shownName)' is a fixed offset, and a place's clock is not: give the IANA name of the place, such as Asia/Kolkata or Europe/Warsaw."
        }
        switch suggestions.count {
        case 0:
            return
                "'\(shownName)' is not a known time zone: use an IANA name such as Europe/Warsaw or America/New_York."
        case 1:
            return "'\(shownName)' is not an IANA time zone name: did you mean \(suggestions[0])?"
        default:
            let choices = suggestions.dropLast().joined(separator: ", ") + " or " + suggestions.last!
            return "'\(shownName)' is not an IANA time zone name: it may mean \(choices); give the one meant."
        }
    }
}
