import Foundation
import Testing

@testable import StatementKit

/// Unit tests of the OFX 1 (SGML), OFX 2 (XML) and QFX reader.
struct OFXParserTests {
    struct Result {
        var rows: [ParsedRow] = []
        var summary = ParseSummary()
        var diagnostics: [Diagnostic] = []

        var lines: [String] { diagnostics.map(\.textLine) }
    }

    func parse(_ bytes: [UInt8]) -> Result {
        var result = Result()
        var collector = DiagnosticCollector(file: "o.ofx")
        result.summary = OFXParser().parse(MemoryByteSource(bytes), diagnostics: &collector) {
            result.rows.append($0)
        }
        result.diagnostics = collector.diagnostics
        return result
    }

    func parse(_ text: String) -> Result { parse(Array(text.utf8)) }

    func sample(_ name: String) throws -> Result {
        let url = CamtParserTests.samples.appendingPathComponent(name)
        return parse(Array(try Data(contentsOf: url)))
    }

    @Test func `reads an OFX 1 bank statement in Windows-1252`() throws {
        let result = try sample("ofx1-chase-checking.ofx")
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        #expect(
            result.rows.map(\.transaction.amount.minorUnits) == [
                320_000, -145_000, -2_347, -25_000, -50_000,
            ])
        let account = try #require(result.rows.first?.account)
        #expect(account.id.text == "aba:021000021/123456789")
        #expect(account.currency == Currency(code: "USD"))
        #expect(
            result.rows.map(\.transaction.transactionID) == [
                "202610011", "202610052", "202610123", "202610124", "202610155",
            ])
        #expect(result.rows[1].transaction.reference == "1044")
        #expect(result.rows[2].transaction.beneficiary == "CAFÉ BLEU & CO")
        #expect(result.rows[2].transaction.date.description == "2026-10-12")
        // LEDGERBAL 4,179.54 after +976.53 of rows: the account opened the month at 3,203.01,
        // where the September export of the same account (SampleData/profiles/us-dollar) ends.
        #expect(result.summary.openingBalances[account.id]?.minorUnits == 320_301)
    }

    @Test func `reads an OFX 2 savings statement and a QFX card statement`() throws {
        let savings = try sample("ofx2-savings.ofx")
        #expect(savings.diagnostics.isEmpty, "\(savings.lines)")
        #expect(savings.rows.map(\.transaction.amount.minorUnits) == [50_000, 412])
        #expect(savings.rows[0].account.kind == .savings)
        #expect(savings.rows[0].account.id.text == "name:000312345-98765-43")
        #expect(savings.rows[1].transaction.beneficiary == "Interest")
        let card = try sample("qfx-chase-card.qfx")
        #expect(card.diagnostics.isEmpty, "\(card.lines)")
        #expect(card.rows.count == 3)
        #expect(card.rows[0].account.id.text == "card:chase/4417")
        #expect(card.rows[0].account.kind == .creditCard)
        #expect(card.rows.reduce(0) { $0 + $1.transaction.amount.minorUnits } == 36_668)
    }

    @Test func `reports what does not parse, where it is`() {
        let head =
            "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD\n"
            + "<BANKACCTFROM><BANKID>1<ACCTID>42</BANKACCTFROM><BANKTRANLIST>\n"
        let result = parse(
            head
                + "<STMTTRN><DTPOSTED>20261302<TRNAMT>-1.00<FITID>A<NAME>X</STMTTRN>\n"
                + "<STMTTRN><DTPOSTED>20261002<TRNAMT>-1.001<FITID>B<NAME>X</STMTTRN>\n"
                + "<STMTTRN><DTPOSTED>20261002<FITID>C<NAME>X</STMTTRN>\n"
                + "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")
        #expect(
            result.lines == [
                "o.ofx:6:20: error: [DATE_FORMAT] DTPOSTED \"20261302\": is not a date in yyyyMMdd form",
                "o.ofx:7:36: error: [AMOUNT_PRECISION] TRNAMT \"-1.001\": USD has 2 decimal places",
                "o.ofx:8:1: error: [ELEMENT_MISSING] <STMTTRN> has no <TRNAMT>",
            ])
        let broken = parse(head + "<STMTTRN><NAME>X</BANKTRANLIST>")
        #expect(
            broken.lines == ["o.ofx:6:17: error: [OFX_SYNTAX] </BANKTRANLIST> closes <STMTTRN>"])
    }

    /// An OFX 2 statement of `count` transactions, written in the form `style` gives a tag
    /// and its value.
    static func statement(count: Int, style: (String, String) -> String) -> String {
        var text =
            "<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\"?>\n<OFX><BANKMSGSRSV1><STMTTRNRS>"
            + "<STMTRS>\(style("CURDEF", "EUR"))<BANKACCTFROM>\(style("BANKID", "B"))"
            + "\(style("ACCTID", "42"))</BANKACCTFROM><BANKTRANLIST>\n"
        for index in 0..<count {
            text +=
                "<STMTTRN>\(style("DTPOSTED", "20261002"))\(style("TRNAMT", "-\(index).05"))"
                + "\(style("FITID", "F\(index)"))\(style("NAME", "Caf\u{E9} \(index)"))</STMTTRN>\n"
        }
        return text + "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    }

    @Test func `reads the same rows whatever the case and layout of the tags, over many chunks`() {
        let styles: [(String, String) -> String] = [
            { "<\($0)>\($1)</\($0)>" },
            { "<\($0)>\($1)" },
            { "<\($0.lowercased())>\($1)</\($0.lowercased())>" },
            { "<\($0)>\n  \($1)\n</\($0)>" },
            { "<\($0) >\($1)</\($0)>" },
        ]
        // A value read the general way after one read in one pass is still decoded.
        let entity = parse(
            Self.statement(count: 2) { $0 == "NAME" ? "<NAME >A &amp; B</NAME>" : "<\($0)>\($1)" })
        #expect(entity.rows.map(\.transaction.beneficiary) == ["A & B", "A & B"])
        let results = styles.map { parse(Self.statement(count: 3000, style: $0)) }
        for result in results {
            #expect(result.diagnostics.isEmpty, "\(result.lines.prefix(3))")
            #expect(result.rows.count == 3000)
            #expect(result.rows.last?.transaction.beneficiary == "Caf\u{E9} 2999")
            #expect(
                result.rows.map(\.transaction.amount) == results[0].rows.map(\.transaction.amount))
        }
        // Every row is placed on the line of its <STMTTRN>: line 4 on, one a line (the
        // fourth style spreads each of a transaction's four values over three lines).
        #expect(results[0].rows.map(\.line) == Array(4..<3004))
        #expect(results[3].rows.map(\.line) == Array(stride(from: 10, to: 27_010, by: 9)))
    }

    @Test func `reads tags in a changing order and names that begin other names`() throws {
        // The reader first compares the tag that followed the previous one last time; here
        // the order changes from one transaction to the next, and `NAMEX`, `MEMO2` and
        // `TRNAMTX` begin like the tags they follow.
        let transactions = (0..<200).map { index in
            let amount = "<TRNAMT>-\(index).25</TRNAMT>"
            let name = "<NAME>Payee \(index)</NAME><NAMEX>not a name</NAMEX>"
            let memo = "<MEMO2>not a memo</MEMO2><MEMO>Memo \(index)</MEMO>"
            let body = index % 3 == 0 ? name + amount + memo : memo + name + amount
            return "<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20261003</DTPOSTED>"
                + "<TRNAMTX>9</TRNAMTX>\(body)<FITID>F\(index)</FITID></STMTTRN>\n"
        }
        let total = (0..<200).reduce(0) { $0 - ($1 * 100 + 25) }
        let document = """
            <?xml version="1.0"?>
            <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF>
            <BANKACCTFROM><BANKID>B</BANKID><ACCTID>42</ACCTID></BANKACCTFROM><BANKTRANLIST>
            \(transactions.joined())</BANKTRANLIST>
            <LEDGERBAL><BALAMT>0</BALAMT></LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """
        let result = parse(document)
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        #expect(result.rows.count == 200)
        for (index, row) in result.rows.enumerated() {
            #expect(row.transaction.amount.minorUnits == -(Int64(index) * 100 + 25))
            #expect(row.transaction.beneficiary == "Payee \(index)")
            #expect(row.transaction.description == "Memo \(index)")
            #expect(row.transaction.transactionID == "F\(index)")
        }
        let account = try #require(result.rows.first?.account.id)
        #expect(result.summary.openingBalances[account]?.minorUnits == Int64(-total))
    }

    @Test func `scans values eight bytes at a time as one byte at a time would`() {
        var generator = SeededGenerator(seed: 5)
        let alphabet = Array("ab <&\n\r>Z".utf8) + [0x80, 0xC3, 0xFF, 0x7F, 0x00]
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let start = Int.random(in: 0...length, using: &generator)
            var (end, isPlain, hasLineBreak) = (start, true, false)
            while end < length && bytes[end] != UInt8(ascii: "<") {
                if bytes[end] >= 0x80 || bytes[end] == UInt8(ascii: "&") { isPlain = false }
                if bytes[end] == 0x0A { hasLineBreak = true }
                end += 1
            }
            let scanned = bytes.withUnsafeBufferPointer {
                MarkupText.scan($0, from: start)
            }
            #expect(scanned.end == end, "\(bytes) from \(start)")
            #expect(scanned.isPlain == isPlain, "\(bytes) from \(start)")
            #expect(scanned.hasLineBreak == hasLineBreak, "\(bytes) from \(start)")
        }
    }

    @Test func `places an error after values spread over lines`() {
        let text = Self.statement(count: 2) { "<\($0)>\n \($1)\n</\($0)>" }
            .replacingOccurrences(of: "-1.05", with: "-1.051")
        #expect(
            parse(text).lines == [
                "o.ofx:22:2: error: [AMOUNT_PRECISION] TRNAMT \"-1.051\": EUR has 2 decimal places"
            ])
    }

    @Test func `refuses more different tag names than a statement can have`() {
        let tags = (0..<5000).map { "<T\($0)>x" }.joined()
        let result = parse("<OFX>" + tags + "</OFX>")
        #expect(
            result.lines == [
                "o.ofx:1:31440: error: [OFX_SYNTAX] more than 4096 different tag names"
            ])
    }

    @Test func `detects OFX and QFX by content`() {
        #expect(
            StatementFormat(path: "a.qfx", head: Array("OFXHEADER:100\nDATA:OFXSGML".utf8)) == .ofx)
        #expect(
            StatementFormat(
                path: "a.xml",
                head: Array("<?xml version=\"1.0\"?><?OFX OFXHEADER=\"200\"?><OFX>".utf8))
                == .ofx)
    }

    /// An OFX 1 statement in USD around `transactions`.
    static func sgml(_ transactions: String) -> String {
        "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD\n"
            + "<BANKACCTFROM><BANKID>1<ACCTID>42</BANKACCTFROM><BANKTRANLIST>\n"
            + transactions + "\n</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    }

    @Test func `reads comments, CDATA and processing instructions written without spaces`() {
        let marked = parse(
            Self.statement(count: 1) { "<\($0)>\($1)</\($0)>" }
                .replacingOccurrences(of: "<STMTTRN>", with: "<!--Generated--><?pi?><STMTTRN>")
                .replacingOccurrences(of: "<TRNAMT>-0.05", with: "<TRNAMT><![CDATA[-12.34]]>")
                .replacingOccurrences(of: "<NAME>Caf", with: "<NAME><![CDATA[A & <B>]]> Caf"))
        #expect(marked.lines.isEmpty, "\(marked.lines)")
        #expect(marked.rows.map(\.transaction.amount.minorUnits) == [-1234])
        #expect(marked.rows.first?.transaction.beneficiary == "A & <B> Caf\u{E9} 0")
        // Markup inside a comment is no tag, even where it looks like one.
        let commented = parse(
            Self.sgml(
                "<!--<STMTTRN><DTPOSTED>20261002<TRNAMT>1000.00<FITID>X<NAME>X</STMTTRN>-->"
                    + "<!--X--><STMTTRN><DTPOSTED>20261002<TRNAMT>-1.00<FITID>Y<NAME>Y</STMTTRN>"))
        #expect(commented.lines.isEmpty, "\(commented.lines)")
        #expect(commented.rows.map(\.transaction.amount.minorUnits) == [-100])
    }

    @Test func `reads real banks' CDATA, empty tags and grouped amounts`() {
        // Suncorp: CDATA values; OnPoint: `<MEMO/>`; amounts with a plus sign, spaces
        // grouping thousands and a decimal comma.
        let result = parse(
            Self.sgml(
                "<STMTTRN><DTPOSTED>20261002<TRNAMT>+1 006,60<FITID>1<NAME><![CDATA[Acme]]>"
                    + "<MEMO/></STMTTRN>\n"
                    + "<STMTTRN><DTPOSTED>20261003<TRNAMT>-2\u{A0}000.5<FITID>2<NAME>B"
                    + "<MEMO><![CDATA[x]]></MEMO></STMTTRN>"))
        #expect(result.lines.isEmpty, "\(result.lines)")
        #expect(result.rows.map(\.transaction.amount.minorUnits) == [100_660, -200_050])
        #expect(result.rows.map(\.transaction.beneficiary) == ["Acme", "B"])
        #expect(result.rows.map(\.transaction.description) == [nil, "x"])
        for bad in ["1 06,60", "10 006 0,1", "1  006", "1,006.60", "1 0060"] {
            let refused = parse(
                Self.sgml("<STMTTRN><DTPOSTED>20261002<TRNAMT>\(bad)<FITID>1<NAME>A</STMTTRN>"))
            #expect(refused.rows.isEmpty, "\(bad)")
            #expect(refused.lines.first?.contains("[AMOUNT_FORMAT]") == true, "\(refused.lines)")
        }
    }

    @Test func `refuses a value given twice and a transaction left open`() {
        let amounts = parse(
            Self.sgml("<STMTTRN><DTPOSTED>20261002<TRNAMT>-1.00<TRNAMT>-1000.00<FITID>1</STMTTRN>"))
        #expect(
            amounts.lines == [
                "o.ofx:6:49: error: [ELEMENT_DUPLICATE] <TRNAMT> appears twice in <STMTTRN>; it has one value, and neither is taken"
            ])
        #expect(amounts.rows.isEmpty)
        let nested = parse(
            Self.sgml(
                "<STMTTRN><DTPOSTED>20261002<TRNAMT>-1.00<FITID>1\n"
                    + "<STMTTRN><DTPOSTED>20261002<TRNAMT>-2.00<FITID>2</STMTTRN></STMTTRN>"))
        #expect(
            nested.lines.first
                == "o.ofx:7:1: error: [ELEMENT_MISPLACED] <STMTTRN> inside the <STMTTRN> of line 6: it belongs directly in <BANKTRANLIST>, after the one before it is closed"
        )
        let currencies = parse(
            Self.sgml("<CURDEF>EUR<STMTTRN><DTPOSTED>20261002<TRNAMT>-1.00<FITID>1</STMTTRN>"))
        #expect(
            currencies.lines.first?.contains("[ELEMENT_DUPLICATE] <CURDEF> appears twice") == true)
    }

    @Test(
        arguments: [
            ("<CURRENCY><CURRATE>1.10<CURSYM>EUR</CURRENCY>", "-5.00", -550, nil),
            ("<CURRENCY><CURRATE>1,0834<CURSYM>EUR</CURRENCY>", "-5.00", -542, "-5.417000 USD"),
            ("<CURRENCY><CURRATE>0.0067<CURSYM>JPY</CURRENCY>", "-1500", -1005, nil),
            ("<CURRENCY><CURRATE>1<CURSYM>USD</CURRENCY>", "-5.00", -500, nil),
            ("<ORIGCURRENCY><CURRATE>1.10<CURSYM>EUR</ORIGCURRENCY>", "-5.50", -550, nil),
            ("<CURRENCY>EUR", "-5.00", nil, "[ELEMENT_MISSING] <CURRENCY> has no <CURRATE>"),
            (
                "<CURRENCY><CURRATE>1.1</CURRENCY>", "-5.00", nil,
                "[ELEMENT_MISSING] <CURRENCY> has no <CURSYM>"
            ),
            (
                "<CURRENCY><CURRATE>x<CURSYM>EUR</CURRENCY>", "-5.00", nil,
                "[AMOUNT_FORMAT] CURRENCY/CURRATE"
            ),
            ("<CURRENCY><CURRATE>1<CURSYM>XXY</CURRENCY>", "-5.00", nil, "[CURRENCY_UNKNOWN]"),
            (
                "<CURRENCY><CURRATE>1.1<CURSYM>EUR</CURRENCY>", "-5.001", nil,
                "EUR has 2 decimal places"
            ),
            (
                "<CURRENCY><CURRATE>1.1<CURSYM>EUR</CURRENCY><ORIGCURRENCY><CURRATE>1<CURSYM>EUR</ORIGCURRENCY>",
                "-5.00", nil, "[ELEMENT_DUPLICATE] <ORIGCURRENCY> appears twice in <STMTTRN>"
            ),
        ] as [(String, String, Int64?, String?)])
    func `applies a transaction's currency and its rate`(
        aggregate: String, amount: String, minorUnits: Int64?, message: String?
    ) {
        let result = parse(
            Self.sgml(
                "<STMTTRN><DTPOSTED>20261002<TRNAMT>\(amount)<FITID>1<NAME>A\(aggregate)</STMTTRN>")
        )
        #expect(result.rows.map(\.transaction.amount.minorUnits) == (minorUnits.map { [$0] } ?? []))
        #expect(result.rows.allSatisfy { $0.transaction.amount.currency.code == "USD" })
        if let message {
            #expect(result.lines.first?.contains(message) == true, "\(result.lines)")
        } else {
            #expect(result.lines.isEmpty, "\(result.lines)")
        }
    }

    @Test func `refuses a header longer than its limit, read a chunk at a time`() {
        let result = parse(
            "OFXHEADER:100\nX:" + String(repeating: "a", count: 100_000) + "\n"
                + Self.sgml("<STMTTRN><DTPOSTED>20261002<TRNAMT>-1.00<FITID>1</STMTTRN>"))
        #expect(result.rows.isEmpty)
        #expect(
            result.lines == [
                "o.ofx:1:1: error: [TEXT_TOO_LONG] text or markup longer than 4,096 bytes"
            ])
    }

    @Test func `takes a blank name or memo for none`() throws {
        let result = parse(
            Self.sgml(
                "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261002<TRNAMT>-1.00<FITID>1<NAME>&nbsp;"
                    + "<MEMO>Rent</STMTTRN><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261002"
                    + "<TRNAMT>-2.00<FITID>2<NAME> &nbsp; <MEMO>&nbsp;</STMTTRN>"))
        #expect(result.lines.isEmpty, "\(result.lines)")
        let transactions = result.rows.map(\.transaction)
        #expect(transactions.map(\.beneficiary) == ["Rent", "DEBIT"])
        #expect(transactions.map(\.description) == ["Rent", nil])
    }

    @Test func `caps the values kept for a row`() {
        let long = String(repeating: "m", count: 9000)
        let result = parse(
            Self.sgml("<STMTTRN><DTPOSTED>20261002<TRNAMT>-1.00<FITID>1<MEMO>\(long)</STMTTRN>"))
        #expect(result.rows.isEmpty)
        #expect(
            result.lines == [
                "o.ofx:6:55: error: [TEXT_TOO_LONG] MEMO is 9,000 bytes long; a value kept for a row has at most 8,192"
            ])
        let huge = String(repeating: "m", count: 1 << 20)
        let cdata = parse(
            Self.sgml(
                "<STMTTRN><DTPOSTED>20261002<TRNAMT>-1.00<FITID>1<MEMO><![CDATA[\(huge)]]>"
                    + "<![CDATA[\(huge)]]></STMTTRN>"))
        #expect(cdata.rows.isEmpty)
        #expect(
            cdata.lines.first?.contains("[TEXT_TOO_LONG] a value longer than 1,048,576 bytes")
                == true, "\(cdata.lines)")
    }
}
