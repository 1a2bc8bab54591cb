/// A device as a store names it, read in one place: a tenant's devices in the service are
/// `TENANT/NAME`, so that tenants never share a device; a device of the command line or the
/// library has a name with no `/` and no tenant. The tenant is the name up to its first `/`; what
/// follows, `/` and all, is the tenant's own name for the device. Every reader of a stored name
/// (the scope of its settings and kept wakes, the service's learning limits, its answers) reads it
/// here.
public struct DeviceIdentity: Hashable, Sendable {
    /// The tenant, `""` for none.
    public let tenant: String
    /// The name the tenant gives the device (the whole stored name when there is no tenant).
    public let name: String

    /// The device of a tenant. With `tenant` empty, the device of no tenant, named `name`.
    public init(tenant: String, name: String) {
        self.tenant = tenant
        self.name = name
    }

    /// The device a store's name names. A name that starts with `/` has no tenant (tenants' names
    /// are never empty): it is read back as it was written.
    public init(stored: String) {
        if let slash = stored.firstIndex(of: "/"), slash != stored.startIndex {
            tenant = String(stored[..<slash])
            name = String(stored[stored.index(after: slash)...])
        } else {
            tenant = ""
            name = stored
        }
    }

    /// The name in the store: `TENANT/NAME`, or `NAME` with no tenant.
    public var stored: String { tenant.isEmpty ? name : "\(tenant)/\(name)" }

    /// The scope of the device's kept wakes and settings: its tenant's (``scope(ofTenant:)``),
    /// or the store's own, `""`, with no tenant.
    public var scope: String { tenant.isEmpty ? "" : Self.scope(ofTenant: tenant) }

    /// The scope of a tenant's devices: their stored names' common start, `TENANT/`.
    public static func scope(ofTenant tenant: String) -> String { tenant + "/" }

    /// ``scope`` in SQL, of a tenant column's `tenant` (`NEW.tenant` in a trigger): both
    /// backends' triggers give a device's kept wake its scope with this.
    package static func scopeSQL(tenant: String) -> String {
        "CASE \(tenant) WHEN '' THEN '' ELSE \(tenant) || '/' END"
    }
}
