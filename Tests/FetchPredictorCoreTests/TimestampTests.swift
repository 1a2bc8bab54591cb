import Foundation
import Testing

@testable import FetchPredictorCore

struct TimestampTests {
    func parse(_ text: String) -> Result<Timestamp, TimestampError> { TimestampParser.parse(text) }

    @Test(arguments: [
        ("2024-05-01T08:30:00Z", 1_714_552_200_000 as Int64, nil as Int?),
        ("2024-05-01T08:30:00.250Z", 1_714_552_200_250, nil),
        ("2024-05-01 08:30:00z", 1_714_552_200_000, nil),
        ("2024-05-01T10:30:00+02:00", 1_714_552_200_000, 7200),
        ("2024-05-01T03:30:00-0500", 1_714_552_200_000, -18000),
        ("2024-05-01T10:30+02", 1_714_552_200_000, 7200),
        ("2024-05-01T08:30:00.123456789Z", 1_714_552_200_123, nil),
        ("1714552200", 1_714_552_200_000, nil),
        ("1714552200.5", 1_714_552_200_500, nil),
        ("-86400", -86_400_000, nil),
        ("1969-12-31T00:00:00Z", -86_400_000, nil),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000, nil),
    ])
    func readsTheFormsLogsUse(_ text: String, _ milliseconds: Int64, _ offset: Int?) throws {
        let stamp = try parse(text).get()
        #expect(stamp.milliseconds == milliseconds)
        #expect(stamp.utcOffset == offset)
    }

    @Test(arguments: [
        "", "yesterday", "2024-05-01", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-05-01T24:00:00Z",
        "2024-05-01T08:60:00Z", "2024-05-01T08:30:00+19:00", "2024-05-01T08:30:00Zjunk", "12ab", "1.", "--5",
    ])
    func refusesWhatIsNotATimestamp(_ text: String) {
        #expect(throws: TimestampError.self) { try parse(text).get() }
    }

    @Test func localTimeWithoutOffsetSaysSo() {
        #expect(parse("2024-05-01T08:30:00") == .failure(.missingOffset))
    }

    @Test(arguments: [0 as Int64, 1_714_552_200_250, -86_400_000, 4_102_444_799_999])
    func formatterRoundTrips(_ milliseconds: Int64) throws {
        for offset in [nil, 0, 7200, -34200] as [Int?] {
            let text = TimestampFormatter.iso(milliseconds, utcOffset: offset)
            let back = try parse(text).get()
            #expect(back.milliseconds == milliseconds, "\(text)")
            #expect(back.utcOffset == offset)
        }
    }

    @Test func civilDaysRoundTripOverCenturies() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let (year, month, day) = CivilDate.fromDays(days)
            #expect(CivilDate.daysSince1970(year: year, month: month, day: day) == days)
        }
        #expect(CivilDate.weekday(days: 0) == 5)  // 1970-01-01 was a Thursday.
        #expect(CivilDate.weekday(days: -1) == 4)
    }
}

struct LocalTimeTests {
    let warsaw = TimeZone(identifier: "Europe/Warsaw")!

    @Test func ordinaryTimeIsExact() {
        let (time, resolution) = DateFields(year: 2024, month: 6, day: 1, hour: 12).instant(in: warsaw)
        #expect(resolution == .exact)
        #expect(time == DateFields(year: 2024, month: 6, day: 1, hour: 10).millisecondsAsIfUTC)
    }

    @Test func timeInTheSpringGapMovesForward() {
        // 2024-03-31: clocks go from 02:00 CET to 03:00 CEST; 02:30 does not exist.
        let (time, resolution) = DateFields(year: 2024, month: 3, day: 31, hour: 2, minute: 30).instant(in: warsaw)
        #expect(resolution == .skipped)
        #expect(time == DateFields(year: 2024, month: 3, day: 31, hour: 1, minute: 30).millisecondsAsIfUTC)
    }

    @Test func timeInTheRepeatedAutumnHourTakesTheFirst() {
        // 2024-10-27: clocks go from 03:00 CEST back to 02:00 CET; 02:30 happens twice.
        let (time, resolution) = DateFields(year: 2024, month: 10, day: 27, hour: 2, minute: 30).instant(in: warsaw)
        #expect(resolution == .repeated)
        #expect(time == DateFields(year: 2024, month: 10, day: 27, hour: 0, minute: 30).millisecondsAsIfUTC)
    }
}

struct FetchIntervalTests {
    @Test func readsTheThreeForms() throws {
        #expect(try FetchInterval(parsing: "never") == .never)
        #expect(try FetchInterval(parsing: "Minimum") == .minimum)
        #expect(try FetchInterval(parsing: "3600") == .seconds(3600))
    }

    @Test(arguments: ["-5", "0", "soon", "1.5", "", "99999999999"])
    func refusesOthersWithASentence(_ text: String) {
        let error = #expect(throws: FetchIntervalError.self) { try FetchInterval(parsing: text) }
        #expect(error.map { "\($0)".hasSuffix(".") } == true)
    }
}
