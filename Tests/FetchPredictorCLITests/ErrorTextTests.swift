import FetchPredictor
import Foundation
import Testing

@testable import FetchPredictorCLI

/// The library's errors speak of devices, zones, imports and formats; the tool adds its flags.
struct ErrorTextTests {
    static let storeErrors: [StoreError] = [
        .notADatabase(path: "a.sqlite"), .damaged(path: "a.sqlite", detail: "bad page"),
        .newerSchema(path: "a.sqlite"), .cannotCreate(path: "a.sqlite", reason: "no room"),
        .missing(path: "a.sqlite"), .unknownDevice("phne"), .unknownTimeZone("Mars/Olympus"),
        .busy(path: "a.sqlite", seconds: 5), .sqlite(path: "a.sqlite", detail: "oops"),
        .timeZoneConflict(device: "phone", stored: "Europe/Warsaw", given: "Asia/Kolkata"),
        .importedOtherwise(file: "b.csv", earlier: 1, earlierFile: "a.csv", differences: ["time zone UTC"]),
        .noTimeZone(device: "phone"), .unknownImport(7), .unknownKey(3),
        .localTimesReadInZone(device: "phone", stored: "UTC", given: "Asia/Kolkata", imports: [1, 2]),
        .unavailable(location: "postgres://app@db:5432/fleet", detail: "connection refused"),
    ]

    static let importErrors: [ImportError] = [
        .unreadable(file: "a.csv", reason: "No such file"), .empty(file: "a.csv"), .notText(file: "a.csv", line: 3),
        .lineTooLong(file: "a.csv", line: 2, limit: 1 << 20), .unknownFormat(file: "a.csv", tried: ["csv (no header)"]),
        .ambiguousFormat(file: "a.csv", candidates: [.csv, .appUsage]),
        .ambiguousDates(file: "a.csv", example: "05/06/2024", line: 2, suggested: .dmy),
        .invalidRows(file: "a.csv", rejected: 2, first: []), .malformed(file: "a.csv", line: 4, reason: "cut short"),
        .dateOrderContradicted(file: "a.csv", line: 2, given: .mdy, read: .dmy),
        .dateOrderUnlikely(file: "a.csv", line: 2, given: .mdy, suggested: .dmy, jumped: 300, jumpedSuggested: 10),
        .otherFormat(file: "a.csv", given: .csv, detected: .appUsage, error: .empty(file: "a.csv")),
        .needsTimeZone(file: "a.csv", format: .appUsage),
    ]

