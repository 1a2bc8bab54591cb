import Foundation

/// A compact binary form of a device's model, for the store's cache: loading it costs a copy,
/// not a parse, so that a query never has to learn from all events again. The device's own
/// state and each app's model are encoded apart, so that a query about one app reads one app.
/// The zone is not in the bytes: it is the device's, kept by whoever keeps the device, and given
/// back when the model is read.
extension DeviceModel {
    /// The format's version; a cache in another version is ignored and learned again.
    static let encodingVersion: UInt32 = 19

    /// The device's own state, without its apps and its zone, as bytes.
    public func encodedHeader() -> [UInt8] {
        var writer = ByteWriter()
        writer.put(Self.encodingVersion)
        writer.put(Int64(currentDay ?? Int.min))
        writer.put(Int64(firstDay ?? Int.min))
        writer.put(recentDays)
        writer.put(weekdayDays)
        writer.put(weekendDays)
        writer.put(lastEventTime ?? .min)
        writer.put(calibration.forecast)
        writer.put(calibration.served)
        for array in [hazard.exposure, hazard.launches, hazard.profileRates, hazard.sinceFactors] { writer.put(array) }
        writer.put(hazard.fittedLaunches)
        writer.put(Int64(recentWakes.count))
        for time in recentWakes { writer.put(time) }
        // Low Power Mode: 0 never told, 1 off, 2 on; then when it changed.
        writer.put(Int64(lowPowerMode.map { $0.isOn ? 2 : 1 } ?? 0))
        writer.put(lowPowerMode?.since.milliseconds ?? .min)
        stateHabits.encode(into: &writer)
        traces.encode(into: &writer)
        return writer.bytes
    }

    /// Reads a device written by ``encodedHeader()`` with the apps given, in the zone it was
    /// learned in, or returns `nil` when the bytes are not one.
    public init?(encodedHeader bytes: [UInt8], apps: [String: AppModel], timeZone zone: TimeZone) {
        var reader = ByteReader(bytes)
        guard reader.uint32() == Self.encodingVersion else { return nil }
        self.init(timeZone: zone)
        currentDay = ByteReader.optional(reader.int64())
        firstDay = ByteReader.optional(reader.int64())
        guard let recent = reader.double(), let weekday = reader.double(), let weekend = reader.double() else {
            return nil
        }
        recentDays = recent
        weekdayDays = weekday
        weekendDays = weekend
        lastEventTime = ByteReader.optionalTime(reader.int64())
        guard let forecast = reader.double(), let served = reader.double(), let exposure = reader.doubles(),
            let launches = reader.doubles(), let rates = reader.doubles(), let factors = reader.doubles(),
            exposure.count == hazard.exposure.count, launches.count == hazard.launches.count,
            rates.count == hazard.profileRates.count, factors.count == hazard.sinceFactors.count,
            let fittedLaunches = reader.double(), let wakes = reader.int64(), (0...10_000).contains(wakes)
        else { return nil }
        var wakeTimes: [Milliseconds] = []
        for _ in 0..<wakes {
            guard let time = reader.int64() else { return nil }
            wakeTimes.append(time)
        }
        guard let lowPower = reader.int64(), (0...2).contains(lowPower), let lowPowerSince = reader.int64(),
            let habits = StateHabits(from: &reader), let traces = LaunchTraces(from: &reader), reader.atEnd
        else { return nil }
        stateHabits = habits
        if lowPower > 0 { lowPowerMode = LowPowerMode(isOn: lowPower == 2, since: Date(milliseconds: lowPowerSince)) }
        recentWakes = wakeTimes
        self.traces = traces
        hazard.fittedLaunches = fittedLaunches
        calibration.forecast = forecast
        calibration.served = served
        (hazard.exposure, hazard.launches, hazard.profileRates, hazard.sinceFactors) = (
            exposure, launches, rates, factors
        )
        self.apps = apps
    }
}

