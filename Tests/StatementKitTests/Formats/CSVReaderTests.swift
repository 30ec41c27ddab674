import Testing

@testable import StatementKit

struct CSVReaderTests {
    /// Reads all records as arrays of strings, with each record's line, in small chunks.
    static func records(_ text: String, step: Int = 3, chunk: Int = 8) throws -> [(
        line: Int, fields: [String]
    )] {
        var reader = CSVReader(
            source: TrickleByteSource(inner: MemoryByteSource(text), step: step), chunkSize: chunk)
        var out: [(Int, [String])] = []
        while try reader.nextRecord() {
            reader.withRecord { record in
                out.append(
                    (
                        record.line,
                        record.fields.indices.map { i in
                            record.withField(i) { String(decoding: $0, as: UTF8.self) }
                        }
                    ))
            }
        }
        return out
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func `reads quotes, escapes and line breaks across any chunk boundary`(step: Int) throws {
        let text = "a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n1,,3\r\n"
        let records = try Self.records(text, step: step)
        #expect(
            records.map(\.fields) == [
                ["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["1", "", "3"],
            ])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func `skips a byte order mark and empty lines and reads a last line without newline`()
        throws
    {
        let records = try Self.records("\u{FEFF}h1,h2\n\n1,2\n\n3,4")
        #expect(records.map(\.fields) == [["h1", "h2"], ["1", "2"], ["3", "4"]])
        #expect(records.map(\.line) == [1, 3, 5])
    }

    @Test func `treats a lone CR as a line end`() throws {
        let records = try Self.records("a,b\r1,2\r3,4\r")
        #expect(records.map(\.fields) == [["a", "b"], ["1", "2"], ["3", "4"]])
        #expect(records.map(\.line) == [1, 2, 3])
    }

    @Test func `keeps an empty quoted field as a record`() throws {
        #expect(try Self.records("\"\"\n").map(\.fields) == [[""]])
    }

    @Test func `reports an unterminated quote where it opens`() {
        #expect(throws: CSVReadError.unterminatedQuote(line: 2, column: 3)) {
            try Self.records("a,b\n1,\"open\nmore\n")
        }
    }

    @Test func `stops at an overlong record instead of growing without bound`() {
        var reader = CSVReader(
            source: MemoryByteSource(String(repeating: "x", count: 100) + "\n"), chunkSize: 16,
            maximumRecordLength: 32)
        #expect(throws: CSVReadError.recordTooLong(line: 1, limit: 32)) { try reader.nextRecord() }
    }

    @Test func `reports NUL, invalid UTF-8 and stray quotes per record and reads on`() throws {
        let bytes: [UInt8] =
            Array("a,b\n".utf8) + [0x78, 0x00, 0x2C, 0xC3, 0x28, 0x0A] + Array("x\"y,z\n1,2\n".utf8)
        var reader = CSVReader(source: MemoryByteSource(bytes))
        var issues: [[CSVIssue.Kind]] = []
        while try reader.nextRecord() { reader.withRecord { issues.append($0.issues.map(\.kind)) } }
        #expect(issues == [[], [.nul, .invalidUTF8], [.strayQuote], []])
    }

    @Test(
        arguments: [
            [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF],
            [0xE2, 0x82],
        ] as [[UInt8]])
    func `rejects overlong, surrogate and truncated UTF-8`(sequence: [UInt8]) throws {
        var reader = CSVReader(source: MemoryByteSource(Array("a\n".utf8) + sequence + [0x0A]))
        _ = try reader.nextRecord()
        _ = try reader.nextRecord()
        #expect(reader.withRecord { $0.issues.first?.kind } == .invalidUTF8)
    }

    @Test func `accepts valid multi-byte UTF-8 split across reads`() throws {
        let records = try Self.records("name\nMüller 東京 😀\n", step: 1, chunk: 4)
        #expect(records.last?.fields == ["Müller 東京 😀"])
    }

    @Test func `locates fields by line and column in Unicode scalars`() throws {
        var reader = CSVReader(source: MemoryByteSource("h,h,h\n\"a\nb\",Müller,x\n"))
        _ = try reader.nextRecord()
        _ = try reader.nextRecord()
        let locations = reader.withRecord { record in
            (0...3).map { record.location(ofField: $0) }
        }
        #expect(locations.map(\.line) == [2, 3, 3, 3])
        #expect(locations.map(\.column) == [1, 4, 11, 12])
    }
}
