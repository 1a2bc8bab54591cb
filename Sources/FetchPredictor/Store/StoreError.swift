/// What can go wrong when opening or using the event store.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The file at the path exists and is not an SQLite database.
    case notADatabase(path: String)
    /// The database is damaged; SQLite's own message is kept.
    case damaged(path: String, detail: String)
    /// The database was written by a newer FetchPredictor, with migrations this one does not know.
    case newerSchema(path: String)
    /// The folder or file could not be created.
    case cannotCreate(path: String, reason: String)
    /// There is no store at the path, and the caller only reads.
    case missing(path: String)
    /// No device of that name in the store.
    case unknownDevice(String)
    /// A time zone name that is not in the IANA database.
    case unknownTimeZone(String)
    /// Another process held the database for longer than the busy timeout.
    case busy(path: String, seconds: Int)
    /// Another error from SQLite, with its message.
    case sqlite(path: String, detail: String)
    /// A time zone given for a device's local times contradicts the zone the device has.
    case timeZoneConflict(device: String, stored: String, given: String)
    /// The file was imported before, read another way: its events would be stored twice.
    case importedOtherwise(file: String, earlier: Int64, earlierFile: String, differences: [String])
    /// The device has no time zone, and daily habits are local times.
    case noTimeZone(device: String)
    /// No import of that id in the import log.
    case unknownImport(Int64)
    /// A file to read again is not the one its import read: its SHA-256 differs.
    case importedFileChanged(path: String, importID: Int64)
    /// No API key of that number.
    case unknownKey(Int64)
    /// Imports of the device read local times in its zone: moving it would shift every one.
    case localTimesReadInZone(device: String, stored: String, given: String, imports: [Int64])
    /// A database server does not answer (down, restarting, unreachable, or every connection
    /// busy): the call may be repeated once it is back, and a repeated event is stored once.
    case unavailable(location: String, detail: String)
    /// No forecaster of that name (`Forecasters/names`).
    case unknownForecaster(String)

    /// A sentence for people, in the library's terms: what went wrong and what was left as it
    /// was. How to mend it is for the program that shows it to say, in its own terms (a flag, a
    /// route, a setting): the cases carry what it needs.
    public var description: String {
        switch self {
        case .notADatabase(let path):
            "\(path) is not a FetchPredictor database (not SQLite at all); it was left untouched."
        case .damaged(let path, let detail):
            "The database \(path) is damaged (\(detail)); it was left untouched."
        case .newerSchema(let path):
            "The database \(path) was written by a newer version of FetchPredictor."
        case .cannotCreate(let path, let reason):
            "Cannot create \(path): \(reason)."
        case .missing(let path):
            "There is no store at \(path) yet."
        case .unknownDevice(let name):
            "There is no device named '\(name)' in the store."
        case .unknownTimeZone(let name):
            "'\(name)' is not a known time zone: use an IANA name such as Europe/Warsaw or America/New_York."
        case .busy(let path, let seconds):
            "The database \(path) was held by another writer (such as a long import) for over \(seconds) seconds; nothing was changed: try again when it has finished."
        case .timeZoneConflict(let device, let stored, let given):
            "Device \(device) is in \(stored), not in \(given) as given; nothing was read or changed."
        case .importedOtherwise(let file, let earlier, let earlierFile, let differences):
            "\(file) is the file imported as import \(earlier) (\(earlierFile)), read otherwise then: \(differences.joined(separator: "; ")). Its events would be stored twice, so nothing was stored."
        case .noTimeZone(let device):
            "Device \(device) has no time zone, and daily habits are local times; nothing is read in a zone nobody named."
        case .importedFileChanged(let path, let id):
            "\(path) is not the file import \(id) read (its SHA-256 differs), so it cannot be read again in another zone; nothing was changed."
        case .unknownImport(let id):
            "There is no import \(id) in the store."
        case .localTimesReadInZone(let device, let stored, let given, let imports):
            "Device \(device) stays in \(stored): its imports \(imports.map(String.init).joined(separator: ", ")) read local times in \(stored), and in \(given) every one of them would mean another instant; nothing was changed."
        case .unknownKey(let id):
            "There is no API key \(id) in the store."
        case .unavailable(let location, let detail):
            "The database \(location) does not answer (\(detail)); a write in flight may or may not have been stored, and repeating it stores nothing twice."
        case .sqlite(let path, let detail):
            "The database \(path) could not be used: \(detail)."
        case .unknownForecaster(let name):
            "There is no forecaster '\(name)' (\(Forecasters.names.joined(separator: ", "))); nothing was changed."
        }
    }
}
