import Foundation

extension DateFields {
    /// The instant of this wall-clock time in `zone`, and how it was resolved.
    ///
    /// Times in a daylight-saving gap or overlap are resolved as described in
    /// ``LocalTimeResolution``, never refused: a phone's log does hold them.
    public func instant(in zone: TimeZone) -> (Milliseconds, LocalTimeResolution) {
        let local = millisecondsAsIfUTC
        func offset(at instant: Milliseconds) -> Milliseconds {
            .seconds(zone.secondsFromGMT(for: Date(milliseconds: instant)))
        }
        let day = Milliseconds.perDay
        let candidates = Set([offset(at: local - day), offset(at: local + day), offset(at: local)])
        let valid = candidates.map { local - $0 }.filter { offset(at: $0) == local - $0 }.sorted()
        if valid.count == 1 { return (valid[0], .exact) }
        if let first = valid.first { return (first, .repeated) }
        // In a gap: read with the smaller (earlier) offset.
        return (local - candidates.min()!, .skipped)
    }
}
