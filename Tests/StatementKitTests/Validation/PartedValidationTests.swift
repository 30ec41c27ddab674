import Foundation
import Testing

@testable import StatementKit

/// Reading a file in parts at once must report exactly what reading it in one go does,
/// whatever lies across the cuts: quoted line breaks, balance chains, currency conflicts,
/// unreadable rows, warnings given once per IBAN, errors that end the file.
struct PartedValidationTests {
    /// Accounts of the generated files, one in two ways.
    static let accounts = [
        "DE89370400440532013000", "BE68539007547034", "NL91ABNA0417164300",
        "GB82WEST12345698765432", "DE89 3704 0044 0532 0130 00",
    ]

    /// The kinds of generated files.
    enum Mix: CaseIterable {
        /// A defect in one row of twelve, of every kind; quoted line breaks; one account
        /// fails its national check, which is warned about once per file.
        case dense
        /// Defects in one row of 25 that only touch balance chains and currencies, no
        /// quoted line breaks: most parts start right and many join.
        case chains
        /// Hardly any defects: most parts join.
        case sparse
    }

    /// A canonical CSV file of `rows` rows with a balance column and defects of kinds that
    /// carry state from row to row. Seeds divisible by 7 end inside a quoted field.
    static func awkwardFile(seed: UInt64, rows: Int, mix: Mix) -> String {
        var random = SeededGenerator(seed: seed)
        let accounts = Self.accounts + (mix == .dense ? ["BE41539007547035"] : [])
        let (defectRate, defectKinds) = [.dense: (12, 8), .chains: (25, 4), .sparse: (400, 8)][mix]!
        let lineEnd = Bool.random(using: &random) ? "\n" : "\r\n"
        var balances: [String: Int] = [:]
        var text = "date,account_iban,amount,currency,beneficiary,balance" + lineEnd
        for row in 0..<rows {
            // A rare account, so that some parts hold none or only unreadable rows of it.
            let isRare = mix == .chains && Int.random(in: 0..<40, using: &random) == 0
            let account =
                isRare ? "GB29NWBK60161331926819" : accounts.randomElement(using: &random)!
            let key = account.replacingOccurrences(of: " ", with: "")
            let cents = Int.random(in: -5000...5000, using: &random)
            var (date, amount, currency) = ("2026-10-\(10 + row % 18)", money(cents), "EUR")
            let multiline = mix != .chains && Int.random(in: 0..<5, using: &random) == 0
            var beneficiary =
                multiline
                ? ["\"two\nlines\"", "\"cr\r\nlf\""].randomElement(using: &random)!
                : ["Kiosk", "\"Shop, Inc\""].randomElement(using: &random)!
            let balance = (balances[key] ?? 100_000) + cents
            balances[key] = balance
            var declared = money(balance)
            if Int.random(in: 0..<defectRate, using: &random) == 0 {
                switch Int.random(in: 0..<defectKinds, using: &random) {
                case 0: amount = "1.234"  // unreadable: forgets the balance
                case 1: declared = money(balance + 1)  // breaks the chain
                case 2: currency = "USD"  // a currency conflict, or a new account's currency
                case 3: declared = ""  // an undeclared balance
                case 4: date = "2026-02-30"
                case 5: beneficiary = "stray\"quote"
                case 6: text += lineEnd  // an empty line
                default: balances[key] = nil  // the chain starts again at the next row
                }
            }
            text +=
                [date, account, amount, currency, beneficiary, declared]
                .joined(separator: ",") + lineEnd
        }
        if seed % 7 == 0 { text += "2026-10-30,\"never closed" + lineEnd }
        return text
    }

    static func money(_ cents: Int) -> String {
        "\(cents < 0 ? "-" : "")\(abs(cents) / 100).\(String(format: "%02d", abs(cents) % 100))"
    }

    @Test(arguments: 0..<60)
    func `reads a file in parts to exactly what reading it in one go reports`(seed: Int) throws {
        let folder = try TemporaryFolder()
        let text = Self.awkwardFile(
            seed: UInt64(seed), rows: 300, mix: Mix.allCases[seed % Mix.allCases.count])
        let file = try folder.write("s.csv", text)
        for isStrict in [false, true] {
            for limit in [3, 1000] {
                let whole = ValidationController(
                    isStrict: isStrict, diagnosticLimit: limit, jobs: 1
                )
                .validateFile(at: file)
                for parts in 2...5 {
                    let parted = ValidationController.validateInParts(
                        path: file, dialect: nil, parts: parts, isStrict: isStrict, limit: limit,
                        minimumPartSize: 1)
                    #expect(parted == whole, "seed \(seed), \(parts) parts, strict \(isStrict)")
                }
            }
        }
    }

