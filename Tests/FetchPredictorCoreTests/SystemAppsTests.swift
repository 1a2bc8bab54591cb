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
        // Samsung's French phone app (issue 72: 107 launches in a month, and planned).
        "Appel", "Calculatrice", "Appareil photo", "One UI Home", "com.sec.android.app.launcher",
        "com.miui.home", "Pixel Launcher", "Relógio", "Câmera", "Rechner", "Cámara",
    ])
    func aSystemAppIsKnown(name: String) {
        #expect(SystemApps.contains(name))
    }

    @Test func aLabelWrittenDecomposedIsTheSameLabel() {
        let decomposed = "Te\u{301}le\u{301}phone"
        #expect(decomposed.unicodeScalars.count != "Téléphone".unicodeScalars.count)
        #expect(SystemApps.contains(decomposed))
    }

    /// The table holds the labels of the phone, clock, settings, calculator, camera, system UI,
    /// installer and permission dialogs in English, Polish, French, German, Spanish and
    /// Portuguese, and the packages of each role, including the launchers of One UI, Pixel and
    /// MIUI.
    @Test func theTableCoversEachRoleInEachLanguage() {
        let labelled = ["phone", "clock", "settings", "calculator", "camera", "systemui", "installer", "permissions"]
        for role in labelled {
            for language in ["en", "pl", "fr", "de", "es", "pt"] {
                #expect(
                    SystemApps.entries.contains { $0.role == role && $0.language == language }, "\(role) in \(language)"
                )
            }
        }
        for role in labelled + ["launcher", "playservices"] {
            #expect(SystemApps.entries.contains { $0.role == role && $0.source == "package" }, "\(role)'s package")
        }
        for maker in ["samsung", "pixel", "miui"] {
            #expect(SystemApps.entries.contains { $0.role == "launcher" && $0.source == maker }, "\(maker)'s launcher")
        }
        // Every label has a language and every package none; no line is there twice (a label
        // may be two languages': Telefon).
        #expect(SystemApps.entries.allSatisfy { ($0.source == "package") == ($0.language == nil) })
        #expect(Set(SystemApps.entries).count == SystemApps.entries.count)
    }

    @Test func anAppIsTakenByALineOfTheTable() throws {
        let entry = try #require(SystemApps.entry(for: "Appel"))
        #expect(entry.role == "phone" && entry.source == "samsung" && entry.language == "fr")
        #expect(SystemApps.entry(for: "com.samsung.android.incallui")?.name == "*.incallui")
        #expect(SystemApps.entry(for: "Appels") == nil)
    }

    @Test func commentsAndBlankLinesOfTheTableAreSkipped() {
        let entries = SystemApps.parse("# a comment\n\nclock\tpackage\t-\tcom.example.deskclock\n")
        #expect(
            entries == [
                SystemApps.Entry(role: "clock", source: "package", language: nil, name: "com.example.deskclock")
            ])
    }

    @Test(arguments: ["Clockwork", "Telegram", "com.example.clock", "Horloges mondiales", "phone", "Appels"])
    func anotherAppIsNot(name: String) {
        #expect(!SystemApps.contains(name))
    }
}
