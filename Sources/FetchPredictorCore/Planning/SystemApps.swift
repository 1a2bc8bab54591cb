import Foundation

/// Packages of the system that logs list as apps but whose content never goes stale: clocks and
/// alarms, calls, the system UI, settings, installers, permission dialogs and Play services. An
/// app of these with no interval of its own is never woken, whatever the default interval: on a
/// Samsung log the clock took 6 of 17 fetches, at night. Setting an interval of its own (one by
/// one, or in bulk with `config --apps-matching`) wakes it as any other.
public enum SystemApps {
    /// The built-in patterns: a name, or a pattern where `*` stands for any run of characters.
    /// Android package names, and the labels App Usage writes for the same apps.
    public static let patterns = [
        // Clocks and alarms.
        "com.android.deskclock", "com.google.android.deskclock", "com.sec.android.app.clockpackage", "*.deskclock",
        // Calls.
        "com.android.dialer", "com.google.android.dialer", "com.samsung.android.dialer", "*.incallui",
        "com.android.phone", "com.android.server.telecom",
        // The system's own screens and services.
        "com.android.systemui", "com.android.settings", "com.google.android.gms", "com.android.packageinstaller",
        "com.google.android.packageinstaller", "com.android.permissioncontroller",
        "com.google.android.permissioncontroller", "com.wssyncmldm",
        // The names App Usage gives them, in English and in the languages its exports are read
        // in (Android's own labels): French, Polish, German, Spanish.
        "Clock", "Phone", "Settings", "System UI", "Package installer", "Permission controller",
        "Google Play services",
        "Horloge", "Téléphone", "Paramètres", "Interface système", "Interface du système",
        "Programme d'installation de packages", "Programme d’installation de packages", "Installateur de packages",
        "Contrôleur des autorisations", "Services Google Play",
        "Zegar", "Telefon", "Ustawienia", "Interfejs systemu", "Instalator pakietów", "Kontroler uprawnień",
        "Usługi Google Play",
        "Uhr", "Einstellungen", "System-UI", "Paket-Installer", "Paketinstaller", "Berechtigungscontroller",
        "Google Play-Dienste",
        "Reloj", "Teléfono", "Ajustes", "IU del sistema", "Instalador de paquetes", "Controlador de permisos",
        "Servicios de Google Play",
    ]

    /// Whether an app is one of the system's, by the built-in patterns.
    public static func contains(_ app: String) -> Bool {
        if patterns.contains(where: { matches(app, pattern: $0) }) { return true }
        // A label written decomposed (an e and a combining accent) is the same label.
        let composed = app.precomposedStringWithCanonicalMapping
        guard !composed.unicodeScalars.elementsEqual(app.unicodeScalars) else { return false }
        return patterns.contains { matches(composed, pattern: $0) }
    }

    /// Whether a name fits a pattern, where `*` stands for any run of characters (none included)
    /// and every other character for itself, compared by Unicode scalars.
    public static func matches(_ name: String, pattern: String) -> Bool {
        let name = Array(name.unicodeScalars), pattern = Array(pattern.unicodeScalars)
        // The classic two-pointer glob match, backtracking to the last star.
        var n = 0, p = 0
        var star: Int?, resume = 0
        while n < name.count {
            if p < pattern.count, pattern[p] != "*", pattern[p] == name[n] {
                n += 1
                p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = n
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                n = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
