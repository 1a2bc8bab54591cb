import FetchPredictorCore
import Foundation

/// What a pseudo-row of an App Usage export stands for, by its label: App Usage writes the
/// screen, the device and notifications as rows named in the phone's language.
///
/// FetchPredictor knows the labels of English, Polish and French phones;
/// ``ImportOptions/rowLabels`` adds others.
public enum RowLabel: String, Sendable, Hashable, Codable, CaseIterable {
    /// The screen was turned on, locked.
    case screenOn
    /// The screen was turned off.
    case screenOff
    /// The screen was turned on and unlocked.
    case unlock
    /// The phone started: ends a run, stores nothing.
    case boot
    /// The phone shut down: ends a run, stores nothing.
    case shutdown
    /// `LABEL (App)`: the app posted a notification.
    case notification

    /// The device event it stores, `nil` for one that only ends a run or for a notification.
    var deviceEvent: EventKind? {
        switch self {
        case .screenOn: .screenOn
        case .screenOff: .screenOff
        case .unlock: .unlock
        case .boot, .shutdown, .notification: nil
        }
    }

    /// Reads `LABEL=KIND`, as the command line takes a label.
    ///
    /// - Returns: the label and what it stands for, or `nil` when the text is not of that form.
    public static func parse(assignment text: String) -> (label: String, meaning: RowLabel)? {
        guard let equals = text.lastIndex(of: "=") else { return nil }
        let label = text[..<equals].trimmingCharacters(in: .whitespaces)
        guard !label.isEmpty, let meaning = RowLabel(rawValue: String(text[text.index(after: equals)...])) else {
            return nil
        }
        return (label, meaning)
    }
}
