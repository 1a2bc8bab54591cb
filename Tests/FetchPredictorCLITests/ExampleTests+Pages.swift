import Foundation
import Testing

/// The README is a front page and the rest is in pages under docs/: the examples read them in the
/// order of the README's table of contents, every link between them leads to a file, and the
/// README's short tastes are lines of the examples that run in full.
extension ExampleTests {
    /// The section of a page under a `## ` heading, to the next `## ` heading.
    static func section(_ heading: String, of page: String) throws -> String {
        let parts = try text(of: page).components(separatedBy: "\n## \(heading)\n")
        try #require(parts.count == 2, "\(page) has no section '## \(heading)'")
        return parts[1].components(separatedBy: "\n## ")[0]
    }

    /// A page's text without its fenced blocks.
    static func unfenced(_ text: String) -> String {
        var kept: [Substring] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if !fenced { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    /// A page's text without its fenced blocks and code spans, where a `](` is not a link.
    static func prose(_ text: String) -> String {
        unfenced(text).replacing(#/`[^`\n]*`/#, with: "")
    }

    /// The anchor GitHub gives a heading: lower case, letters, digits, `-` and `_`, spaces as `-`.
    static func anchor(_ heading: some StringProtocol) -> String {
        String(
            heading.lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                .map { $0 == " " ? "-" : $0 })
    }

    /// The anchors of a page's headings.
    static func anchors(of file: URL) throws -> Set<String> {
        let text = unfenced(try String(contentsOf: file, encoding: .utf8))
        return Set(
            text.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
            })
    }

    /// The Documentation table of the README lists the pages the examples read, in their order,
    /// and every page under docs/.
    @Test func theTableOfContentsListsThePagesInTheOrderTheExamplesRun() throws {
        let table = try Self.section("Documentation", of: "README.md")
        let listed = table.matches(of: #/\]\((docs/[^)#]+\.md)\)/#).map { String($0.output.1) }
        #expect(["README.md"] + listed == Self.pages)
        let folder = Tool.root.appendingPathComponent("docs")
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
        #expect(Set(onDisk.map { "docs/" + $0 }) == Set(listed), "a page under docs/ is not in the README's table")
    }

    /// Every relative link of the README and of the pages under docs/ leads to a file that exists,
    /// read from the page's own folder, and to a heading of it when it names one.
    @Test func everyRelativeLinkLeadsToAFile() throws {
        let folder = Tool.root.appendingPathComponent("docs")
        let pages =
            ["README.md"]
            + (try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
                .map { "docs/" + $0 })
        var broken: [String] = []
        var links = 0
        for page in pages {
            let base = Tool.root.appendingPathComponent(page).deletingLastPathComponent()
            for match in Self.prose(try Self.text(of: page)).matches(of: #/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/#) {
                let target = String(match.output.1)
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                links += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file =
                    parts[0].isEmpty
                    ? Tool.root.appendingPathComponent(page) : base.appendingPathComponent(String(parts[0]))
                guard FileManager.default.fileExists(atPath: file.standardizedFileURL.path) else {
                    broken.append("\(page): \(target): no such file")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md",
                    !(try Self.anchors(of: file)).contains(String(parts[1]))
                {
                    broken.append("\(page): \(target): no such heading")
                }
            }
        }
        #expect(links > 20)
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    /// The README's taste of each use is lines of the pages' examples, which run (`sh`, and
    /// `python` in the Python client's tests) or build (`swift`) in full there: a taste that no
    /// longer works fails here.
    @Test func theReadmesTastesAreLinesOfExamplesThatRun() throws {
        var tested: Set<String> = []
        for page in Self.pages.dropFirst() {
            for block in try Self.blocks("sh", of: page) + Self.blocks("swift", of: page)
                + Self.blocks("python", of: page)
            {
                tested.formUnion(block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
            }
        }
        let tastes = try Self.section("A taste of each use", of: "README.md").components(separatedBy: "```")
        // The odd parts are the fenced blocks, each after its language.
        // The Swift block is a program of its own, built and run whole (ReadmeExampleTests).
        let lines = stride(from: 1, to: tastes.count, by: 2).filter { !tastes[$0].hasPrefix("swift\n") }.flatMap {
            tastes[$0].split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        }
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("//") }
        #expect(lines.count >= 10)
        for line in lines { #expect(tested.contains(line), "not a line of a tested example: \(line)") }
    }
}
