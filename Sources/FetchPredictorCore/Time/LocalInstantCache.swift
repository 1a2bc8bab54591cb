import Foundation

/// Local times of one zone made instants, fast: the offset found for a local quarter hour is
/// kept, since every zone changes its offset only at a quarter hour, so that every local time
/// in that quarter hour resolves the same way (``DateFields/instant(in:)``'s rules included).
///
/// An importer reads a million local times in one zone; asking the zone for each costs more
/// than the rest of the import.
public struct LocalInstantCache {
    /// The zone.
    public let zone: TimeZone
    private var offsets: [Milliseconds: Milliseconds] = [:]

    public init(zone: TimeZone) {
        self.zone = zone
    }

    /// The instant of a local time in the zone.
    public mutating func instant(_ fields: DateFields) -> Milliseconds {
        let local = fields.millisecondsAsIfUTC
        let quarter = Milliseconds.minutes(15)
        let bucket = local >= 0 ? local / quarter : (local - quarter + 1) / quarter
        if let offset = offsets[bucket] { return local - offset }
        let (instant, _) = fields.instant(in: zone)
        offsets[bucket] = local - instant
        return instant
    }
}