    /// A database server that does not answer, whatever the command, and two stores named at once:
    /// the tool says so, and nothing runs against a store nobody named.
    @Test func aServerThatDoesNotAnswerAndTwoStoresAtOnceAreSaidSo() throws {
        let down = try Tool.run(["next", "--postgres", "postgres://nobody@127.0.0.1:1/none?sslmode=disable"])
        #expect(down.status != 0)
        #expect(
            down.stderr.contains("does not answer") && down.stderr.contains("Check that the server"), "\(down.stderr)")
        // Every command, imports too, uses the server the environment names: never a file instead.
        let onServer = try Tool.run(
            ["import", "no-such.csv"], environment: ["FETCHPREDICT_DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"])
        #expect(onServer.status != 0)
        #expect(onServer.stderr.contains("does not answer"), "\(onServer.stderr)")
        let both = try Tool.run(["apps", "--db", "a.sqlite", "--postgres", "postgres://nobody@127.0.0.1:1/none"])
        #expect(both.status != 0 && both.stderr.contains("not both"), "\(both.stderr)")
    }

    @Test func theLibrarysSentencesNameNoFlag() {
        for error in Self.storeErrors.map({ $0 as any Error }) + Self.importErrors {
            #expect(!"\(error)".contains("--"), "\(error)")
        }
    }

    /// The tool says them as it did when the library named the flags itself.
    @Test func theToolAddsItsFlags() {
        let said = [
            (
                StoreError.unknownDevice("phne") as any Error,
                "There is no device named 'phne' in the store: import or record events for it first, or check --device."
            ),
            (
                StoreError.noTimeZone(device: "phone"),
                "Device phone has no time zone, and daily habits are local times; nothing is read in a zone nobody named: give it one with fetchpredict config --time-zone ZONE --device phone, such as Europe/Warsaw."
            ),
            (
                StoreError.timeZoneConflict(device: "phone", stored: "Europe/Warsaw", given: "Asia/Kolkata"),
                "Device phone is in Europe/Warsaw, not in Asia/Kolkata as given; nothing was read or changed: give --time-zone Europe/Warsaw, or change the device's zone first with fetchpredict config --time-zone Asia/Kolkata --device phone."
            ),
            (
                StoreError.localTimesReadInZone(
                    device: "phone", stored: "UTC", given: "Asia/Kolkata", imports: [1, 2]),
                "Device phone stays in UTC: its imports 1, 2 read local times in UTC, and in Asia/Kolkata every one of them would mean another instant; nothing was changed. To read them again in Asia/Kolkata, in one step: fetchpredict config --time-zone Asia/Kolkata --device phone --reread (each file must still be where it was imported from; or remove those imports, fetchpredict prune --import 1, then move the device and import the files again)."
            ),
            (
                StoreError.newerSchema(path: "a.sqlite"),
                "The database a.sqlite was written by a newer version of FetchPredictor; upgrade fetchpredict to use it."
            ),
            (
                ImportError.unknownFormat(file: "a.csv", tried: ["csv (no header)"]),
                "a.csv is in no format FetchPredictor knows; tried csv (no header). Give --format if you know it."
            ),
            (
                ImportError.otherFormat(
                    file: "a.csv", given: .csv, detected: .jsonl, error: .notText(file: "a.csv", line: 3)),
                "a.csv is not csv, as --format says: it reads as jsonl, so leave out --format or give --format jsonl. Read as csv: a.csv:3: the file is not text (it holds a NUL byte), nor a knowledgeC.db; give a usage log in one of the formats fetchpredict import --help lists."
            ),
            (
                ImportError.dateOrderContradicted(file: "a.csv", line: 2, given: .mdy, read: .dmy),
                "a.csv:2: --date-order mdy contradicts the file's dates, which are dmy; nothing of the file was stored."
            ),
            (
                ImportError.needsTimeZone(file: "a.csv", format: .appUsage),
                "a.csv (app-usage) writes local times with no time zone, and its device has none; nothing was stored: give the zone the phone was in, such as --time-zone Europe/Warsaw."
            ),
        ]
        for (error, sentence) in said { #expect(ErrorText.message(error) == sentence) }
    }
}

/// The reliability table says what its first row holds besides low forecasts.
struct ReliabilityTextTests {
    func figures(firstRowWakes: Int) throws -> StrategyFigures {
        let json = """
            {"strategy": "predictor", "budget": 0.85, "coldLaunches": 10, "freshLaunches": 4, "fetches": 9,
             "appDays": 3, "scoredDays": 3, "deviceWakes": 9, "wastedNoData": 0, "wastedFailed": 0,
             "wastedSuperseded": 0, "expectedFresh": 3.5, "servedLaunches": 4,
             "reliability": [{"lower": 0, "upper": 0.05, "wakes": \(firstRowWakes), "forecast": 0, "served": 1},
                             {"lower": 0.5, "upper": 1, "wakes": 5, "forecast": 3.5, "served": 3}]}
            """
        return try JSONDecoder().decode(StrategyFigures.self, from: Data(json.utf8))
    }

    @Test func theFirstRowSaysItHoldsTheColdStartPlan() throws {
        let note = "The first row holds the wakes of the cold-start plan"
        #expect(EvaluationText.reliability(try figures(firstRowWakes: 4)).contains(note))
        #expect(!EvaluationText.reliability(try figures(firstRowWakes: 0)).contains(note))
    }
}
