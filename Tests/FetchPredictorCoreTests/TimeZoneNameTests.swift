import FetchPredictorCore
import Foundation
import Testing

/// Zones are IANA names, or UTC: what Foundation also takes (abbreviations, offsets) means
/// places and clocks that people do not expect, and is refused with what they likely meant.
struct TimeZoneNameTests {
    @Test(arguments: ["Europe/London", "Asia/Kolkata", "America/Argentina/Buenos_Aires", "UTC", "Etc/UTC"])
    func ianaNamesAndUTCAreZones(name: String) throws {
        let zone = try TimeZoneName.zone(named: name)
        #expect(zone == TimeZone(identifier: name))
    }

    /// The tz database's zones of a region's rules, as CET, are zones (issue 56: CET was refused);
    /// UTC reads back as UTC, not as Foundation's GMT.
    @Test func ruleZonesAreZonesAndUTCIsNamedUTC() throws {
        let cet = try TimeZoneName.zone(named: "CET")
        #expect(cet.secondsFromGMT(for: Date(timeIntervalSince1970: 1_720_000_000)) == 7200)  // July: summer time
        #expect(cet.secondsFromGMT(for: Date(timeIntervalSince1970: 1_705_000_000)) == 3600)
        #expect(throws: TimeZoneNameError.self) { try TimeZoneName.zone(named: "EST") }
        #expect(TimeZoneName.name(of: try TimeZoneName.zone(named: "UTC")) == "UTC")
        #expect(TimeZoneName.name(of: try TimeZoneName.zone(named: "Europe/Warsaw")) == "Europe/Warsaw")
    }

    @Test(arguments: [
        ("BST", ["Europe/London", "Asia/Dhaka"]), ("IST", ["Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"]),
        ("EST", ["America/New_York", "America/Toronto"]), ("pst", ["America/Los_Angeles", "America/Vancouver"]),
        ("GMT", ["UTC", "Europe/London"]), ("asia/kolkata", ["Asia/Kolkata"]), ("Kolkata", ["Asia/Kolkata"]),
        ("new york", ["America/New_York"]), ("WARSAW", ["Europe/Warsaw"]), ("Mars/Olympus", []),
    ])
    func otherNamesAreRefusedWithWhatTheyLikelyMeant(name: String, meant: [String]) {
        #expect(throws: TimeZoneNameError(name: name, suggestions: meant)) { try TimeZoneName.zone(named: name) }
    }

    @Test(arguments: ["UTC+5:30", "GMT+1", "+05:30", "UTC-3"])
    func offsetsAreRefusedAsNoPlacesClock(name: String) {
        #expect(throws: TimeZoneNameError.self) { try TimeZoneName.zone(named: name) }
        let error = TimeZoneNameError(name: name, suggestions: [])
        #expect(error.description.contains("is a fixed offset"))
    }

    @Test func theSentenceNamesTheChoicesAndBoundsWhatItEchoes() {
        #expect(
            TimeZoneNameError(name: "BST", suggestions: ["Europe/London", "Asia/Dhaka"]).description
                == "'BST' is not an IANA time zone name: it may mean Europe/London or Asia/Dhaka; give the one meant.")
        #expect(
            TimeZoneNameError(name: "Kolkata", suggestions: ["Asia/Kolkata"]).description
                == "'Kolkata' is not an IANA time zone name: did you mean Asia/Kolkata?")
        let long = String(repeating: "x", count: 1_000_000)
        #expect(TimeZoneNameError(name: long, suggestions: []).description.count < 200)
    }
}
