/// Which days a profile describes.
public enum DayKind: String, Sendable, Hashable, Codable {
    case all, weekday, weekend
}
