import FetchPredictorImport
import Testing

/// An import log keeps the settings that change how a file reads as a reading key; reading a
/// file again (`config --reread`) takes them back from it.
struct ReadingKeyTests {
    @Test func aReadingKeyGivesBackTheSettingsItWasMadeOf() {
        var written = ImportOptions(
            extraIgnoredPackages: ["com.example.launcher", "org.example.home"],
            rowLabels: ["Ekran włączony (odblokowany)": .unlock, "a=b": .screenOff])
        written.device = "phone"
        var read = ImportOptions()
        read.read(readingKey: written.readingKey)
        #expect(read.rowLabels == written.rowLabels)
        #expect(read.extraIgnoredPackages == written.extraIgnoredPackages)
        #expect(read.readingKey == written.readingKey)
        var none = ImportOptions()
        none.read(readingKey: nil)
        #expect(none.readingKey == nil)
    }
}
