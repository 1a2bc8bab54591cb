import FetchPredictor
import Testing

/// A change names a constraint as `AppConstraints.names` does, and sets that one only.
struct AppSettingsChangeTests {
    @Test func aConstraintByNameChangesThatConstraintOnly() {
        let before = AppSettings(device: "phone", app: "com.example.podcasts", interval: nil, enabled: true)
        for name in AppConstraints.names {
            var change = AppSettingsChange()
            let known = change.setConstraint(name, to: true)
            #expect(known)
            var expected = AppConstraints()
            expected.set(name, to: true)
            #expect(change.applied(to: before).constraints == expected)
        }
        var change = AppSettingsChange()
        let known = change.setConstraint("requiresWiFi", to: true)
        #expect(!known)
        #expect(change.isEmpty)
    }
}
