import ArgumentParser
import FetchPredictor

/// The output option of every command that prints a result: text for people, or JSON.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print the result as JSON.")
    var json = false

    /// Prints `value` as JSON, or the text that `text` makes of it.
    func print<T: Encodable>(_ value: T, text: (T) throws -> String) throws {
        Swift.print(json ? try Output.json(value) : try text(value))
    }
}