    @Test func `reads a profile's dialect in parts, preamble and all`() throws {
        var dialect = Dialect()
        dialect.separator = UInt8(ascii: ";")
        dialect.amountFormat = AmountFormat(
            decimalMark: UInt8(ascii: ","), thousandsSeparator: UInt8(ascii: "."))
        dialect.headerLine = 2
        dialect.preamble = [.iban: Dialect.PreamblePosition(line: 1, field: 2)]
        dialect.columns = [
            .date: [.name("Day")], .amount: [.name("Amount")], .beneficiary: [.name("Who")],
        ]
        var text = "Account;DE89370400440532013000\nDay;Amount;Who\n"
        for row in 0..<400 {
            let amount = row % 37 == 0 ? "1,2,3" : "\(row),\(row % 100)"
            text += "2026-10-\(10 + row % 18);\(amount);\"Shop\n\(row)\"\n"
        }
        let folder = try TemporaryFolder()
        let file = try folder.write("bank.csv", text)
        let whole = ValidationController(jobs: 1).validateFile(at: file, dialect: dialect)
        #expect(whole.errorCount == 11)
        for parts in 2...6 {
            #expect(
                ValidationController.validateInParts(
                    path: file, dialect: dialect, parts: parts, isStrict: false, limit: 100,
                    minimumPartSize: 1) == whole)
        }
    }

    @Test func `leaves small files, JSON and dialects that need the whole text to one read`()
        throws
    {
        let folder = try TemporaryFolder()
        let csv = try folder.write("s.csv", Self.awkwardFile(seed: 1, rows: 50, mix: .dense))
        let json = try folder.write("s.json", "{}")
        var newestFirst = Dialect()
        newestFirst.isNewestFirst = true
        let validate = { (path: String, dialect: Dialect?, minimum: Int) in
            ValidationController.validateInParts(
                path: path, dialect: dialect, parts: 2, isStrict: false, limit: 100,
                minimumPartSize: minimum)
        }
        #expect(validate(csv, nil, 1) != nil)
        #expect(validate(csv, nil, 1 << 20) == nil)
        #expect(validate(json, nil, 1) == nil)
        #expect(validate(csv, newestFirst, 1) == nil)
    }

    /// Reads `text` in parts cut at the given offsets (each moved to the next line start),
    /// returning the diagnostics and how many parts had to be read again.
    func readInParts(_ text: String, cuts: [Int]) -> (
        summary: ParseSummary, places: [String], rereads: Int
    ) {
        let bytes = Array(text.utf8)
        let parser = StatementCSVParser(buildsRows: false)
        var diagnostics = DiagnosticCollector(file: "t.csv")
        let head = parser.readHead(MemoryByteSource(bytes), diagnostics: &diagnostics)!
        var starts = [head.rowsStart.offset]
        for cut in cuts {
            let lineStart = bytes[(cut - 1)...].firstIndex(of: UInt8(ascii: "\n"))! + 1
            if lineStart > starts.last! && lineStart < bytes.count { starts.append(lineStart) }
        }
        var line = head.rowsStart.line
        var parts: [StatementCSVParser.RowsPart] = []
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : bytes.count
            parts.append(
                parser.readRows(
                    MemoryByteSource(bytes[start..<end]), from: (start, line),
                    to: index + 1 < starts.count ? end : .max, columns: head.columns,
                    state: head.state, diagnostics: DiagnosticCollector(file: "t.csv")))
            var counter = LineBreakCounter()
            bytes[start..<end].withUnsafeBytes { counter.add($0) }
            line += counter.count
        }
        var rereads = 0
        let summary = parser.join(parts, after: head, diagnostics: &diagnostics) {
            start, limit, state in
            rereads += 1
            return parser.readRows(
                MemoryByteSource(bytes[start.offset...]), from: start, to: limit,
                columns: head.columns, state: state,
                diagnostics: DiagnosticCollector(file: "t.csv"))
        }
        return (
            summary, diagnostics.diagnostics.map { "\($0.line):\($0.column) \($0.code.rawValue)" },
            rereads
        )
    }

    func offset(of needle: String, in text: String) -> Int {
        text.utf8.count - text[text.range(of: needle)!.lowerBound...].utf8.count
    }

    static let chained = """
        date,account_iban,amount,beneficiary,balance
        2026-10-01,DE89370400440532013000,-1.00,K,99.00
        2026-10-02,BE68539007547034,5.00,K,5.00
        2026-10-03,DE89370400440532013000,-1.00,"two
        lines",98.00
        2026-10-04,BE68539007547034,5.00,K,10.00
        2026-10-05,DE89370400440532013000,-1.00,K,96.00

        """

    @Test func `trusts parts that join and reads again a part cut inside a quoted field`() {
        let whole = parseCSV(Self.chained, strict: false)
        #expect(whole.places == ["7:43 BALANCE_RUNNING"])
        let clean = readInParts(Self.chained, cuts: [offset(of: "2026-10-02", in: Self.chained)])
        #expect(clean.places == whole.places && clean.rereads == 0)
        #expect(clean.summary.rowCount == 5)
        // A cut inside "two lines": the first part ends inside the quoted field and the
        // second starts in it; both are read again.
        let cut = readInParts(Self.chained, cuts: [offset(of: "lines", in: Self.chained)])
        #expect(cut.places == whole.places && cut.rereads == 2)
        #expect(cut.summary.rowCount == 5)
    }

    @Test func `reads a part again when its first declared balance does not follow`() {
        let text = """
            date,account_iban,amount,beneficiary,balance
            2026-10-01,DE89370400440532013000,-1.00,K,99.00
            2026-10-02,DE89370400440532013000,-1.00,K,50.00
            2026-10-03,DE89370400440532013000,-1.00,K,49.00

            """
        let whole = parseCSV(text)
        #expect(whole.places == ["3:43 BALANCE_RUNNING"])
        let parted = readInParts(text, cuts: [offset(of: "2026-10-02", in: text)])
        #expect(parted.places == whole.places && parted.rereads == 1)
    }

    @Test func `reads a part again when it repeats a transaction id of an earlier part`() {
        let text = """
            date,account_iban,amount,beneficiary,transaction_id
            2026-10-01,DE89370400440532013000,-1.00,K,T-1
            2026-10-02,DE89370400440532013000,-2.00,K,T-2
            2026-10-03,DE89370400440532013000,-3.00,K,T-1
            2026-10-04,DE89370400440532013000,-4.00,K,T-4

            """
        let whole = parseCSV(text)
        #expect(whole.places == ["4:43 TRANSACTION_ID_CONFLICT"])
        let parted = readInParts(text, cuts: [offset(of: "2026-10-03", in: text)])
        #expect(parted.places == whole.places && parted.rereads == 1)
        // Ids that no earlier part has seen leave the parts trusted.
        let distinct = text.replacingOccurrences(of: "-3.00,K,T-1", with: "-3.00,K,T-3")
        let clean = readInParts(distinct, cuts: [offset(of: "2026-10-03", in: distinct)])
        #expect(clean.places.isEmpty && clean.rereads == 0)
    }

    @Test func `forgets the balance of an account whose only row in a part is unreadable`() {
        let text = """
            date,account_iban,amount,beneficiary,balance
            2026-10-01,DE89370400440532013000,-1.00,K,99.00
            2026-10-02,BE68539007547034,5.00,K,5.00
            2026-10-03,DE89370400440532013000,x,K,98.00
            2026-10-04,BE68539007547034,5.00,K,10.00
            2026-10-05,DE89370400440532013000,-1.00,K,50.00

            """
        let whole = parseCSV(text)
        #expect(whole.places == ["4:35 AMOUNT_FORMAT"])
        let parted = readInParts(
            text, cuts: [offset(of: "2026-10-02", in: text), offset(of: "2026-10-05", in: text)])
        #expect(parted.places == whole.places && parted.rereads == 0)
    }

    @Test func `counts line breaks as the reader does, across pieces`() {
        let text = Array("a\r\nb\rc\n\r\r\n\nd\r".utf8)
        var reader = CSVReader(source: MemoryByteSource(text))
        var lines = 1
        while (try? reader.nextRecord()) == true { lines = reader.resumePoint.line }
        for pieceLength in 1...text.count {
            var counter = LineBreakCounter()
            for start in stride(from: 0, to: text.count, by: pieceLength) {
                text[start..<min(start + pieceLength, text.count)].withUnsafeBytes {
                    counter.add($0)
                }
            }
            #expect(counter.count + 1 == lines, "pieces of \(pieceLength)")
        }
        #expect(lines == 8)
    }
}
