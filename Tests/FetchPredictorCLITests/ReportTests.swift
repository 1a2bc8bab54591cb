import Foundation
import Testing

@testable import FetchPredictorCLI

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The HTML report read as people's browsers read it: the page and every chart parse as XML, and
/// each chart holds the data it names, checked against what the other commands say.
struct ReportTests {
    /// An element of the page: its name, attributes, and its chart (the `data-chart` of the
    /// nearest enclosing svg).
    struct Element {
        var name: String
        var attributes: [String: String]
        var chart: String?
        var app: String?
        /// The text directly inside it.
        var text = ""
    }

    /// Reads a page with an XML parser; fails the test when it is not well-formed.
    final class Reader: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        private var charts: [String?] = []
        private var apps: [String?] = []
        private var open: [Int] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            let chart = name == "svg" ? attributes["data-chart"] : charts.last ?? nil
            let app = name == "div" && attributes["class"] == "app" ? attributes["data-app"] : apps.last ?? nil
            charts.append(chart)
            apps.append(app)
            open.append(elements.count)
            elements.append(Element(name: name, attributes: attributes, chart: chart, app: app))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let current = open.last { elements[current].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            charts.removeLast()
            apps.removeLast()
            open.removeLast()
        }

        static func read(_ path: String) throws -> Reader {
            let reader = Reader()
            let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
            parser.delegate = reader
            #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
            return reader
        }

