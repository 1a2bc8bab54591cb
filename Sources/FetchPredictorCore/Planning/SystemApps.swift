import Foundation

/// Packages of the system that logs list as apps but whose content never goes stale: calls,
/// clocks and alarms, settings, calculators, cameras, home screens, the system UI, installers,
/// permission dialogs and Play services. An app of these with no interval of its own is never
/// woken, whatever the default interval: on a Samsung log the clock took 6 of 17 fetches, at
/// night. Setting an interval of its own (one by one, or in bulk with `config --apps-matching`)
/// wakes it as any other.
///
/// The names are data, not code: `system-apps.tsv` beside this file, compiled into the binary,
/// holds each package and each label App Usage writes for it, by maker and language.
public enum SystemApps {
    /// One name of the table: what the app is, whose name it is, in which language, and the
    /// name or pattern (`*` for any run of characters).
    public struct Entry: Sendable, Hashable {
        /// What the app is: `phone`, `clock`, `settings`, `calculator`, `camera`, `launcher`...
        public var role: String
        /// `package` for an Android package name, else the maker whose label it is (`android`
        /// for AOSP and most makers, `samsung`, `pixel`, `miui`).
        public var source: String
        /// The label's language (`en`, `pl`, `fr`, `de`, `es`, `pt`); `nil` for a package.
        public var language: String?
        /// The name, or a pattern where `*` stands for any run of characters.
        public var name: String
    }

    /// Every name of the table, in its order.
    public static let entries: [Entry] = parse(String(decoding: PackageResources.system_apps_tsv, as: UTF8.self))

    /// The names and patterns of the table.
    public static let patterns: [String] = entries.map(\.name)

    /// The lines of names without a `*`, by the name composed (NFC); of a name two languages share
    /// (Telefon), the first line.
    private static let exactNames: [String: Entry] = Dictionary(
        entries.filter { !$0.name.contains("*") }.map { ($0.name.precomposedStringWithCanonicalMapping, $0) },
        uniquingKeysWith: { first, _ in first })
    /// The lines whose name has a `*`.
    private static let wildcards: [Entry] = entries.filter { $0.name.contains("*") }

    /// Reads the table: tab-separated role, source, language and name; `#` starts a comment line.
    /// A line of another shape stops the program, naming it: the table is the package's own,
    /// checked by its tests.
    static func parse(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            precondition(
                fields.count == 4 && fields.allSatisfy { !$0.isEmpty },
                "system-apps.tsv, line \(number + 1): four fields separated by tabs expected")
            entries.append(
                Entry(role: fields[0], source: fields[1], language: fields[2] == "-" ? nil : fields[2], name: fields[3])
            )
        }
        return entries
    }

    /// Whether an app is one of the system's, by the table. A label written decomposed (an e and
    /// a combining accent) is the same label.
    public static func contains(_ app: String) -> Bool {
        entry(for: app) != nil
    }

    /// The table's line an app is taken as the system's by, if any: its role, maker and language.
    public static func entry(for app: String) -> Entry? {
        let composed = app.precomposedStringWithCanonicalMapping
        return exactNames[composed] ?? wildcards.first { matches(composed, pattern: $0.name) }
    }

    /// Whether a name fits a pattern, where `*` stands for any run of characters (none included)
    /// and every other character for itself, compared by Unicode scalars.
    public static func matches(_ name: String, pattern: String) -> Bool {
        let name = Array(name.unicodeScalars), pattern = Array(pattern.unicodeScalars)
        // The classic two-pointer glob match, backtracking to the last star.
        var n = 0, p = 0
        var star: Int?, resume = 0
        while n < name.count {
            if p < pattern.count, pattern[p] != "*", pattern[p] == name[n] {
                n += 1
                p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = n
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                n = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
