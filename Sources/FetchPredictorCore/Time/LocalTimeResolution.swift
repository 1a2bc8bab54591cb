/// How a wall-clock time was turned into an instant.
public enum LocalTimeResolution: Sendable, Hashable {
    /// The time exists once: the usual case.
    case exact
    /// The time does not exist (it falls in the hour skipped when clocks go forward); it was read
    /// with the offset before the change, which lands the same distance after it.
    case skipped
    /// The time exists twice (the hour repeated when clocks go back); the first was taken.
    case repeated
}
