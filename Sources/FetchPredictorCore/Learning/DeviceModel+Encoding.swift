import Foundation

/// The binary form of a device's model in the store's cache, written by ``CompactCoding`` from the
/// model's `Codable` conformances: loading it costs a copy of its numbers, not a parse, so that a
/// query never has to learn from all events again. The device's own state and each app's model
/// are written apart, so that a query about one app reads one app. The zone given when a model
/// is read is the device's, kept by whoever keeps the device; it wins over the one in the bytes.
///
/// Bytes of another version, or of a type with other fields, are refused, and the model is learned
/// again from the events: a cache is never misread.
extension DeviceModel {
    /// What the fields of a model mean, beyond their names and kinds, which the bytes carry:
    /// bump it when learning changes what a field holds (its units, its bins, its decay), and
    /// every cache is learned again. (Caches written by hand, field by field, were versions 1 to
    /// 19; their bytes do not begin as these do, and are learned again.)
    static let learningVersion: UInt32 = 23

    /// The device's own state, without its apps, as bytes.
    public func encodedHeader() -> [UInt8] {
        var header = self
        header.apps = [:]
        return CompactCoding.encode(header, version: Self.learningVersion)
    }

    /// Reads a device written by ``encodedHeader()`` with the apps given, in the device's zone, or
    /// returns `nil` when the bytes are not one.
    public init?(encodedHeader bytes: [UInt8], apps: [String: AppModel], timeZone zone: TimeZone) {
        guard var model = CompactCoding.decode(DeviceModel.self, from: bytes, version: Self.learningVersion),
            model.apps.isEmpty, model.isWellFormed
        else { return nil }
        model.timeZone = zone
        model.apps = apps
        self = model
    }

    /// Whether the arrays the planner indexes without a check have the lengths it indexes them
    /// by: bytes that decode but do not are refused, never indexed out of bounds.
    var isWellFormed: Bool {
        let cells = LaunchHazard.profileBins * LaunchHazard.sinceBins
        let stateBins = 2 * StateHabits.binsPerDay
        let state = [
            stateHabits.powerMinutes, stateHabits.powerKnown, stateHabits.unmeteredMinutes,
            stateHabits.networkKnown,
        ]
        return hazard.exposure.count == cells && hazard.launches.count == cells
            && hazard.profileRates.count == LaunchHazard.profileBins
            && hazard.sinceFactors.count == LaunchHazard.sinceBins
            && state.allSatisfy { $0.isEmpty || $0.count == stateBins }
            && state[0].count == state[1].count && state[2].count == state[3].count
            && traces.isConsistent
    }
}

extension AppModel {
    /// The app's model as bytes.
    public func encoded() -> [UInt8] { CompactCoding.encode(self, version: DeviceModel.learningVersion) }

    /// Reads a model written by ``encoded()``, or returns `nil` when the bytes are not one.
    public init?(encoded bytes: [UInt8]) {
        guard let model = CompactCoding.decode(AppModel.self, from: bytes, version: DeviceModel.learningVersion),
            model.isWellFormed
        else { return nil }
        self = model
    }

    /// Whether the arrays the planner indexes without a check have the lengths it indexes them by.
    var isWellFormed: Bool {
        let day = Self.binsPerDay
        let hours = [fetchNew, fetchNo, fetchFailed, publications, exposure]
        return recent.count == day && weekday.count == day && weekend.count == day
            && hours.allSatisfy { $0.count == 24 } && gaps.count == Self.gapBins + 1
            && sinceLaunches.count == LaunchHazard.sinceBins && sinceExpected.count == LaunchHazard.sinceBins
            && (hazardBins.isEmpty || hazardBins.count == day)
            && hazardBins.allSatisfy { Int($0) < LaunchHazard.profileBins }
            && habits.weekday.count == day && habits.weekend.count == day
            && habits.recentDays.count == HabitCounts.recentDayCount
    }
}
