import Foundation
import Testing

@testable import FetchPredictorCore

/// The smoothing of the daily profile, which every plan and every day of learning reads.
struct DailyProfileTests {
    /// Gathered four bins at a time, the rates are those of scattering each count over its
    /// neighbours, to the last bit, across midnight and for every width of kernel the planner
    /// uses (and one wider than the day, which scatters); and they keep the day's launches.
    @Test(arguments: [0.5, 2.0, 3.0, 6.0, 20.0, 200.0])
    func smoothingIsTheScatteredSumToTheLastBit(sigma: Double) {
        var random = SeededGenerator(seed: UInt64(sigma * 10))
        for trial in 0..<20 {
            // Sparse and dense days, launches at both ends of the day among them.
            let share = [0.02, 0.2, 1.0][trial % 3]
            var bins = (0..<AppModel.binsPerDay).map { _ in
                Double(random.next() % 1000) / 1000 < share ? Double(random.next() % 5000) / 1000 : 0
            }
            bins[0] += 1
            bins[AppModel.binsPerDay - 1] += 2
            let days = 1 + Double(random.next() % 700) / 100
            let smoothed = DailyProfile.smooth(bins, days: days, sigma: sigma)
            let radius = Int((3 * sigma).rounded(.up))
            var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let total = kernel.reduce(0, +)
            kernel = kernel.map { $0 / total }
            let scattered = DailyProfile.scatter(bins.map { $0 > 0 ? $0 / days : 0 }, kernel: kernel, radius: radius)
            let differing = smoothed.indices.first { smoothed[$0].bitPattern != scattered[$0].bitPattern }
            #expect(
                differing == nil,
                "sigma \(sigma), trial \(trial): bin \(differing ?? 0) is \(smoothed[differing ?? 0]), not \(scattered[differing ?? 0])"
            )
            let launches = bins.reduce(0, +) / days
            #expect(abs(smoothed.reduce(0, +) - launches) < 1e-9 * max(1, launches), "sigma \(sigma)")
        }
    }
}
