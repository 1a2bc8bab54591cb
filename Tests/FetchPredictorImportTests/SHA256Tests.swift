import Testing

@testable import FetchPredictorImport

struct SHA256Tests {
    /// RFC 4231's test cases 2 (a short key) and 6 (a key longer than a block).
    @Test func hmacMatchesTheStandard() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(
            hex(Digest.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            hex(
                Digest.hmacSHA256(
                    key: [UInt8](repeating: 0xaa, count: 131),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

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
