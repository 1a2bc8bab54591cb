import Foundation

/// The traces in the compact binary form of a device's model (``DeviceModel/encodedHeader()``),
/// so that a model read from a store's cache plans from the launch model as the one learned.
extension LaunchTraces {
    /// Writes the traces; names in sorted order, so that the same traces give the same bytes.
    func encode(into writer: inout ByteWriter) {
        writer.put(Int64(version))
        writer.put(UInt8(notifies ? 1 : 0))
        for time in [lastAnyLaunch, sessionStart, lastUnlock] { writer.put(time ?? .min) }
        writer.put(UInt8(lastApp == nil ? 0 : 1))
        if let lastApp { writer.put(lastApp) }
        writer.put(UInt32(apps.count))
        for (name, trace) in apps.sorted(by: { $0.key < $1.key }) {
            writer.put(name)
            for time in [trace.lastLaunch, trace.lastColdLaunch, trace.lastNotification] { writer.put(time ?? .min) }
            writer.put(trace.coldLaunches)
        }
        writer.put(UInt32(recent.count))
        for launch in recent {
            writer.put(launch.time)
            writer.put(launch.app)
            writer.put(UInt32(launch.followers.count))
            for name in launch.followers.sorted() { writer.put(name) }
        }
        writer.put(launchCounts)
        writer.put(UInt32(followed.count))
        for (name, followers) in followed.sorted(by: { $0.key < $1.key }) {
            writer.put(name)
            writer.put(followers)
        }
        rates.encode(into: &writer)
    }

    /// The bytes ``encode(into:)`` writes.
    var encodedSize: Int {
        var writer = ByteWriter()
        encode(into: &writer)
        return writer.bytes.count
    }

    /// Reads traces written by ``encode(into:)``, or returns `nil` when the bytes are not them.
    init?(from reader: inout ByteReader) {
        self.init()
        guard let version = reader.int64(), let notifies = reader.integer(UInt8.self), notifies <= 1 else {
            return nil
        }
        self.version = Int(version)
        self.notifies = notifies == 1
        guard let any = reader.int64(), let session = reader.int64(), let unlock = reader.int64(),
            let hasLastApp = reader.integer(UInt8.self), hasLastApp <= 1
        else { return nil }
        (lastAnyLaunch, sessionStart, lastUnlock) = (
            ByteReader.optionalTime(any), ByteReader.optionalTime(session), ByteReader.optionalTime(unlock)
        )
        if hasLastApp == 1 {
            guard let name = reader.string() else { return nil }
            lastApp = name
        }
        guard let appCount = reader.itemCount() else { return nil }
        for _ in 0..<appCount {
            guard let name = reader.string(), let last = reader.int64(), let lastCold = reader.int64(),
                let notification = reader.int64(), let colds = reader.int64s()
            else { return nil }
            var trace = AppTrace(
                lastLaunch: ByteReader.optionalTime(last), lastColdLaunch: ByteReader.optionalTime(lastCold),
                lastNotification: ByteReader.optionalTime(notification))
            trace.coldLaunches = colds
            apps[name] = trace
        }
        guard let recentCount = reader.itemCount() else { return nil }
        for _ in 0..<recentCount {
            guard let time = reader.int64(), let app = reader.string(), let followers = reader.itemCount() else {
                return nil
            }
            var launch = RecentLaunch(time: time, app: app)
            for _ in 0..<followers {
                guard let name = reader.string() else { return nil }
                launch.followers.insert(name)
            }
            recent.append(launch)
        }
        guard let counts = reader.counts(), let leaders = reader.itemCount() else { return nil }
        launchCounts = counts
        for _ in 0..<leaders {
            guard let name = reader.string(), let followers = reader.counts() else { return nil }
            followed[name] = followers
        }
        guard let rates = OwnRates(from: &reader) else { return nil }
        self.rates = rates
    }
}
