import Testing

extension Trait where Self == TimeLimitTrait {
    /// The limit of a test that catches a hang (a lock or a reader never given back), not
    /// slowness. Beside the suite's synchronous tests, each holding one of the cooperative pool's
    /// threads (2 on 2 cores) while it waits for a process or a synchronous read, such a test may
    /// not run for minutes: one took 467 s in a full `swift test` and 0.06 s alone (issue 56, point
    /// 7), so a minute's limit failed a sound product.
    static var hangLimit: Self { .timeLimit(.minutes(20)) }
}
