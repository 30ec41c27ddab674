import Testing

@testable import StatementKit

/// Every reader runs in time linear in its input, whatever its line structure and however many
/// diagnostics it gives (issue: a minified JSON statement took quadratic time).
///
/// Work is measured without a clock, which a shared machine makes noisy: by the bytes that
/// locating diagnostics scans (`DiagnosticCollector.locationWork`), beside the bytes read.
/// Each shape is read at n and 2n rows; doubling the input must not much more than double the
/// work. `Scripts/linearity` measures the same shapes end to end in instructions.
struct LinearTimeTests {
    /// A Belgian IBAN whose national check digits are wrong (a warning) but whose ISO check
    /// digits are right, different for each `index`.
    static func ibanWithBadNationalCheck(_ index: Int) -> String {
        let bban = String(String(1_000_000_000 + index).suffix(10)) + "00"
        // ISO 13616: BBAN + "BE00" with letters as numbers, mod 97.
        var remainder = 0
        for character in bban + "111400" {
            remainder = (remainder * 10 + character.wholeNumberValue!) % 97
        }
        let check = 98 - remainder
        return "BE\(check < 10 ? "0" : "")\(check)\(bban)"
    }

    enum Content: CaseIterable {
        case valid, warningPerRow, errorPerRow
    }

    enum Shape: CaseIterable {
        /// One row per line.
        case multiLine
        /// Rows with a long text each (CSV), or the whole file on one line (JSON).
        case longLine
    }

    static let account = "DE89370400440532013000"

    static func csv(rows: Int, content: Content, shape: Shape) -> [UInt8] {
        var text = "date,account_iban,amount,beneficiary,beneficiary_iban,description\n"
        let padding = shape == .longLine ? String(repeating: "x", count: 2_000) : "Lunch"
        for row in 0..<rows {
            let date = content == .errorPerRow ? "2026-02-30" : "2026-10-03"
            let iban = content == .warningPerRow ? Self.ibanWithBadNationalCheck(row) : ""
            text += "\(date),\(Self.account),-1.00,Shop,\(iban),\"\(padding)\"\n"
        }
        return Array(text.utf8)
    }

    static func json(rows: Int, content: Content, shape: Shape) -> [UInt8] {
        let separator = shape == .longLine ? "" : "\n"
        let transactions = (0..<rows).map { row in
            let date = content == .errorPerRow ? "2026-02-30" : "2026-10-03"
            let iban =
                content == .warningPerRow
                ? ",\"beneficiaryIban\":\"\(Self.ibanWithBadNationalCheck(row))\"" : ""
            return "{\"date\":\"\(date)\",\"amount\":\"-1.00\",\"beneficiary\":\"Shop\"\(iban)}"
        }
        let text =
            "{\"account\":{\"iban\":\"\(Self.account)\"},\(separator)\"transactions\":[\(separator)"
            + transactions.joined(separator: ",\(separator)") + "]}"
        return Array(text.utf8)
    }

    /// A semicolon and decimal-comma export read through a profile.
    static func dialectCSV(rows: Int, content: Content, shape: Shape) -> [UInt8] {
        Array(
            String(decoding: csv(rows: rows, content: content, shape: shape), as: UTF8.self)
                .replacingOccurrences(of: ",", with: ";")
                .replacingOccurrences(of: "-1.00", with: "-1,00")
                .replacingOccurrences(of: "2026-10-03", with: "03.10.2026")
                .replacingOccurrences(of: "2026-02-30", with: "30.02.2026").utf8)
    }

    /// The bytes read plus the bytes scanned to locate diagnostics, and the diagnostic count.
    static func work(_ bytes: [UInt8], json: Bool, dialect: Dialect? = nil) -> (Int, Int) {
        var collector = DiagnosticCollector(file: "t")
        let parser = StatementCSVParser(dialect: dialect ?? Dialect())
        var rows = 0
        if json {
            _ = StatementJSONParser().parse(bytes, diagnostics: &collector) { _ in rows += 1 }
        } else {
            _ = parser.parse(MemoryByteSource(bytes), diagnostics: &collector) { _ in rows += 1 }
        }
        return (bytes.count + collector.locationWork, collector.errorCount + collector.warningCount)
    }

    static func expectLinear(
        _ make: (Int) -> [UInt8], json: Bool, dialect: Dialect? = nil, content: Content,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (small, smallCount) = work(make(2_000), json: json, dialect: dialect)
        let (large, largeCount) = work(make(4_000), json: json, dialect: dialect)
        #expect(Double(large) <= 2.2 * Double(small), sourceLocation: sourceLocation)
        // The shape really gives a diagnostic per row, or none.
        #expect(
            (smallCount, largeCount) == (content == .valid ? (0, 0) : (2_000, 4_000)),
            sourceLocation: sourceLocation)
    }

    @Test(arguments: Content.allCases, Shape.allCases)
    func `reads canonical CSV in linear time`(content: Content, shape: Shape) {
        Self.expectLinear(
            { Self.csv(rows: $0, content: content, shape: shape) }, json: false, content: content)
    }

    @Test(arguments: Content.allCases, Shape.allCases)
    func `reads dialect CSV in linear time`(content: Content, shape: Shape) throws {
        let profile = #"{"separator": ";", "decimalMark": ",", "dateFormat": "dd.MM.yyyy"}"#
        let dialect = try Dialect(profile: Array(profile.utf8), path: "p.json")
        Self.expectLinear(
            { Self.dialectCSV(rows: $0, content: content, shape: shape) }, json: false,
            dialect: dialect, content: content)
    }

    @Test(arguments: Content.allCases, Shape.allCases)
    func `reads JSON in linear time, minified or not`(content: Content, shape: Shape) {
        Self.expectLinear(
            { Self.json(rows: $0, content: content, shape: shape) }, json: true, content: content)
    }

    @Test func `locates every problem of one long CSV line in one scan`() {
        // 20,000 NUL bytes in one field: one error each, located from the one before.
        for count in [10_000, 20_000] {
            let row =
                "2026-10-03,\(Self.account),-1.00,\"" + String(repeating: "\u{0}", count: count)
            let bytes = Array(("date,account_iban,amount,beneficiary\n" + row + "\"\n").utf8)
            var collector = DiagnosticCollector(file: "t")
            _ = StatementCSVParser().parse(MemoryByteSource(bytes), diagnostics: &collector) {
                _ in
            }
            #expect(collector.errorCount == count)
            #expect(collector.locationWork <= bytes.count)
        }
    }

    @Test func `gives the columns of a minified file exactly`() {
        let bytes = Self.json(rows: 3, content: .errorPerRow, shape: .longLine)
        let result = parseJSON(bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        let columns = text.ranges(of: "\"2026-02-30\"").map {
            text.unicodeScalars.distance(from: text.startIndex, to: $0.lowerBound) + 1
        }
        #expect(result.places == columns.map { "1:\($0) DATE_INVALID" })
    }
}
