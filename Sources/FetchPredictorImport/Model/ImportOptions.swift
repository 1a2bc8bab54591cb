import Foundation

/// Settings of one import.
public struct ImportOptions: Sendable {
    /// The format, or `nil` to detect it from the content.
    public var format: ImportFormat?
    /// The device the events belong to, unless a row names another.
    public var device: String
    /// The zone of local times in formats without offsets (App Usage), and of a device the import
    /// creates; when `nil`, the device's. No zone is ever assumed: local times with no zone named
    /// are refused.
    public var timeZone: TimeZone?
    /// The order of day and month in App Usage dates, when the file cannot tell.
    public var dateOrder: DateOrder?
    /// Store the valid rows of a file with invalid ones, instead of refusing the whole file.
    public var skipInvalid: Bool
    /// Android packages that end a visit but are not launches, besides the built-in list.
    public var extraIgnoredPackages: Set<String>
    /// Labels of App Usage pseudo-rows besides the known ones (English, Polish, French), as a
    /// phone in another language writes them: `"Ekran włączony (odblokowany)": .unlock`.
    public var rowLabels: [String: RowLabel]
    /// The settings besides format, device, zone and date order that change what a file reads
    /// as, in one canonical text (`nil` when there are none): an import log keeps it, so that the
    /// same file read otherwise is refused.
    public var readingKey: String? {
        var parts = rowLabels.sorted { $0.key < $1.key }.map { "label \($0.key)=\($0.value.rawValue)" }
        parts += extraIgnoredPackages.sorted().map { "ignore \($0)" }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// Takes the settings a ``readingKey`` wrote: its labels of pseudo-rows and ignored packages.
    public mutating func read(readingKey: String?) {
        for part in (readingKey ?? "").components(separatedBy: "; ") {
            if part.hasPrefix("label "), let equals = part.lastIndex(of: "=") {
                let label = String(part[part.index(part.startIndex, offsetBy: 6)..<equals])
                if let meaning = RowLabel(rawValue: String(part[part.index(after: equals)...])) {
                    rowLabels[label] = meaning
                }
            } else if part.hasPrefix("ignore ") {
                extraIgnoredPackages.insert(String(part.dropFirst(7)))
            }
        }
    }

    /// How many rejections the report keeps (all are passed to the rejects handler).
    public var rejectionsKept: Int

    /// Creates a value with every field given.
    public init(
        format: ImportFormat? = nil, device: String = "default", timeZone: TimeZone? = nil,
        dateOrder: DateOrder? = nil,
        skipInvalid: Bool = false, extraIgnoredPackages: Set<String> = [], rowLabels: [String: RowLabel] = [:],
        rejectionsKept: Int = 20
    ) {
        self.format = format
        self.device = device
        self.timeZone = timeZone
        self.dateOrder = dateOrder
        self.skipInvalid = skipInvalid
        self.extraIgnoredPackages = extraIgnoredPackages
        self.rowLabels = rowLabels
        self.rejectionsKept = rejectionsKept
    }
}
