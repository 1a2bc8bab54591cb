import ArgumentParser
import FetchPredictor
import Foundation

struct StateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Show what the device's state events say: power, network, battery, Low Power Mode.",
        discussion: """
            The state as the last events up to --now left it, and how often the device was on \
            external power and on an unmetered network at each hour of the day, weekdays and \
            weekends apart, from the spans between its events (each span is the state of the \
            event that began it; a span longer than two days counts only its first two). The \
            JSON has the chances by five minutes, null where the state was never known.

            Example:
              fetchpredict record state powerConnected --device phone
              fetchpredict state --device phone --json
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var clock: ClockOptions

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        try await KnownNames.requireDevice(store.device, in: eventStore)
        let zone = try await store.zone(in: eventStore)
        let now = try clock.currentDate(in: zone)
        let summary = try await FetchScheduler(command: eventStore).stateSummary(device: store.device, now: now)
        try output.print(summary) { StateText.describe($0, zone: zone) }
    }
}

/// The text of `state`.
enum StateText {
    static func describe(_ state: DeviceStateSummary, zone: TimeZone) -> String {
        guard !state.isEmpty else {
            return "Device \(state.device) has told no state as of \(Output.local(state.now, zone)): record it "
                + "(fetchpredict record state), send it to the service, or import a log with power, battery, "
                + "network or Low Power Mode events."
        }
        var lines = ["Device \(state.device) as of \(Output.local(state.now, zone)) (\(TimeZoneName.name(of: zone))):"]
        if let mode = state.lowPowerMode {
            lines.append(
                "  Low Power Mode  \(mode.isOn ? "on" : "off") since \(Output.local(mode.since, zone))"
                    + (mode.isOn ? ": no app is woken until it is turned off" : ""))
        }
        if let power = state.power {
            lines.append("  power           \(power.isOn ? "on" : "off") since \(Output.local(power.since, zone))")
        }
        if let network = state.network {
            lines.append("  network         \(network.state.rawValue) since \(Output.local(network.since, zone))")
        }
        if let battery = state.battery {
            lines.append("  battery         \(battery.percent)% at \(Output.local(battery.at, zone))")
        }
        let days = [state.weekday, state.weekend].map { max($0.powerDays, $0.networkDays) }
        guard days.contains(where: { $0 > 0 }) else {
            lines.append("No span between two events of one kind yet: the chances by hour need at least two.")
            return lines.joined(separator: "\n")
        }
        lines.append(
            "On power and on an unmetered network by hour, from up to \(whole(days[0])) weekdays and "
                + "\(whole(days[1])) weekend days (- where never known):")
        lines.append("  HOUR  WEEKDAY POWER  UNMETERED  WEEKEND POWER  UNMETERED")
        for hour in 0..<24 {
            let cells = [
                state.weekday.onPower, state.weekday.unmetered, state.weekend.onPower, state.weekend.unmetered,
            ].map { percent(hourly($0, hour: hour)) }
            lines.append(
                "  " + String(format: "%02d", hour) + "    " + pad(cells[0], 13) + "  " + pad(cells[1], 9) + "  "
                    + pad(cells[2], 13) + "  " + cells[3])
        }
        return lines.joined(separator: "\n")
    }

    /// The mean of an hour's known bins; `nil` when none is known.
    static func hourly(_ chances: [Double?], hour: Int) -> Double? {
        let perHour = 60 / StateHabits.binMinutes
        let known = chances[(hour * perHour)..<((hour + 1) * perHour)].compactMap { $0 }
        return known.isEmpty ? nil : known.reduce(0, +) / Double(known.count)
    }

    static func percent(_ value: Double?) -> String {
        value.map { "\(Int(($0 * 100).rounded()))%" } ?? "-"
    }

    static func whole(_ days: Double) -> String { String(Int(days.rounded(.down))) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
