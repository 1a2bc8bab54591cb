import Testing

@testable import FetchPredictorImport

struct SHA256Tests {
    @Test func sha256MatchesTheStandard() {
        var empty = SHA256()
        #expect(empty.finalizeHex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var abc = SHA256()
        abc.update(Array("abc".utf8))
        #expect(abc.finalizeHex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var long = SHA256()
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        for start in stride(from: 0, to: million.count, by: 777) {
            long.update(Array(million[start..<min(start + 777, million.count)]))
        }
        #expect(long.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
