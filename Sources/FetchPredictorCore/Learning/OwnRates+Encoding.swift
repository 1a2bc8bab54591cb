import Foundation

/// The person's own rates in the compact binary form of a device's model, inside its
/// ``LaunchTraces``: names in sorted order, so that the same counts give the same bytes.
extension OwnRates {
    func encode(into writer: inout ByteWriter) {
        writer.put(observedUntil ?? .min)
        for count in [launchRowsSeen, sessionRowsSeen, launchRows, sessionRows] { writer.put(Int64(count)) }
        writer.put(UInt32(apps.count))
        for (name, counts) in apps.sorted(by: { $0.key < $1.key }) {
            writer.put(name)
            writer.put(counts.foldedUntil)
            writer.put(counts.anchor ?? .min)
            writer.put(counts.launches)
            writer.put(counts.total.map { Int64($0) })
            writer.put(counts.positive.map { Int64($0) })
            for count in [counts.launchRowsBefore, counts.sessionRowsBefore, counts.launchHits, counts.sessionHits] {
                writer.put(Int64(count))
            }
            writer.put(counts.pairHits)
            Self.put(counts.quarterHits, into: &writer)
        }
        writer.put(UInt32(pending.count))
        for row in pending {
            writer.put(row.time)
            writer.put(row.app)
            writer.put(UInt8(row.quarter))
            writer.put(UInt8(row.startsSession ? 1 : 0))
            writer.put(UInt32(row.hits.count))
            for app in row.hits.sorted() { writer.put(app) }
        }
        writer.put(rowsByApp)
        Self.put(rowsByQuarter, into: &writer)
    }

    private static func put(_ counts: [String: [Int]], into writer: inout ByteWriter) {
        writer.put(UInt32(counts.count))
        for (name, quarters) in counts.sorted(by: { $0.key < $1.key }) {
            writer.put(name)
            writer.put(quarters.map { Int64($0) })
        }
    }

    /// Reads counts written by ``encode(into:)``, or returns `nil` when the bytes are not them.
    init?(from reader: inout ByteReader) {
        self.init()
        guard let until = reader.int64(), let seen = reader.int64(), let sessionsSeen = reader.int64(),
            let rows = reader.int64(), let sessions = reader.int64(), let appCount = reader.itemCount()
        else { return nil }
        observedUntil = ByteReader.optionalTime(until)
        (launchRowsSeen, sessionRowsSeen, launchRows, sessionRows) = (
            Int(seen), Int(sessionsSeen), Int(rows), Int(sessions)
        )
        for _ in 0..<appCount {
            guard let name = reader.string(), let folded = reader.int64(), let anchor = reader.int64(),
                let launches = reader.int64s(), let total = reader.int64s(), let positive = reader.int64s(),
                total.count == Self.bucketEdges.count,
                positive.count == Self.bucketEdges.count, let before = reader.int64(),
                let sessionsBefore = reader.int64(), let hits = reader.int64(), let sessionHits = reader.int64(),
                let pairHits = reader.counts(), let quarterHits = Self.quarters(&reader)
            else { return nil }
            var counts = AppCounts(
                foldedUntil: folded, anchor: ByteReader.optionalTime(anchor), launches: launches,
                launchRowsBefore: Int(before), sessionRowsBefore: Int(sessionsBefore))
            counts.total = total.map { Int($0) }
            counts.positive = positive.map { Int($0) }
            (counts.launchHits, counts.sessionHits) = (Int(hits), Int(sessionHits))
            (counts.pairHits, counts.quarterHits) = (pairHits, quarterHits)
            apps[name] = counts
        }
        guard let pendingCount = reader.itemCount() else { return nil }
        for _ in 0..<pendingCount {
            guard let time = reader.int64(), let app = reader.string(), let quarter = reader.integer(UInt8.self),
                quarter < 4, let starts = reader.integer(UInt8.self), starts <= 1, let hitCount = reader.itemCount()
            else { return nil }
            var row = LaunchRow(time: time, app: app, quarter: Int(quarter), startsSession: starts == 1)
            for _ in 0..<hitCount {
                guard let hit = reader.string() else { return nil }
                row.hits.insert(hit)
            }
            pending.append(row)
        }
        guard let byApp = reader.counts(), let byQuarter = Self.quarters(&reader) else { return nil }
        (rowsByApp, rowsByQuarter) = (byApp, byQuarter)
    }

    private static func quarters(_ reader: inout ByteReader) -> [String: [Int]]? {
        guard let count = reader.itemCount() else { return nil }
        var counts: [String: [Int]] = [:]
        for _ in 0..<count {
            guard let name = reader.string(), let values = reader.int64s(), values.count == 4 else { return nil }
            counts[name] = values.map { Int($0) }
        }
        return counts
    }
}
