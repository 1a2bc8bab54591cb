import FetchPredictor

/// The library's errors as the command line says them: the library's sentence, and how to mend
/// it with the tool's own flags and commands.
///
/// The library's sentences speak of devices, zones, imports and formats, never of flags, as an
/// app or the HTTP service shows them too; this is the one place that adds the flags.
enum ErrorText {
    /// The sentence the tool prints for an error: with its hint for the library's errors, else
    /// the error's own description.
    static func message(_ error: any Error) -> String {
        switch error {
        case let error as StoreError: message(error)
        case let error as ImportError: message(error)
        default: "\(error)"
        }
    }

    /// The error the tool exits with: the library's errors said with their hints, any other as it is.
    static func forCommandLine(_ error: any Error) -> any Error {
        switch error {
        case is StoreError, is ImportError: Hinted(description: message(error))
        default: error
        }
    }

    /// A library error said with its hint, as the tool exits with it.
    struct Hinted: Error, CustomStringConvertible {
        var description: String
    }

    /// The library's sentence, whose final period `rest` replaces to go on to say how to mend it.
    static func amend(_ sentence: String, _ rest: String) -> String {
        (sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence) + rest
    }

    static func message(_ error: StoreError) -> String {
        let sentence = error.description
        switch error {
        case .notADatabase:
            return amend(sentence, ": give another --db path.")
        case .damaged:
            return amend(sentence, ": restore it from a backup or give another --db path.")
        case .newerSchema:
            return amend(sentence, "; upgrade fetchpredict to use it.")
        case .missing:
            return amend(
                sentence, ": start one with fetchpredict import FILE or fetchpredict record launch APP, or check --db.")
        case .unknownDevice:
            return amend(sentence, ": import or record events for it first, or check --device.")
        case .timeZoneConflict(let device, let stored, let given):
            return amend(
                sentence,
                ": give --time-zone \(stored), or change the device's zone first with fetchpredict config --time-zone \(given) --device \(device)."
            )
        case .importedOtherwise(_, let earlier, _, _):
            return amend(
                sentence,
                ": import it as before, or remove import \(earlier) first with fetchpredict prune --import \(earlier).")
        case .noTimeZone(let device):
            return amend(
                sentence,
                ": give it one with fetchpredict config --time-zone ZONE --device \(device), such as Europe/Warsaw.")
        case .unknownImport:
            return amend(sentence, ": fetchpredict imports lists them.")
        case .importedFileChanged(_, let id):
            return amend(
                sentence,
                ": put the file back as it was, or remove that import (fetchpredict prune --import \(id)), move the device with config --time-zone, and import the file again."
            )
        case .localTimesReadInZone(let device, _, let given, let imports):
            let first = imports.first.map(String.init) ?? "ID"
            return amend(
                sentence,
                ". To read them again in \(given), in one step: fetchpredict config --time-zone \(given) --device \(device) --reread (each file must still be where it was imported from; or remove those imports, fetchpredict prune --import \(first), then move the device and import the files again)."
            )
        case .unavailable:
            return amend(sentence, ". Check that the server of --postgres (or $FETCHPREDICT_DATABASE_URL) is up.")
        case .cannotCreate, .unknownTimeZone, .busy, .unknownKey, .sqlite, .unknownForecaster:
            return sentence
        }
    }

    static func message(_ error: ImportError) -> String {
        let sentence = error.description
        switch error {
        case .notText:
            return amend(sentence, "; give a usage log in one of the formats fetchpredict import --help lists.")
        case .unknownFormat:
            return amend(sentence, ". Give --format if you know it.")
        case .ambiguousFormat:
            return amend(sentence, "; give --format to choose.")
        case .ambiguousDates:
            return amend(sentence, "; give --date-order dmy or --date-order mdy.")
        case .invalidRows:
            return amend(sentence, ". Fix the file, or give --skip-invalid to store the valid rows.")
        case .needsTimeZone:
            return amend(sentence, ": give the zone the phone was in, such as --time-zone Europe/Warsaw.")
        case .dateOrderContradicted(let file, let line, let given, let read):
            return
                "\(file):\(line): --date-order \(given.rawValue) contradicts the file's dates, which are \(read.rawValue); nothing of the file was stored."
        case .dateOrderUnlikely(let file, let line, let given, let suggested, let jumped, let jumpedSuggested):
            return
                "\(file):\(line): read as \(given.rawValue), the dates jump \(jumped) days from row to row in all; read as \(suggested.rawValue), \(jumpedSuggested): check --date-order, the file looks \(suggested.rawValue); nothing of the file was stored."
        case .otherFormat(let file, let given, let detected, let error):
            return
                "\(file) is not \(given.rawValue), as --format says: it reads as \(detected.rawValue), so leave out --format or give --format \(detected.rawValue). Read as \(given.rawValue): \(message(error))"
        case .unreadable, .empty, .lineTooLong, .malformed:
            return sentence
        }
    }
}
