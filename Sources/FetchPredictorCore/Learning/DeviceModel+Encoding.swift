import Foundation

/// A compact binary form of a device's model, for the store's cache: loading it costs a copy,
/// not a parse, so that a query never has to learn from all events again.
extension DeviceModel {
    /// The format's version; a cache in another version is ignored and learned again.
    static let encodingVersion: UInt32 = 3

    /// The model as bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.put(Self.encodingVersion)
        writer.put(timeZone.identifier)
        writer.put(Int64(currentDay ?? Int.min))
        writer.put(Int64(firstDay ?? Int.min))
        writer.put(recentDays)
        writer.put(weekdayDays)
        writer.put(weekendDays)
        writer.put(lastEventTime ?? .min)
        writer.put(UInt32(apps.count))
        for (name, app) in apps.sorted(by: { $0.key < $1.key }) {
            writer.put(name)
            for array in [
                app.recent, app.weekday, app.weekend, app.fetchNew, app.fetchNo, app.fetchFailed, app.publications,
                app.exposure, app.gaps,
            ] {
                writer.put(array)
            }
            writer.put(Int64(app.launches))
            writer.put(Int64(app.coldLaunches))
            writer.put(Int64(app.firstDay ?? Int.min))
            writer.put(app.lastLaunch ?? .min)
            writer.put(app.lastFetch ?? .min)
            writer.put(Int64(app.consecutiveFailures))
            writer.put(app.lastFailure ?? .min)
            writer.put(app.meanFetchDuration ?? -1)
            writer.put(app.lastRefresh ?? .min)
        }
        return writer.bytes
    }

    /// Reads a model written by ``encoded()``, or returns `nil` when the bytes are not one.
    public init?(encoded bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard reader.uint32() == Self.encodingVersion, let zoneName = reader.string(),
            let zone = TimeZone(identifier: zoneName)
        else { return nil }
        self.init(timeZone: zone)
        func optional(_ value: Int64?) -> Int? { value.flatMap { $0 == Int64(Int.min) ? nil : Int($0) } }
        func optionalTime(_ value: Int64?) -> Milliseconds? { value.flatMap { $0 == .min ? nil : $0 } }
        currentDay = optional(reader.int64())
        firstDay = optional(reader.int64())
        guard let recent = reader.double(), let weekday = reader.double(), let weekend = reader.double() else { return nil }
        recentDays = recent
        weekdayDays = weekday
        weekendDays = weekend
        lastEventTime = optionalTime(reader.int64())
        guard let count = reader.uint32() else { return nil }
        for _ in 0..<count {
            guard let name = reader.string() else { return nil }
            var app = AppModel()
            guard let recent = reader.doubles(), let weekday = reader.doubles(), let weekend = reader.doubles(),
                let new = reader.doubles(), let no = reader.doubles(), let failed = reader.doubles(),
                let publications = reader.doubles(), let exposure = reader.doubles(), publications.count == 24,
                exposure.count == 24, let gaps = reader.doubles(), gaps.count == AppModel.gapBins + 1,
                recent.count == AppModel.binsPerDay, weekday.count == AppModel.binsPerDay,
                weekend.count == AppModel.binsPerDay, new.count == 24, no.count == 24, failed.count == 24
            else { return nil }
            (app.recent, app.weekday, app.weekend, app.fetchNew, app.fetchNo, app.fetchFailed) = (
                recent, weekday, weekend, new, no, failed
            )
            (app.publications, app.exposure, app.gaps) = (publications, exposure, gaps)
            guard let launches = reader.int64(), let cold = reader.int64() else { return nil }
            app.launches = Int(launches)
            app.coldLaunches = Int(cold)
            app.firstDay = optional(reader.int64())
            app.lastLaunch = optionalTime(reader.int64())
            app.lastFetch = optionalTime(reader.int64())
            app.consecutiveFailures = Int(reader.int64() ?? 0)
            app.lastFailure = optionalTime(reader.int64())
            guard let duration = reader.double() else { return nil }
            app.meanFetchDuration = duration < 0 ? nil : duration
            app.lastRefresh = optionalTime(reader.int64())
            apps[name] = app
        }
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
}

struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { offset == bytes.count }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard offset + size <= bytes.count else { return nil }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
        offset += size
        return value
    }

    mutating func uint32() -> UInt32? { integer(UInt32.self) }
    mutating func int64() -> Int64? { integer(Int64.self) }
    mutating func double() -> Double? { integer(UInt64.self).map(Double.init(bitPattern:)) }

    mutating func string() -> String? {
        guard let count = uint32(), offset + Int(count) <= bytes.count else { return nil }
        defer { offset += Int(count) }
        return String(decoding: bytes[offset..<(offset + Int(count))], as: UTF8.self)
    }

    mutating func doubles() -> [Double]? {
        guard let count = uint32(), count <= 4096 else { return nil }
        var values: [Double] = []
        values.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let value = double() else { return nil }
            values.append(value)
        }
        return values
    }
}