extension AppModel {
    /// The app's model as bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.put(DeviceModel.encodingVersion)
        for array in [recent, weekday, weekend, fetchNew, fetchNo, fetchFailed, publications, exposure, gaps] {
            writer.put(array)
        }
        writer.put(Int64(launches))
        writer.put(Int64(coldLaunches))
        writer.put(Int64(firstDay ?? Int.min))
        writer.put(lastLaunch ?? .min)
        writer.put(lastFetch ?? .min)
        writer.put(Int64(consecutiveFailures))
        writer.put(lastFailure ?? .min)
        writer.put(meanFetchDuration ?? -1)
        writer.put(lastRefresh ?? .min)
        writer.put(habits.weekday)
        writer.put(habits.weekend)
        writer.put(habits.recentDays)
        writer.put(habits.weekdayDays)
        writer.put(habits.weekendDays)
        writer.put(Int64(habits.recentDay ?? Int.min))
        writer.put(sinceLaunches)
        writer.put(sinceExpected)
        writer.put(hazardBins.map(Double.init))
        writer.put(exposureCountedUntil ?? .min)
        writer.put(Int64(launchDays))
        writer.put(Int64(lastLaunchDay ?? Int.min))
        writer.put(Int64(firstLaunchDay ?? Int.min))
        return writer.bytes
    }

    /// Reads a model written by ``encoded()``, or returns `nil` when the bytes are not one.
    public init?(encoded bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard reader.uint32() == DeviceModel.encodingVersion else { return nil }
        self.init()
        let day = AppModel.binsPerDay
        guard let recent = reader.doubles(), let weekday = reader.doubles(), let weekend = reader.doubles(),
            let new = reader.doubles(), let no = reader.doubles(), let failed = reader.doubles(),
            let publications = reader.doubles(), let exposure = reader.doubles(), let gaps = reader.doubles(),
            recent.count == day, weekday.count == day, weekend.count == day, new.count == 24, no.count == 24,
            failed.count == 24, publications.count == 24, exposure.count == 24, gaps.count == Self.gapBins + 1,
            let launches = reader.int64(), let cold = reader.int64()
        else { return nil }
        (self.recent, self.weekday, self.weekend) = (recent, weekday, weekend)
        (fetchNew, fetchNo, fetchFailed) = (new, no, failed)
        (self.publications, self.exposure, self.gaps) = (publications, exposure, gaps)
        self.launches = Int(launches)
        coldLaunches = Int(cold)
        firstDay = ByteReader.optional(reader.int64())
        lastLaunch = ByteReader.optionalTime(reader.int64())
        lastFetch = ByteReader.optionalTime(reader.int64())
        consecutiveFailures = Int(reader.int64() ?? 0)
        lastFailure = ByteReader.optionalTime(reader.int64())
        guard let duration = reader.double() else { return nil }
        meanFetchDuration = duration < 0 ? nil : duration
        lastRefresh = ByteReader.optionalTime(reader.int64())
        guard let habitWeekday = reader.doubles(), let habitWeekend = reader.doubles(),
            let recentDays = reader.doubles(), habitWeekday.count == day, habitWeekend.count == day,
            recentDays.count == HabitCounts.recentDayCount, let weekdayDays = reader.double(),
            let weekendDays = reader.double()
        else { return nil }
        habits = HabitCounts(
            weekday: habitWeekday, weekend: habitWeekend, weekdayDays: weekdayDays, weekendDays: weekendDays,
            recentDays: recentDays, recentDay: ByteReader.optional(reader.int64()))
        guard let sinceLaunches = reader.doubles(), let sinceExpected = reader.doubles(), let bins = reader.doubles(),
            sinceLaunches.count == LaunchHazard.sinceBins, sinceExpected.count == LaunchHazard.sinceBins,
            bins.isEmpty || bins.count == day, bins.allSatisfy({ $0 >= 0 && $0 < Double(LaunchHazard.profileBins) })
        else { return nil }
        (self.sinceLaunches, self.sinceExpected) = (sinceLaunches, sinceExpected)
        hazardBins = bins.map { UInt8($0) }
        exposureCountedUntil = ByteReader.optionalTime(reader.int64())
        guard let launchDays = reader.int64() else { return nil }
        self.launchDays = Int(launchDays)
        lastLaunchDay = ByteReader.optional(reader.int64())
        firstLaunchDay = ByteReader.optional(reader.int64())
        guard reader.atEnd else { return nil }
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func put(_ value: Double) { put(value.bitPattern) }

    mutating func put(_ value: String) {
        let utf8 = Array(value.utf8)
        put(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func put(_ values: [Double]) {
        put(UInt32(values.count))
        for value in values { put(value.bitPattern) }
    }

    /// A count, then each value.
    mutating func put(_ values: [Int64]) {
        put(UInt32(values.count))
        for value in values { put(value) }
    }

    /// A count, then each name and its count, names in sorted order so that the same counts give
    /// the same bytes.
    mutating func put(_ counts: [String: Int]) {
        put(UInt32(counts.count))
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) {
            put(name)
            put(Int64(count))
        }
    }
}

struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { offset == bytes.count }

    static func optional(_ value: Int64?) -> Int? { value.flatMap { $0 == Int64(Int.min) ? nil : Int($0) } }
    static func optionalTime(_ value: Int64?) -> Milliseconds? { value.flatMap { $0 == .min ? nil : $0 } }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard offset + size <= bytes.count else { return nil }
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        offset += size
        return T(littleEndian: value)
    }

    mutating func uint32() -> UInt32? { integer(UInt32.self) }
    mutating func int64() -> Int64? { integer(Int64.self) }
    mutating func double() -> Double? { integer(UInt64.self).map(Double.init(bitPattern:)) }

    /// A count written as a `UInt32`, when the bytes left could hold that many items of a byte
    /// or more: a corrupt count is refused, not allocated.
    mutating func itemCount() -> Int? {
        guard let count = uint32(), Int(count) <= bytes.count - offset else { return nil }
        return Int(count)
    }

    mutating func string() -> String? {
        guard let count = uint32(), offset + Int(count) <= bytes.count else { return nil }
        defer { offset += Int(count) }
        return String(decoding: bytes[offset..<(offset + Int(count))], as: UTF8.self)
    }

    /// Values written by `ByteWriter.put(_:)` from an `[Int64]`.
    mutating func int64s() -> [Int64]? {
        guard let count = itemCount() else { return nil }
        var values: [Int64] = []
        for _ in 0..<count {
            guard let value = int64() else { return nil }
            values.append(value)
        }
        return values
    }

    /// Counts by name written by `ByteWriter.put(_:)` from a `[String: Int]`.
    mutating func counts() -> [String: Int]? {
        guard let count = itemCount() else { return nil }
        var counts: [String: Int] = [:]
        for _ in 0..<count {
            guard let name = string(), let value = int64() else { return nil }
            counts[name] = Int(value)
        }
        return counts
    }

    mutating func doubles() -> [Double]? {
        guard let count = uint32(), count <= 4096, offset + Int(count) * 8 <= bytes.count else { return nil }
        let start = offset
        offset += Int(count) * 8
        return bytes.withUnsafeBytes { raw in
            (0..<Int(count)).map {
                Double(
                    bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + $0 * 8, as: UInt64.self))
                )
            }
        }
    }
}
