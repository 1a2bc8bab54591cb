import Testing

@testable import FetchPredictor

/// A device's tenant is read from its stored name in one place, the same for every caller.
struct DeviceIdentityTests {
    @Test func aTenantsDeviceIsItsNameAfterTheFirstSlash() {
        let device = DeviceIdentity(stored: "acme/phones/7")
        #expect(device.tenant == "acme")
        #expect(device.name == "phones/7")
        #expect(device.scope == "acme/")
        #expect(device.stored == "acme/phones/7")
        #expect(DeviceIdentity(tenant: "acme", name: "phones/7") == device)
        #expect(DeviceIdentity.scope(ofTenant: "acme") == "acme/")
    }

    /// A name with no `/` (the command line's and the library's devices) has no tenant, for the
    /// scope of its settings and kept wakes and for the service's learning limits alike: before,
    /// one read took the whole name as the tenant and another "".
    @Test func aNameWithNoSlashHasNoTenant() {
        for stored in ["default", "phone 'one'", "téléphone", ""] {
            let device = DeviceIdentity(stored: stored)
            #expect(device.tenant == "")
            #expect(device.name == stored)
            #expect(device.scope == "")
            #expect(device.stored == stored)
        }
    }

    /// Tenants' names are never empty: a name that starts with `/` is a name of no tenant, read
    /// back as it was written.
    @Test func aNameStartingWithASlashHasNoTenant() {
        let device = DeviceIdentity(stored: "/x/y")
        #expect(device.tenant == "" && device.name == "/x/y" && device.scope == "")
        #expect(device.stored == "/x/y")
    }
}
