/// The rows of a CSV file under a header, as the csv formats read them: the header gives the
/// columns (or the file is refused, saying what header the format needs); blank lines are
/// skipped; a row that does not split, or has fewer fields than the header, is refused.
enum CSVTable {
    /// Reads a source's header and hands each valid row, split, to `row` with its line number.
    ///
    /// - Parameters:
    ///   - header: the columns of a header line, or why it is not the format's header.
    ///   - needs: the end of the refusal's sentence: what header the format needs.
    ///   - columnCount: how many fields the header has.
    /// - Throws: ``ImportError/malformed(file:line:reason:)`` for a header that does not fit,
    ///   ``ImportError/empty(file:)`` when there is no header; whatever `row` throws.
    static func read<Columns>(
        _ source: any ByteSource, into sink: ImportSink,
        header: (UnsafeBufferPointer<UInt8>) -> Result<Columns, ImportError.HeaderProblem>, needs: String,
        columnCount: (Columns) -> Int, row: (CSVLine, Columns, Int) throws -> Void
    ) throws {
        var columns: Columns?
        var fields = CSVLine()
        try LineSplitter(source).forEachLine { line, number in
            guard let found = columns else {
                switch header(line) {
                case .success(let read): columns = read
                case .failure(let problem):
                    throw ImportError.malformed(file: source.name, line: number, reason: "\(problem.reason); \(needs)")
                }
                return true
            }
            if line.isEmpty { return true }
            sink.countRow()
            if let problem = fields.split(line) {
                sink.reject(line: number, field: "(row)", reason: problem)
                return true
            }
            let expected = columnCount(found)
            guard fields.count >= expected else {
                sink.reject(
                    line: number, field: "(row)",
                    reason: "the row has \(fields.count) fields where the header has \(expected)")
                return true
            }
            try row(fields, found, number)
            return true
        }
        if columns == nil { throw ImportError.empty(file: source.name) }
    }
}

extension CSVTable {
    /// The names of a header line, lower-cased, or why it does not split: what each csv
    /// format's header reading starts from.
    static func names(ofHeader line: UnsafeBufferPointer<UInt8>) -> Result<[String], ImportError.HeaderProblem> {
        var fields = CSVLine()
        if let problem = fields.split(line) { return .failure(.init(reason: problem)) }
        return .success((0..<fields.count).map { fields.string($0).lowercased() })
    }

    /// Why a header lacks some of its format's required columns (each named, with the index
    /// found for it, -1 when none), or `nil` when it has them all.
    static func missing(_ required: [(name: String, index: Int)]) -> ImportError.HeaderProblem? {
        let missing = required.filter { $0.index < 0 }.map { "'\($0.name)'" }
        guard !missing.isEmpty else { return nil }
        return .init(reason: "the header has no \(missing.joined(separator: ", ")) column")
    }
}
