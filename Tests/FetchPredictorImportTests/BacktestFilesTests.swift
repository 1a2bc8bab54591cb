import FetchPredictorCore
import Testing

@testable import FetchPredictorImport

/// Log files read for a backtest, with no store.
struct BacktestFilesTests {
    @Test func evaluatedFilesWithTheSameNameAreDevicesApart() {
        let names = BacktestDevice.deviceNames(files: ["a/x.csv", "a/x.jsonl", "b/x.csv", "c/y.csv"])
        #expect(names == ["a/x.csv", "a/x.jsonl", "b/x", "y"])
        #expect(Set(names).count == 4)
    }
}
