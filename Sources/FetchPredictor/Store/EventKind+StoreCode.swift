import FetchPredictorCore

extension EventKind {
    /// The kind's number in a store, the same in both backends: 0 launch, 1 fetch,
    /// 2 notification, then the device's own kinds from 3 in the order of
    /// `EventKind.deviceKinds` (3 unlock, 4 screen on, 5 screen off, 6 power connected, ...).
    public var storeCode: Int16 {
        switch self {
        case .launch: 0
        case .fetch: 1
        case .notification: 2
        default: Self.firstDeviceCode + Int16(Self.deviceKinds.firstIndex(of: self)!)
        }
    }

    /// The code of the first device kind: app events come before it.
    public static let firstDeviceCode: Int16 = 3

    /// The kind of a store's code; `nil` for a number that is none.
    public init?(storeCode: Int16) {
        switch storeCode {
        case 0: self = .launch
        case 1: self = .fetch
        case 2: self = .notification
        case Self.firstDeviceCode..<Self.firstDeviceCode + Int16(Self.deviceKinds.count):
            self = Self.deviceKinds[Int(storeCode - Self.firstDeviceCode)]
        default: return nil
        }
    }
}

extension FetchResult {
    /// The result's number in a store that keeps it as a number (PostgreSQL): 0 new data,
    /// 1 no data, 2 failed.
    public var storeCode: Int16 {
        switch self {
        case .newData: 0
        case .noData: 1
        case .failed: 2
        }
    }

    /// The result of a store's code; `nil` for a number that is none.
    public init?(storeCode: Int16) {
        switch storeCode {
        case 0: self = .newData
        case 1: self = .noData
        case 2: self = .failed
        default: return nil
        }
    }
}
