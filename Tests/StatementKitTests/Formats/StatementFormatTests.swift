import Testing

@testable import StatementKit

struct StatementFormatTests {
    @Test(
        arguments: [
            ("a.json", "date,amount\n", StatementFormat.json),
            ("a.JSON", "", .json),
            ("a.csv", "date,account_iban\n", .csv),
            ("export.txt", "\u{FEFF} \n [{\"account\": {}}]", .json),
            ("a.csv", "{\"account\": {}}", .json),
            ("a.csv", "", .csv),
        ] as [(String, String, StatementFormat)])
    func `tells JSON from CSV by name and first character`(
        path: String, head: String, format: StatementFormat
    ) {
        #expect(StatementFormat(path: path, head: Array(head.utf8)) == format)
    }

    @Test func `reads a JSON statement whatever its file is called`() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "statement.csv",
            #"{"account": {"iban": "DE89370400440532013000"}, "transactions": [{"date": "2026-10-01", "amount": "-1.00", "beneficiary": "A"}]}"#
        )
        var collector = DiagnosticCollector(file: path)
        var rows = 0
        let summary = StatementFileReader.read(path: path, diagnostics: &collector) { _ in rows += 1
        }
        #expect(collector.diagnostics.isEmpty)
        #expect((summary.rowCount, rows) == (1, 1))
    }

    static func utf16(_ text: String, bigEndian: Bool, bom: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            bytes += bigEndian ? pair : pair.reversed()
        }
        return bytes
    }

    @Test(arguments: [false, true])
    func `tells camt and OFX in UTF-16 from CSV`(bigEndian: Bool) {
        let camt = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><Document xmlns=\"camt.053\">"
        #expect(
            StatementFormat(path: "a.xml", head: Self.utf16(camt, bigEndian: bigEndian)) == .camt)
        #expect(
            StatementFormat(path: "a.xml", head: Self.utf16(camt, bigEndian: bigEndian, bom: false))
                == .camt)
        #expect(
            StatementFormat(
                path: "a.ofx", head: Self.utf16("OFXHEADER:100\n", bigEndian: bigEndian))
                == .ofx)
        #expect(
            StatementFormat(path: "a.csv", head: Self.utf16("date,amount\n", bigEndian: bigEndian))
                == .csv)
    }

    @Test(arguments: [1, 2, 3, 7, 4096])
    func `decodes UTF-16 to UTF-8 whatever the reads split`(step: Int) throws {
        let text = "<a>Café 😀 €</a>\n"
        for bigEndian in [false, true] {
            var source = UTF16ByteSource(
                TrickleByteSource(
                    inner: MemoryByteSource(Self.utf16(text, bigEndian: bigEndian)), step: step),
                bigEndian: bigEndian)
            var output: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 5)
            while case let count = try buffer.withUnsafeMutableBytes({ try source.read(into: $0) }),
                count > 0
            {
                output += buffer[..<count]
            }
            #expect(output == [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        }
        var lone = UTF16ByteSource(
            MemoryByteSource([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x3E, 0x00]), bigEndian: false)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(throws: (any Error).self) {
            while try buffer.withUnsafeMutableBytes({ try lone.read(into: $0) }) > 0 {}
        }
    }
}
