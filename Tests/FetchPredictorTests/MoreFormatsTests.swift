import FetchPredictorTestSupport
import Foundation
import GRDB
import Testing

@testable import FetchPredictor

/// The formats people already have: ActivityWatch's CSV, Android's usage dump, Apple's
/// knowledgeC.db, and App Usage's notifications and languages.
struct MoreFormatsTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let paris = TimeZone(identifier: "Europe/Paris")!

    func importFixture(
        _ name: String, _ options: ImportOptions = ImportOptions()
    ) throws -> (EventStore, ImportReport) {
        let store = try EventStore.inMemory()
        let report = try store.importFile(TestFiles.fixture(name), options: options, now: now)
        // A second import stores nothing twice.
        let again = try store.importFile(TestFiles.fixture(name), options: options, now: now)
        #expect(again.stored == 0 && again.duplicates == report.events, "\(name)")
        return (store, report)
    }

    /// "2024-03-01 07:30:00" in Paris, as a stored instant.
    func local(_ text: String) -> Milliseconds {
        TimestampParser.parseLocal(text)!.instant(in: paris).0
    }

    @Test func activityWatchCSVReadsAsTheJSONExportDoes() async throws {
        let (csv, report) = try importFixture("activitywatch-small.csv")
        #expect(report.format == .activitywatchCSV && report.formatDetected)
        #expect(report.rowsRead == 12)
        let (json, _) = try importFixture("activitywatch-small.json")
        let launches = { (store: EventStore) in try await store.events(device: "default").filter { $0.kind == .launch }
        }
        await #expect(try launches(csv) == launches(json))
        await #expect(try launches(csv).count == 6)
    }

    @Test func usageStatsDumpIsReadOnceWhateverItsSectionsRepeat() async throws {
        let (store, report) = try importFixture("usagestats-small.txt", ImportOptions(timeZone: paris))
        #expect(report.format == .usageStatsDump && report.formatDetected)
        let events = try await store.events(device: "default")
        let launches = events.filter { $0.kind == .launch }
        // Two resumes of chat are one visit; a launcher between two of news makes two; the screen
        // turning off and the device starting end visits; the system UI is no launch.
        #expect(
            launches.map(\.app) == [
                "com.example.chat", "com.example.news", "com.example.news", "com.example.video", "com.example.chat",
            ])
        #expect(
            launches.map(\.time) == [
                local("2024-03-01 07:30:00"), local("2024-03-01 12:30:00"), local("2024-03-01 12:36:00"),
                local("2024-03-01 21:00:00"), local("2024-03-02 08:01:10"),
            ])
        #expect(events.filter { $0.kind == .notification }.map(\.app) == ["com.example.news"])
        #expect(events.filter { $0.kind == .unlock }.count == 3)
        #expect(events.filter { $0.kind == .screenOn }.count == 2)
        #expect(events.filter { $0.kind == .screenOff }.count == 1)
        #expect(report.duplicates == 0)
    }

    @Test func usageStatsDumpNeedsAZone() throws {
        let store = try EventStore.inMemory()
        #expect(throws: ImportError.self) {
            try store.importFile(TestFiles.fixture("usagestats-small.txt"), options: ImportOptions(), now: now)
        }
        #expect(try store.devices().isEmpty)
    }

    /// The bytes and modification date of a file, or `nil` when it is not there.
    func fingerprint(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        return "\(bytes.base64EncodedString()) \(modified?.timeIntervalSince1970 ?? 0)"
    }

    @Test func knowledgeCIsReadAndNeverChanged() async throws {
        let folder = TestFiles.scratchFolder()
        let path = folder.appendingPathComponent("knowledgeC.db").path
        try FileManager.default.copyItem(atPath: TestFiles.fixture("knowledgec-small.db"), toPath: path)
        let before = try fingerprint(path)
        let store = try EventStore.inMemory()
        let report = try await store.importFile(path, options: ImportOptions(device: "mac"), now: now)
        #expect(report.format == .knowledgeC && report.formatDetected)
        #expect(try fingerprint(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["knowledgeC.db"])
        let events = try await store.events(device: "mac")
        let launches = events.filter { $0.kind == .launch }
        // Two Safari intervals in a row are one visit; the Dock ends it; a lock ends mail's.
        #expect(launches.map(\.app) == ["com.apple.Safari", "com.apple.mail", "com.apple.mail"])
        #expect(launches.first?.duration == 90)
        #expect(launches.allSatisfy { $0.utcOffset == 3600 })
        #expect(launches.first?.time == local("2024-03-01 07:30:00"))
        #expect(events.filter { $0.kind == .unlock }.count == 2)
        let again = try await store.importFile(path, options: ImportOptions(device: "mac"), now: now)
        #expect(again.stored == 0)
    }

    /// Two windows of one app, at 22:30 and at 07:30 the next morning, are two visits: an unlock
    /// between them ends the first, and so does the night's gap without one (issue 25: they were
    /// read as one visit, and the morning launch was lost). A gap of two minutes is one visit.
    @Test(arguments: [true, false])
    func knowledgeCVisitsEndAtAnUnlockAndAtALongGap(withUnlock: Bool) async throws {
        let path = TestFiles.scratchFolder().appendingPathComponent("knowledgeC.db").path
        let queue = try DatabaseQueue(path: path)
        // 2024-03-01T21:30:00Z, in seconds after 2001-01-01.
        let evening = 731_021_400.0
        let morning = evening + 9 * 3600
        var rows: [(String, String?, Int?, Double, Double)] = [
            ("/app/inFocus", "com.apple.news", nil, evening, evening + 600),
            ("/app/inFocus", "com.apple.news", nil, morning, morning + 120),
            ("/app/inFocus", "com.apple.news", nil, morning + 240, morning + 300),
        ]
        if withUnlock { rows.append(("/device/isLocked", nil, 0, morning - 30, morning + 3600)) }
        try await queue.write { [rows] db in
            try db.execute(
                sql: """
                    CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, ZSTREAMNAME VARCHAR, ZVALUESTRING VARCHAR,
                        ZVALUEINTEGER INTEGER, ZSTARTDATE TIMESTAMP, ZENDDATE TIMESTAMP, ZSECONDSFROMGMT INTEGER)
                    """)
            for (index, row) in rows.enumerated() {
                try db.execute(
                    sql: "INSERT INTO ZOBJECT VALUES (?, ?, ?, ?, ?, ?, 3600)",
                    arguments: [index + 1, row.0, row.1, row.2, row.3, row.4])
            }
        }
        try queue.close()
        let store = try EventStore.inMemory()
        _ = try await store.importFile(path, options: ImportOptions(device: "phone"), now: now)
        let launches = try await store.events(device: "phone").filter { $0.kind == .launch }
        let expected: [Milliseconds] = [evening, morning].map { (seconds: Double) in
            Milliseconds((seconds + 978_307_200) * 1000)
        }
        #expect(launches.map(\.time) == expected)
        let durations: [Double?] = [600, 180]
        #expect(launches.map(\.duration) == durations)
    }

    /// The device's state from knowledgeC.db: plugged in and Low Power Mode as intervals (on at
    /// the start of a 1, off at its end and at the start of a 0), the battery's level as a
    /// percent, or as a fraction of 1 in a database that writes it so; a level of 140% is refused
    /// by its row and field.
    @Test(arguments: [1.0, 0.01])
    func knowledgeCStateStreamsAreRead(scale: Double) throws {
        let path = TestFiles.scratchFolder().appendingPathComponent("knowledgeC.db").path
        let queue = try DatabaseQueue(path: path)
        // 2024-03-01T21:30:00Z, in seconds after 2001-01-01.
        let evening = 731_021_400.0
        let rows: [(String, String?, Int?, Double?, Double, Double)] = [
            ("/app/inFocus", "com.apple.news", nil, nil, evening, evening + 600),
            ("/device/isPluggedIn", nil, 1, nil, evening + 60, evening + 3600),
            ("/device/isPluggedIn", nil, 0, nil, evening + 7200, evening + 9000),
            ("/device/lowPowerMode", nil, 1, nil, evening + 120, evening + 1800),
            ("/device/batteryPercentage", nil, nil, 57 * scale, evening + 30, evening + 30),
            ("/device/batteryPercentage", nil, nil, 100 * scale, evening + 3000, evening + 3000),
        ]
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, ZSTREAMNAME VARCHAR, ZVALUESTRING VARCHAR,
                        ZVALUEINTEGER INTEGER, ZVALUEDOUBLE FLOAT, ZSTARTDATE TIMESTAMP, ZENDDATE TIMESTAMP,
                        ZSECONDSFROMGMT INTEGER)
                    """)
            for (index, row) in rows.enumerated() {
                try db.execute(
                    sql: "INSERT INTO ZOBJECT VALUES (?, ?, ?, ?, ?, ?, ?, 3600)",
                    arguments: [index + 1, row.0, row.1, row.2, row.3, row.4, row.5])
            }
        }
        let store = try EventStore.inMemory()
        _ = try store.importFile(path, options: ImportOptions(device: "phone"), now: now)
        var states: [String] = []
        try store.forEachStoredEvent(device: "phone") { event in
            guard event.kind.isDeviceState else { return }
            let seconds = Int(Double(event.time) / 1000 - 978_307_200 - evening)
            states.append("\(seconds) \(event.kind.rawValue)\(event.value.map { " \($0)" } ?? "")")
        }
        #expect(
            states == [
                "30 battery 57", "60 powerConnected", "120 lowPowerOn", "1800 lowPowerOff", "3000 battery 100",
                "3600 powerDisconnected", "7200 powerDisconnected",
            ])
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO ZOBJECT VALUES (9, '/device/batteryPercentage', NULL, NULL, 140, ?, ?, 3600)",
                arguments: [evening + 60, evening + 60])
        }
        try queue.close()
        let error = try #require(throws: ImportError.self) {
            try EventStore.inMemory().importFile(path, options: ImportOptions(device: "phone"), now: now)
        }
        guard case .invalidRows(_, _, let first) = error else { throw error }
        #expect(first.first?.line == 9 && first.first?.field == "ZVALUEDOUBLE")
    }

    @Test func knowledgeCWithPendingChangesInItsWALIsReadWithoutTouchingIt() async throws {
        let folder = TestFiles.scratchFolder()
        let path = folder.appendingPathComponent("knowledgeC.db").path
        try FileManager.default.copyItem(atPath: TestFiles.fixture("knowledgec-small.db"), toPath: path)
        // Another process still holds the database, its last change only in the -wal.
        let pool = try DatabasePool(path: path)
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO ZOBJECT (Z_PK, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT)
                    VALUES (100, '/app/inFocus', 'com.apple.Notes', 730970000, 730970100, 3600)
                    """)
        }
        let files = ["", "-wal", "-shm"].map { path + $0 }
        let before = try files.map(fingerprint)
        #expect(before[1] != nil)
        let store = try EventStore.inMemory()
        _ = try await store.importFile(path, options: ImportOptions(device: "mac"), now: now)
        #expect(try files.map(fingerprint) == before)
        #expect(try await store.events(device: "mac").contains { $0.app == "com.apple.Notes" })
        try pool.close()
    }

    @Test func damagedKnowledgeCIsRefusedNamingTheFileAndRow() throws {
        let store = try EventStore.inMemory()
        // An SQLite file that is no knowledgeC.db.
        let other = TestFiles.scratchFolder().appendingPathComponent("other.db").path
        let queue = try DatabaseQueue(path: other)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        try queue.close()
        #expect {
            try store.importFile(other, options: ImportOptions(), now: now)
        } throws: { "\($0)".contains(other) && "\($0)".contains("ZOBJECT") }
        // A row with no bundle id.
        let damaged = TestFiles.scratchFolder().appendingPathComponent("knowledgeC.db").path
        try FileManager.default.copyItem(atPath: TestFiles.fixture("knowledgec-small.db"), toPath: damaged)
        let writer = try DatabaseQueue(path: damaged)
        try writer.write { db in try db.execute(sql: "UPDATE ZOBJECT SET ZVALUESTRING = NULL WHERE Z_PK = 5") }
        try writer.close()
        #expect {
            try store.importFile(damaged, options: ImportOptions(), now: now)
        } throws: { "\($0)".contains("\(damaged):5: field 'ZVALUESTRING'") }
        // Half a database.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("knowledgec-small.db")))
        let half = TestFiles.write(bytes: [UInt8](bytes.prefix(bytes.count / 2)), name: "half.db")
        #expect { try store.importFile(half, options: ImportOptions(), now: now) } throws: { "\($0)".contains(half) }
        #expect(try store.devices().isEmpty)
    }

    @Test func damagedDumpsAndBucketsAreRefusedNamingFileLineAndField() async throws {
        let store = try EventStore.inMemory()
        let dump = TestFiles.write(
            """
              events
                time="2024-03-01 07:30:00" type=ACTIVITY_RESUMED package=com.example.chat class=A
                time="2024-03-01 25:99:00" type=ACTIVITY_RESUMED package=com.example.news class=B
            """, name: "usage.txt")
        #expect {
            try store.importFile(dump, options: ImportOptions(timeZone: paris), now: now)
        } throws: { "\($0)".contains("\(dump):3: field 'time'") }
        let bucket = TestFiles.write(
            """
            id,timestamp,duration,data/app,data/classname,data/package
            2,2024-03-01T08:00:00Z,5,Chat,com.example.chat.Main,com.example.chat
            1,yesterday,5,News,com.example.news.Main,com.example.news
            """, name: "bucket.csv")
        #expect {
            try store.importFile(bucket, options: ImportOptions(), now: now)
        } throws: { "\($0)".contains("\(bucket):3: field 'timestamp'") }
        await #expect(try store.devices().isEmpty)
    }

    @Test func appUsageNotificationsAreNotificationsOfTheAppInBrackets() async throws {
        let (store, _) = try importFixture("app-usage-notifications.csv", ImportOptions(timeZone: paris))
        let events = try await store.events(device: "default")
        // A notification within a run of Chat does not end it; the Polish notification label is
        // not known, so its row is an app until a label says otherwise.
        #expect(events.filter { $0.kind == .launch }.map(\.app) == ["Chat", "News", "Powiadomienie (Video)", "Video"])
        #expect(events.filter { $0.kind == .notification }.map(\.app) == ["News", "News", "Chat"])
        #expect(events.filter { $0.kind == .unlock }.count == 3)
        #expect(events.filter { $0.kind == .screenOff }.count == 3)
        let apps = try await store.apps(device: "default")
        #expect(apps.first { $0.app == "News" }?.notifications == 2)
        #expect(!apps.contains { $0.app.hasPrefix("Notification") || $0.app.hasPrefix("Activity") })

        let (labelled, _) = try importFixture(
            "app-usage-notifications.csv", ImportOptions(timeZone: paris, rowLabels: ["powiadomienie": .notification]))
        let relabelled = try await labelled.events(device: "default")
        #expect(relabelled.filter { $0.kind == .launch }.map(\.app) == ["Chat", "News", "Video"])
        #expect(relabelled.filter { $0.kind == .notification }.map(\.app) == ["News", "News", "Chat", "Video"])
    }

    @Test func labelsOfOtherLanguagesAreAdded() async throws {
        let path = TestFiles.write(
            """
            App,Date,Time,Duration
            Pantalla encendida (desbloqueada),3/13/2024,08:00:00,0:00:00
            Chat,3/13/2024,08:00:10,0:01:00
            Pantalla apagada,3/13/2024,08:02:00,0:00:00
            Chat,3/13/2024,08:03:00,0:01:00
            """)
        let store = try EventStore.inMemory()
        _ = try await store.importFile(
            path,
            options: ImportOptions(
                timeZone: paris,
                rowLabels: ["Pantalla encendida (desbloqueada)": .unlock, "Pantalla apagada": .screenOff]), now: now)
        let events = try await store.events(device: "default")
        #expect(events.map(\.kind) == [.unlock, .launch, .screenOff, .launch])
        await #expect(try store.apps(device: "default").map(\.app) == ["Chat"])
        #expect(RowLabel.parse(assignment: "Écran=screenOn")?.meaning == .screenOn)
        #expect(RowLabel.parse(assignment: "Écran=sideways") == nil)
    }

    /// The two more real App Usage exports: a 12-hour clock, and notification rows.
    @Test(
        .enabled(if: TestFiles.datasetsPresent),
        arguments: [
            ("app-usage-export-2024-india/Activity.csv", "Asia/Kolkata", 20_393, 71, 2_572, 0),
            (
                "app-usage-export-2019-lyon/AUM_V4_Activity_2019-12-10_22-19-45.csv", "Europe/Paris", 13_395, 44, 2_447,
                2_235
            ),
        ])
    func realAppUsageExportsImportWithTheirCounts(
        file: String, zone: String, rows: Int, launchedApps: Int, unlocks: Int, notificationRows: Int
    ) throws {
        var kinds: [EventKind: Int] = [:]
        let options = ImportOptions(timeZone: TimeZone(identifier: zone), dateOrder: .mdy)
        let report = try LogReader(options: options).read(TestFiles.dataset(file)) {
            kinds[$0.kind, default: 0] += 1
            return true
        }
        #expect(report.rowsRead == rows)
        #expect(kinds[.unlock] == unlocks)
        #expect(kinds[.notification, default: 0] == notificationRows)
        let store = try EventStore.inMemory()
        _ = try store.importFile(TestFiles.dataset(file), options: options, now: now)
        let apps = try store.apps(device: "default")
        #expect(apps.filter { $0.launches > 0 }.count == launchedApps)
        let pseudo = ["Screen on", "Screen off", "Notification", "Activity history", "Device "]
        #expect(!apps.contains { app in pseudo.contains { app.app.hasPrefix($0) } }, "\(apps.map(\.app))")
        // App Usage is no launch, though it may post notifications.
        #expect(apps.first { $0.app == "App Usage" }?.launches ?? 0 == 0)
    }
}
