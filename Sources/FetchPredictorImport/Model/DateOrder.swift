/// How the day and the month are ordered in a numeric date such as `05/06/23`.
public enum DateOrder: String, Sendable, Codable, CaseIterable {
    /// Day, month, year: `31/12/23`.
    case dmy
    /// Month, day, year: `12/31/23`.
    case mdy
}
