import Foundation
import Testing

@testable import FetchPredictorCore

/// The system's apps are known by package and by the label App Usage writes, in every language
/// its exports are read in (issue 56: on a French export the clock and the phone were planned).
struct SystemAppsTests {
    @Test(arguments: [
        "com.android.deskclock", "com.sec.android.app.clockpackage", "com.google.android.dialer",
        "Clock", "Phone", "System UI",
        "Horloge", "Téléphone", "Paramètres", "Services Google Play",
        "Zegar", "Telefon", "Ustawienia", "Usługi Google Play",
    ])
    func aSystemAppIsKnown(name: String) {
        #expect(SystemApps.contains(name))
    }

    @Test func aLabelWrittenDecomposedIsTheSameLabel() {
        let decomposed = "Te\u{301}le\u{301}phone"
        #expect(decomposed.unicodeScalars.count != "Téléphone".unicodeScalars.count)
        #expect(SystemApps.contains(decomposed))
    }

    @Test(arguments: ["Clockwork", "Telegram", "com.example.clock", "Horloges mondiales", "phone"])
    func anotherAppIsNot(name: String) {
        #expect(!SystemApps.contains(name))
    }
}