        func charts(_ kind: String) -> [Element] {
            elements.filter { $0.name == "svg" && $0.attributes["data-chart"] == kind }
        }
        func marks(in kind: String) -> [Element] { elements.filter { $0.chart == kind && $0.name != "svg" } }
    }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// Cold launches by app and half hour, from an export: a launch 30 minutes or more after the
    /// app's last one (or its first).
    static func coldLaunches(csv: String, zone: TimeZone) -> [String: [Int]] {
        var counts: [String: [Int]] = [:]
        var last: [String: Date] = [:]
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        for line in csv.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields[2] == "launch", let time = formatter.date(from: fields[0]) ?? plain.date(from: fields[0])
            else {
                continue
            }
            if last[fields[1]].map({ time.timeIntervalSince($0) >= 1800 }) ?? true {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let parts = calendar.dateComponents([.hour, .minute], from: time)
                counts[fields[1], default: Array(repeating: 0, count: 48)][(parts.hour! * 60 + parts.minute!) / 30] += 1
            }
            last[fields[1]] = time
        }
        return counts
    }

    /// A store of the commuter's four weeks, every app on minimum.
    func commuterStore() throws -> String {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--time-zone", "Europe/Warsaw"])
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        return db
    }

    @Test func reportChartsHoldTheDataOfEachApp() throws {
        let db = try commuterStore()
        let now = "2024-01-29T06:00:00Z"
        let out = Tool.scratch().appendingPathComponent("report.html").path
        let made = try Tool.run(["report", "--db", db, "--now", now, "--out", out, "--evaluate"])
        #expect(made.status == 0, "\(made.stderr)")
        let page = try String(contentsOfFile: out, encoding: .utf8)
        // Self-contained: no script, no stylesheet, image or font from anywhere.
        for forbidden in ["<script", "<link", "<img", "@import", "url(", "src="] {
            #expect(!page.contains(forbidden), "\(forbidden)")
        }
        let links = page.components(separatedBy: "http").dropFirst().map { $0.prefix(30) }
        #expect(links.allSatisfy { $0.hasPrefix("://www.w3.org/") }, "\(links)")
        let reader = try Reader.read(out)

        // Each app: its profile and peaks are those peaks --json gives; its histogram counts the
        // cold launches of the export; its fetch results add up to apps --json.
        let learned = try #require(
            try json(try Tool.run(["peaks", "--db", db, "--now", now, "--json"]).stdout) as? [[String: Any]])
        let apps = try #require(
            try json(try Tool.run(["apps", "--db", db, "--now", now, "--json"]).stdout) as? [[String: Any]])
        let export = try Tool.run(["export", "--db", db, "--to", "2024-01-29T06:00:00.001Z"]).stdout
        let cold = Self.coldLaunches(csv: export, zone: TimeZone(identifier: "Europe/Warsaw")!)
        #expect(reader.charts("profile").count == apps.count)
        for app in apps {
            let name = try #require(app["app"] as? String)
            let own = reader.elements.filter { $0.app == name }
            let profile = try #require(own.first { $0.attributes["data-chart"] == "profile" })
            let info = try #require(learned.first { $0["app"] as? String == name })
            let profiles = try #require(info["profiles"] as? [[String: Any]])
            let expectedPeaks = profiles.flatMap { profile in
                (profile["peaks"] as? [[String: Any]] ?? []).map { "\(profile["days"]!):\($0["minute"]!)" }
            }
            #expect(profile.attributes["data-peaks"] == expectedPeaks.joined(separator: " "), "\(name)")
            let lines = own.filter { $0.name == "polyline" && $0.chart == "profile" }
            #expect(lines.count == profiles.count)
            for (line, profile) in zip(lines, profiles) {
                let drawn = (line.attributes["data-values"] ?? "").split(separator: " ").compactMap { Double($0) }
                let values = try #require(profile["halfHourly"] as? [Double])
                #expect(drawn.count == 48)
                #expect(zip(drawn, values).allSatisfy { abs($0 - $1) < 1e-3 }, "\(name)")
            }
            let histogram = try #require(own.first { $0.attributes["data-chart"] == "histogram" })
            #expect(
                histogram.attributes["data-counts"] == cold[name]?.map(String.init).joined(separator: " "), "\(name)")
            let fetched = own.filter { $0.chart == "fetches" && $0.name == "rect" }
                .reduce(0) { $0 + (Int($1.attributes["data-count"] ?? "") ?? 0) }
            let stored = ["fetchesNewData", "fetchesNoData", "fetchesFailed"].reduce(0) { $0 + (app[$1] as? Int ?? 0) }
            #expect(fetched == stored, "\(name)")
        }

        // The timeline: the schedule's wakes, each app at its device wake.
        let schedule = try #require(
            try json(try Tool.run(["schedule", "--db", db, "--now", now, "--json"]).stdout) as? [String: Any])
        let wakes = try #require(schedule["wakes"] as? [[String: Any]])
        let planned = wakes.flatMap { wake in
            (wake["apps"] as? [[String: Any]] ?? []).map { "\(wake["time"]!) \($0["app"]!)" }
        }
        let drawn = reader.marks(in: "timeline").filter { $0.name == "circle" }.map {
            "\($0.attributes["data-time"]!) \($0.attributes["data-app"]!)"
        }
        #expect(!planned.isEmpty)
        #expect(drawn == planned)

        // The frontier: every strategy of evaluate, fresh@4 and wakes@50 as it says them.
        let evaluation = try #require(
            try json(try Tool.run(["evaluate", "--db", db, "--json"]).stdout) as? [String: Any])
        let overall = try #require(evaluation["overall"] as? [[String: Any]])
        let points = reader.marks(in: "frontier").filter { $0.attributes["data-strategy"] != nil }
        #expect(points.count == overall.count)
        for (point, figures) in zip(points, overall) {
            #expect(point.attributes["data-strategy"] == figures["strategy"] as? String)
            #expect(abs(Double(point.attributes["data-fresh"] ?? "")! - (figures["freshRate"] as! Double)) < 1e-3)
        }
        let frontier = try #require(reader.charts("frontier").first)
        #expect(abs(Double(frontier.attributes["data-fresh-at-4"] ?? "")! - (evaluation["freshAt4"] as! Double)) < 1e-3)
        // The reliability chart: each group of wakes at its forecast per wake, against what it
        // served per wake, as evaluate's figures of the run at the budget say (issue 25: it drew
        // each group's sum of forecasts, so that every dot sat on the bottom edge).
        let reported = try #require(evaluation["reported"] as? [String: Any])
        let bins = try #require(reported["reliability"] as? [[String: Any]]).filter { ($0["wakes"] as? Int ?? 0) > 0 }
        let circles = reader.marks(in: "reliability").filter { $0.attributes["data-series"] == "groups" }
        #expect(!circles.isEmpty)
        #expect(circles.count == bins.count)
        for (circle, bin) in zip(circles, bins) {
            let wakes = Double(bin["wakes"] as! Int)
            let forecast = Double(circle.attributes["data-forecast"] ?? "")!
            #expect(abs(forecast - (bin["forecast"] as! Double) / wakes) < 1e-3)
            #expect(abs(Double(circle.attributes["data-served"] ?? "")! - Double(bin["served"] as! Int) / wakes) < 1e-3)
            #expect(forecast >= bin["lower"] as! Double - 1e-9)
            if let upper = bin["upper"] as? Double { #expect(forecast < upper + 1e-9) }
        }
        #expect(!reader.marks(in: "fresh").filter { $0.name == "rect" }.isEmpty)
    }

    /// A report with nothing planned says why, on the page and in its last line, and shows the
    /// device's own default interval.
    @Test func anEmptyReportSaysWhyAndTheDevicesDefault() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--time-zone", "Europe/Warsaw"])
        try Tool.run(["config", "--default-interval", "1800", "--device", "default", "--db", db])
        let out = Tool.scratch().appendingPathComponent("report.html").path
        let made = try Tool.run([
            "report", "--db", db, "--now", "2024-06-01T00:00:00Z", "--budget", "0.5", "--out", out,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("0 device wakes"), "\(made.stderr)")
        #expect(made.stderr.contains("--now 2024-01-28T20:19:56.987Z"), "\(made.stderr)")
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.contains("device default went silent, with no launch since 2024-01-28 21:19"))
        #expect(page.contains("default interval 1800"))
    }

    /// The freshness chart's days add up to what `fetchpredict freshness` counts of the same
    /// events, and it has a legend and both axes' titles; a device with no fetch result gets a
    /// sentence saying how to send them, not an empty chart.
    @Test func theFreshnessChartCountsWhatFreshnessCounts() throws {
        let db = try commuterStore()
        let now = "2024-01-29T06:00:00Z"
        let out = Tool.scratch().appendingPathComponent("report.html").path
        #expect(try Tool.run(["report", "--db", db, "--now", now, "--out", out]).status == 0)
        let reader = try Reader.read(out)
        #expect(reader.charts("freshness").count == 1)
        let marks = reader.marks(in: "freshness")
        let observed = marks.filter { $0.name == "circle" && $0.attributes["data-series"] == "observed" }
        let counted = try #require(
            try json(try Tool.run(["freshness", "--db", db, "--to", now, "--json"]).stdout) as? [String: Any])
        let total = try #require(counted["observed"] as? [String: Any])
        func sum(_ key: String) -> Int {
            observed.compactMap { Double($0.attributes[key] ?? "") }.map { Int($0) }.reduce(0, +)
        }
        #expect(observed.count > 20)
        #expect(sum("data-cold") == total["coldLaunches"] as? Int)
        #expect(sum("data-fresh") == total["freshColdLaunches"] as? Int)
        for series in ["periodic-30", "periodic-60", "periodic-120"] {
            #expect(marks.contains { $0.name == "polyline" && $0.attributes["data-series"] == series })
        }
        let titles = marks.filter { $0.name == "text" && $0.attributes["class"] == "title" }.map(\.text)
        #expect(titles.contains { $0.hasPrefix("day") } && titles.contains("cold launches fresh"))
        #expect(marks.filter { $0.name == "text" && $0.attributes["class"] == "legend" }.count == 4)

        let launches = Tool.scratch().appendingPathComponent("launches.csv")
        try "timestamp,app,event\n2024-01-02T08:00:00Z,mail,launch\n".write(
            to: launches, atomically: true, encoding: .utf8)
        let bare = Tool.scratch().appendingPathComponent("bare.sqlite").path
        try Tool.run(["import", launches.path, "--db", bare, "--time-zone", "UTC"])
        #expect(try Tool.run(["report", "--db", bare, "--now", now, "--out", out]).status == 0)
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.contains("No fetch result is stored for this device yet"))
        #expect(try Reader.read(out).charts("freshness").isEmpty)
    }

    /// A device that told its state gets a section with it and its chances by hour, the same as
    /// `state --json` gives; one that told none gets no such section.
    @Test func theDeviceStateIsChartedAsStateSaysIt() throws {
        let db = try commuterStore()
        let plain = Tool.scratch().appendingPathComponent("plain.html").path
        try Tool.run(["report", "--db", db, "--now", "2024-01-29T06:00:00Z", "--out", plain])
        #expect(try Reader.read(plain).charts("state-on-power").isEmpty)
        var rows = ["timestamp,app,event,value"]
        for day in 1...27 {
            let date = String(format: "2024-01-%02d", day)
            rows += ["\(date)T06:30:00Z,,powerDisconnected,", "\(date)T21:30:00Z,,powerConnected,"]
        }
        let file = Tool.scratch().appendingPathComponent("state.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        try Tool.run(["import", file.path, "--db", db])
        let out = Tool.scratch().appendingPathComponent("report.html").path
        let made = try Tool.run(["report", "--db", db, "--now", "2024-01-29T06:00:00Z", "--out", out])
        #expect(made.status == 0, "\(made.stderr)")
        let reader = try Reader.read(out)
        let state = try #require(
            try json(Tool.run(["state", "--db", db, "--now", "2024-01-29T06:00:00Z", "--json"]).stdout)
                as? [String: Any])
        let weekday = try #require((state["weekday"] as? [String: Any])?["onPower"] as? [Any])
        let line = try #require(reader.marks(in: "state-on-power").first { $0.attributes["data-days"] == "weekday" })
        let values = try #require(line.attributes["data-values"]).split(separator: " ")
        #expect(values.count == 24)
        for hour in 0..<24 {
            let known = weekday[(hour * 12)..<((hour + 1) * 12)].compactMap { $0 as? Double }
            let expected = known.isEmpty ? nil : known.reduce(0, +) / Double(known.count)
            #expect(
                values[hour] == "-" ? expected == nil : abs(Double(values[hour])! - expected!) < 0.00005 + 1e-9,
                "\(hour)")
        }
        // Europe/Warsaw: on power from 22:30 to 07:30 local, off at noon.
        #expect(Double(values[3]) == 1 && Double(values[12]) == 0)
        #expect(reader.elements.contains { $0.name == "section" && $0.attributes["id"] == "state" })
        // The plan and the evaluation come first, the table of every app's counts last (issue 56:
        // a real log's 77-row table came before the plan).
        let evaluated = Tool.scratch().appendingPathComponent("evaluated.html").path
        try Tool.run(["report", "--db", db, "--now", "2024-01-29T06:00:00Z", "--evaluate", "--out", evaluated])
        let order = try Reader.read(evaluated).elements.filter { $0.name == "section" }.compactMap {
            $0.attributes["id"]
        }
        #expect(order == ["device", "timeline", "evaluation", "freshness", "state", "apps", "counts"], "\(order)")
    }

    /// The commuter's report as of 2024-01-29 06:00Z, with its evaluation, read back.
    func commuterReport(_ db: String, now: String = "2024-01-29T06:00:00Z") throws -> Reader {
        let out = Tool.scratch().appendingPathComponent("report.html").path
        let made = try Tool.run(["report", "--db", db, "--now", now, "--out", out, "--evaluate"])
        #expect(made.status == 0, "\(made.stderr)")
        return try Reader.read(out)
    }

    /// Under the planned wakes, the page says what `schedule` says under them: each wake assumes
    /// no launch before it, so later hours plan fewer wakes (issue 39, point 10).
    @Test func thePageSaysThatLaterHoursPlanFewerWakes() throws {
        let reader = try commuterReport(try commuterStore())
        #expect(!reader.marks(in: "timeline").filter { $0.name == "circle" }.isEmpty)
        let said = reader.elements.filter { $0.name == "p" && $0.attributes["id"] == "later-hours" }
        #expect(said.map(\.text) == [WakeText.laterHours])
    }

    /// The timeline has a tick at each local whole hour, labelled in local time every three
    /// hours, from a `--now` between two: in India, half an hour off UTC, at UTC's half hours;
    /// in Warsaw on the night the clocks go forward, an hour apart across the change (issue 39,
    /// point 10: its marks were every 3 hours from now, at 11:40, 14:40, ...).
    @Test(arguments: ["Asia/Kolkata", "Europe/Warsaw"])
    func theTimelineTicksEachLocalWholeHour(zoneName: String) throws {
        // 24 hours from 11:40 local: 12:00 (06:30Z) to 11:00 the next day; from 00:20 on
        // 2024-03-31: 01:00 (00:00Z), then 03:00 summer time, to 01:00 the next day.
        let (now, first, firstLabel) =
            zoneName == "Asia/Kolkata"
            ? ("2024-01-29T06:10:00Z", "2024-01-29T06:30:00Z", "12:00")
            : ("2024-03-30T23:20:00Z", "2024-03-31T00:00:00Z", "03:00")
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--time-zone", zoneName])
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        let out = Tool.scratch().appendingPathComponent("report.html").path
        let made = try Tool.run(["report", "--db", db, "--now", now, "--out", out])
        #expect(made.status == 0, "\(made.stderr)")
        let reader = try Reader.read(out)
        let zone = try #require(TimeZone(identifier: zoneName))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let iso = ISO8601DateFormatter()
        let marks = reader.marks(in: "timeline").filter { $0.attributes["data-axis"] == "x" }
        let ticks = marks.filter { $0.name == "line" }
        let times = try ticks.map { try #require(iso.date(from: $0.attributes["data-value"] ?? "")) }
        #expect(times.count == 24)
        #expect(times.first == iso.date(from: first))
        for time in times {
            let parts = calendar.dateComponents([.minute, .second], from: time)
            #expect(parts.minute == 0 && parts.second == 0, "\(time)")
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 3600 })
        let xs = ticks.compactMap { Double($0.attributes["x1"] ?? "") }
        let steps = zip(xs, xs.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - steps[0]) <= 0.15 && $0 > 0 }, "\(steps)")
        // Labels: local HH:00 at the hours divisible by 3, each under its tick.
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm"
        let labels = marks.filter { $0.name == "text" }
        let expected = times.filter { calendar.component(.hour, from: $0) % HTMLReport.timelineLabelEvery == 0 }
        #expect(labels.map(\.text) == expected.map { formatter.string(from: $0) })
        #expect(labels.map(\.text).first == firstLabel)
        for label in labels {
            let tick = try #require(ticks.first { $0.attributes["data-value"] == label.attributes["data-value"] })
            #expect(label.attributes["x"] == tick.attributes["x1"])
        }
    }

    /// The frontier, the forecast (reliability) and the fresh-launch charts each have a legend
    /// naming every series they draw, and scales: ticks on their axes with labelled values
    /// (issue 39, point 10).
    @Test func evaluationChartsHaveLegendsAndScales() throws {
        let reader = try commuterReport(try commuterStore())
        for kind in ["frontier", "reliability", "fresh"] {
            let marks = reader.marks(in: kind)
            let drawn = Set(marks.compactMap { $0.attributes["data-series"] })
            let legend = marks.filter { $0.attributes["data-legend"] != nil }
            #expect(!drawn.isEmpty, "\(kind)")
            #expect(Set(legend.compactMap { $0.attributes["data-legend"] }) == drawn, "\(kind)")
            #expect(legend.allSatisfy { $0.name == "text" && !$0.text.isEmpty }, "\(kind)")
            // Every tick has its value written beside it.
            for axis in ["x", "y"] {
                let ticks = marks.filter { $0.name == "line" && $0.attributes["data-axis"] == axis }
                let labels = marks.filter { $0.name == "text" && $0.attributes["data-axis"] == axis }
                #expect(ticks.map { $0.attributes["data-value"] } == labels.map { $0.attributes["data-value"] })
                #expect(labels.allSatisfy { !$0.text.isEmpty }, "\(kind) \(axis)")
            }
        }
        func labels(_ kind: String, _ axis: String) -> [String] {
            reader.marks(in: kind).filter { $0.name == "text" && $0.attributes["data-axis"] == axis }.map(\.text)
        }
        func legend(_ kind: String, _ series: String) -> String {
            reader.marks(in: kind).first { $0.attributes["data-legend"] == series }?.text ?? ""
        }
        #expect(legend("frontier", "predictor").contains("predictor"))
        #expect(legend("frontier", "periodic").contains("periodic"))
        #expect(legend("frontier", "oracle").contains("oracle"))
        #expect(labels("frontier", "y") == ["0%", "25%", "50%", "75%", "100%"])
        let wakes = labels("frontier", "x")
        #expect(Array(wakes.prefix(3)) == ["0", "2", "4"])
        #expect(wakes.last?.hasSuffix(" or more") == true)
        #expect(labels("fresh", "x") == ["0%", "25%", "50%", "75%", "100%"])
        #expect(labels("fresh", "y").isEmpty)
        // The forecast chart: like round scales on both axes, from 0 past every group drawn.
        let scale = labels("reliability", "x").compactMap(Double.init)
        #expect(scale.count >= 3 && scale.first == 0)
        #expect(labels("reliability", "y") == labels("reliability", "x"))
        let groups = reader.marks(in: "reliability").filter { $0.attributes["data-series"] == "groups" }
        for group in groups {
            let forecast = Double(group.attributes["data-forecast"] ?? "") ?? .infinity
            let served = Double(group.attributes["data-served"] ?? "") ?? .infinity
            #expect(max(forecast, served) <= scale.last ?? 0)
        }
    }

    /// An app opened fewer than ``HTMLReport/coldLaunchesForACard`` times gets no card: one line
    /// names it with its count, and says the threshold (issue 39, point 10).
    /// Every text reaches the page escaped: an app and a device named with markup, quotes and
    /// ampersands are read back from the page as they were named, in every place they are shown
    /// (headings, cards, the timeline, tables, charts' labels and data), and no element of theirs
    /// is on the page.
    @Test func namesWithMarkupReachThePageAsText() throws {
        let app = "chat<script>alert(\"x&y\")</script>'"
        let device = "phone <b>\"&'"
        let fixture = try String(contentsOfFile: Tool.fixture("commuter-28d.csv"), encoding: .utf8)
        let csvField = "\"" + app.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let file = Tool.scratch().appendingPathComponent("markup.csv")
        try fixture.replacingOccurrences(of: "com.example.chat", with: csvField)
            .write(to: file, atomically: true, encoding: .utf8)
        let db = Tool.scratch().appendingPathComponent("markup.sqlite").path
        try Tool.run(["import", file.path, "--db", db, "--device", device, "--time-zone", "Europe/Warsaw"])
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        let out = Tool.scratch().appendingPathComponent("markup.html").path
        let made = try Tool.run([
            "report", "--db", db, "--device", device, "--now", "2024-01-29T06:00:00Z", "--evaluate", "--out", out,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!page.contains("<script") && !page.contains("<b>"))
        let reader = try Reader.read(out)
        #expect(!reader.elements.contains { ["script", "b"].contains($0.name) })
        #expect(reader.elements.first { $0.name == "h1" }?.text == "FetchPredictor report: \(device)")
        #expect(reader.elements.first { $0.name == "title" }?.text == "FetchPredictor report: \(device)")
        #expect(reader.elements.contains { $0.name == "h2" && $0.text == "Device \(device)" })
        // The app's card, its row in the table, its lane and marks in the timeline, its bar in the
        // evaluation's chart of each app.
        #expect(reader.elements.contains { $0.name == "div" && $0.attributes["data-app"] == app })
        #expect(reader.elements.contains { $0.name == "h3" && $0.text == app })
        #expect(reader.elements.contains { $0.name == "td" && $0.text == app })
        #expect(reader.marks(in: "timeline").contains { $0.attributes["data-label"] == app })
        #expect(reader.marks(in: "timeline").contains { $0.name == "circle" && $0.attributes["data-app"] == app })
        #expect(reader.marks(in: "fresh").contains { $0.name == "rect" && $0.attributes["data-app"] == app })
        #expect(reader.charts("profile").contains { $0.text.isEmpty && $0.app == app })
        let titles = reader.elements.filter { $0.name == "title" && $0.chart == "profile" && $0.app == app }
        #expect(titles.contains { $0.text.hasPrefix("Expected cold launches a day in each half hour of \(app) (") })
    }

    @Test func rarelyOpenedAppsAreNamedOnOneLine() throws {
        let db = try commuterStore()
        let rare = "com.example.rarely.opened"
        for day in [20, 24] {
            try Tool.run(["record", "launch", rare, "--at", "2024-01-\(day)T08:00:00Z", "--db", db])
        }
        let reader = try commuterReport(db)
        let cards = reader.elements.filter { $0.name == "div" && $0.attributes["class"] == "app" }
        #expect(cards.count == 4)
        #expect(!cards.contains { $0.attributes["data-app"] == rare })
        #expect(!reader.elements.contains { $0.app == rare })
        let line = try #require(reader.elements.first { $0.attributes["id"] == "few-launches" })
        #expect(line.text.hasPrefix("1 app has fewer than \(HTMLReport.coldLaunchesForACard) cold launches"))
        let named = reader.elements.filter { $0.name == "span" && $0.attributes["class"] == "folded" }
        #expect(named.map(\.text) == [rare])
        #expect(line.text.contains("(2)"))
        // The device table still has its row.
        #expect(reader.elements.contains { $0.name == "td" && $0.text == rare })
    }

    /// The device table leaves out a count that is 0 for every app, and says so; the others stay
    /// (issue 39, point 10: the commuter has no notification, and its Notified column was all 0).
    @Test func theDeviceTableLeavesOutAllZeroColumns() throws {
        let db = try commuterStore()
        let reader = try commuterReport(db)
        let apps = try #require(
            try json(try Tool.run(["apps", "--db", db, "--now", "2024-01-29T06:00:00Z", "--json"]).stdout)
                as? [[String: Any]])
        let columns = [
            "Launches": "launches", "newData": "fetchesNewData", "noData": "fetchesNoData", "failed": "fetchesFailed",
            "Notified": "notifications",
        ]
        let headers = reader.elements.filter { $0.name == "th" }.map(\.text)
        let zero = columns.filter { _, key in apps.allSatisfy { ($0[key] as? Int) == 0 } }.map(\.key)
        #expect(zero == ["Notified"])
        for (header, _) in columns {
            #expect(headers.contains(header) == !zero.contains(header), "\(header)")
        }
        #expect(reader.elements.contains { $0.name == "p" && $0.text.contains("0 for every app: Notified.") })
    }

    /// fresh@4 and wakes@50 are said in sentences: what each figure is, with its value as
    /// `evaluate` gives it, and what the terms mean (issue 39, point 10).
    @Test func freshAt4AndWakesAt50AreSaidInWords() throws {
        let db = try commuterStore()
        let reader = try commuterReport(db)
        let evaluation = try #require(
            try json(try Tool.run(["evaluate", "--db", db, "--json"]).stdout) as? [String: Any])
        let freshAt4 = try #require(evaluation["freshAt4"] as? Double)
        let wakesAt50 = try #require(evaluation["wakesAt50"] as? Double)
        func paragraph(_ id: String) -> String {
            reader.elements.first { $0.name == "p" && $0.attributes["id"] == id }?.text ?? ""
        }
        let fresh = paragraph("fresh-at-4")
        #expect(fresh.hasPrefix(String(format: "fresh@4 is %.3f: ", freshAt4)), "\(fresh)")
        #expect(fresh.contains("4 wakes per app-day"))
        #expect(fresh.contains(String(format: "%.1f%% of the cold launches find fresh content", freshAt4 * 100)))
        let half = paragraph("wakes-at-50")
        #expect(half.hasPrefix(String(format: "wakes@50 is %.2f: ", wakesAt50)), "\(half)")
        #expect(half.contains("for half of the cold launches to find fresh content"))
        let terms = paragraph("figure-terms")
        #expect(terms.contains("A cold launch is a launch with no launch of the same app in the 30 minutes before it"))
        #expect(
            terms.contains("a fetch of the app that did not fail started between 30 minutes and 1 minute before it"))
        #expect(terms.contains("the apps with at least 20 cold launches in the log"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: Tool.dataset("README.md"))))
    func reportOfARealLog() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        let log = Tool.dataset("activitywatch-android-1/export.json")
        try Tool.run(["import", log, "--db", db, "--time-zone", "Europe/Warsaw"])
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        let now = "2022-01-08T17:00:00Z"
        let out = Tool.scratch().appendingPathComponent("report.html").path
        let made = try Tool.run(["report", "--db", db, "--now", now, "--out", out])
        #expect(made.status == 0, "\(made.stderr)")
        let reader = try Reader.read(out)
        let apps = try #require(
            try json(try Tool.run(["apps", "--db", db, "--now", now, "--json"]).stdout) as? [[String: Any]])
        let export = try Tool.run(["export", "--db", db, "--to", "2022-01-08T17:00:00.001Z"]).stdout
        let cold = Self.coldLaunches(csv: export, zone: TimeZone(identifier: "Europe/Warsaw")!)
        // An app with a card for each opened often enough; the others named on one line.
        let often = apps.compactMap { $0["app"] as? String }.filter {
            (cold[$0]?.reduce(0, +) ?? 0) >= HTMLReport.coldLaunchesForACard
        }
        #expect(reader.charts("histogram").compactMap(\.app) == often)
        let folded = reader.elements.filter { $0.name == "span" && $0.attributes["class"] == "folded" }
        #expect(folded.count + often.count == apps.count)
        for chart in reader.charts("histogram") {
            let app = try #require(chart.app)
            #expect(chart.attributes["data-counts"] == cold[app]?.map(String.init).joined(separator: " "), "\(app)")
        }
        #expect(!reader.marks(in: "timeline").isEmpty)
        try Self.expectNamesFit(reader)
        // The table names each app on its own row: no row repeats the apps it is coalesced with.
        let cells = reader.elements.filter { $0.name == "td" }
        #expect(!cells.isEmpty)
        #expect(!cells.contains { $0.text.contains("coalesced with") })
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? 0
        #expect(size < 2_000_000)
    }

    /// Every app's name at the left of a chart fits left of its plot, whole or cut in the middle
    /// with the whole in its tooltip; returns the names.
    @discardableResult
    static func expectNamesFit(_ reader: Reader) throws -> [String] {
        let labels = reader.elements.filter { $0.name == "text" && $0.attributes["data-label"] != nil }
        #expect(!labels.isEmpty)
        for label in labels {
            let x = try #require(Double(label.attributes["x"] ?? ""))
            #expect(Double(label.text.count) * 6.5 <= x, "\(label.text) at \(x)")
            let whole = try #require(label.attributes["data-label"])
            #expect(label.text == whole || label.text.contains("…"), "\(label.text) for \(whole)")
        }
        return labels.map(\.text)
    }

    /// A long package name fits left of the timeline and of the fresh chart (issue 25: a lane's
    /// label was clipped at the page's edge, the margin being 200 pixels whatever the names).
    @Test func longAppNamesFitLeftOfTheirCharts() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        try Tool.run([
            "import", Tool.fixture("commuter-28d.csv"), "--db", db, "--device", "phone", "--time-zone", "Europe/Warsaw",
        ])
        let long = "org.example.application.with.a.long.identifier"
        for day in 22...28 {
            try Tool.run([
                "record", "launch", long, "--at", "2024-01-\(day)T08:00:00Z", "--device", "phone", "--db", db,
            ])
        }
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        let out = Tool.scratch().appendingPathComponent("report.html").path
        let made = try Tool.run([
            "report", "--db", db, "--device", "phone", "--now", "2024-01-29T06:00:00Z", "--out", out, "--evaluate",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let reader = try Reader.read(out)
        #expect(reader.marks(in: "timeline").contains { $0.attributes["data-app"] == long })
        let shown = try Self.expectNamesFit(reader)
        #expect(shown.contains(long))
    }

    @Test func evaluateWritesItsReport() throws {
        let out = Tool.scratch().appendingPathComponent("evaluation.html").path
        let result = try Tool.run([
            "evaluate", Tool.fixture("commuter-28d.csv"), "--time-zone", "Europe/Warsaw", "--report", out,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try Reader.read(out)
        #expect(reader.charts("frontier").count == 1)
        #expect(reader.charts("fresh").count == 1)
    }
}

extension ReportTests {
    /// What the page's one renderer writes of a text, in an element and in an attribute.
    @Test func textThatXMLCannotHoldIsReplaced() {
        let escaped = Node.text("a\u{FFFE}b<&>\"'\u{1}c").render()
        #expect(escaped == "a\u{FFFD}b&lt;&amp;&gt;&quot;&#39;\u{FFFD}c")
        #expect(
            Node("text", ["data-label": "a\u{FFFE}b<&>\"'\u{1}c"]).render() == "<text data-label=\"\(escaped)\"></text>"
        )
        #expect(Node.text("plain text, été").render() == "plain text, été")
    }
}
