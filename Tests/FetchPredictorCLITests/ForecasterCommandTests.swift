import Foundation
import Testing

/// The forecaster on the command line: `schedule --forecaster` plans a device that sets none
/// with the one named, the hazard by default; `config --forecaster` sets the device's own, which
/// every command then plans with, and `default` returns it to theirs.
struct ForecasterCommandTests {
    let log = Tool.fixture("commuter-28d.csv")

    @Test func aDevicesForecasterIsSetWithConfig() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        let store = ["--db", db, "--device", "phone"]
        #expect(try Tool.run(["import", log, "--time-zone", "Europe/Warsaw"] + store).status == 0)
        #expect(try Tool.run(["config", "--default-interval", "minimum"] + store).status == 0)
        func schedule(_ extra: [String] = []) throws -> String {
            let result = try Tool.run(["schedule", "--now", "2024-01-29T00:00:00+01:00", "--json"] + store + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        func own() throws -> Any? {
            let shown = try Tool.run(["config", "--json"] + store)
            let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
            return object?["forecaster"]
        }
        let hazard = try schedule()
        #expect(hazard == (try schedule(["--forecaster", "hazard"])))
        let daily = try schedule(["--forecaster", "daily"])
        #expect(daily != hazard)
        #expect(try own() is NSNull)

        let set = try Tool.run(["config", "--forecaster", "daily"] + store)
        #expect(set.status == 0 && set.stdout.contains("forecaster: daily"), "\(set.stdout)\(set.stderr)")
        #expect(try own() as? String == "daily")
        #expect(try schedule() == daily)

        let refused = try Tool.run(["config", "--forecaster", "cubic"] + store)
        #expect(refused.status != 0 && refused.stderr.contains("cubic"))
        #expect(try own() as? String == "daily")

        #expect(try Tool.run(["config", "--forecaster", "default"] + store).status == 0)
        #expect(try own() is NSNull)
        #expect(try schedule() == hazard)
    }
}
