/// Tells an import's format from the start of the file.
enum FormatDetector {
    /// How many bytes of the file detection reads.
    static let sniffLength = 64 * 1024

    /// The one format the start of the file fits.
    ///
    /// - Throws: ``ImportError/empty(file:)``, ``ImportError/notText(file:line:)``, or, when
    ///   no format fits or more than one does, an error that names the formats tried.
    static func detect(_ path: String) throws -> ImportFormat {
        let file = try FileReader(path: path, chunkSize: sniffLength)
        guard let chunk = try file.nextChunk(), !chunk.isEmpty else { throw ImportError.empty(file: path) }
        // An SQLite database: knowledgeC.db, whose ZOBJECT table the parser checks.
        if chunk.count >= KnowledgeCParser.header.count,
            chunk.prefix(KnowledgeCParser.header.count).elementsEqual(KnowledgeCParser.header)
        {
            return .knowledgeC
        }
        var start = 0
        if chunk.count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF { start = 3 }
        while start < chunk.count, [9, 10, 13, 32].contains(chunk[start]) { start += 1 }
        guard start < chunk.count else { throw ImportError.empty(file: path) }
        if let zero = chunk.firstIndex(of: 0) {
            let line = chunk[..<zero].reduce(1) { $1 == 10 ? $0 + 1 : $0 }
            throw ImportError.notText(file: path, line: line)
        }
        let body = UnsafeBufferPointer(rebasing: chunk[start...])
        let lineEnd = body.firstIndex(of: 10) ?? body.count
        var firstLine = UnsafeBufferPointer(rebasing: body[..<lineEnd])
        if firstLine.last == 13 { firstLine = UnsafeBufferPointer(rebasing: firstLine[..<(firstLine.count - 1)]) }

        var fits: [ImportFormat] = []
        var tried: [String] = []
        switch CSVEventParser.columns(ofHeader: firstLine) {
        case .success: fits.append(.csv)
        case .failure(let problem): tried.append("csv (\(problem.reason))")
        }
        if body.first == UInt8(ascii: "{"), lineEnd < body.count || body.count < sniffLength,
            case .success(let object) = JSONLinesParser.object(firstLine),
            object["app"] != nil || object["event"] != nil
        {
            fits.append(.jsonl)
        } else {
            tried.append("jsonl (the first line is not a JSON object with app and event)")
        }
        if body.first == UInt8(ascii: "{"), contains(body, "\"buckets\"") {
            fits.append(.activitywatch)
        } else {
            tried.append("activitywatch (no \"buckets\" object at the start)")
        }
        switch AppUsageParser.columns(ofHeader: firstLine) {
        case .success: fits.append(.appUsage)
        case .failure(let problem): tried.append("app-usage (\(problem.reason))")
        }
        switch ActivityWatchCSVParser.columns(ofHeader: firstLine) {
        case .success: fits.append(.activitywatchCSV)
        case .failure(let problem): tried.append("activitywatch-csv (\(problem.reason))")
        }
        let text = String(decoding: body, as: UTF8.self)
        if text.split(separator: "\n").contains(where: UsageStatsDumpParser.isEventLine) {
            fits.append(.usageStatsDump)
        } else {
            tried.append("dumpsys (no line of the form time=\"...\" type=...)")
        }
        tried.append("knowledgec (not an SQLite database)")
        switch fits.count {
        case 1: return fits[0]
        case 0: throw ImportError.unknownFormat(file: path, tried: tried)
        default: throw ImportError.ambiguousFormat(file: path, candidates: fits)
        }
    }

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return false }
        for start in 0...(bytes.count - pattern.count)
        where bytes[start] == pattern[0] && bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return true
        }
        return false
    }
}
