import Foundation
import Testing

/// End-to-end tests of the camt and OFX readers against the formats' grammars and real banks'
/// files (issue 32, items 6, 7, 8, 11 and 16): generated files through the built `statements`,
/// checking exit status, diagnostics and what reaches the ledger.
struct BankFormatGrammarTests {
    /// A camt.053 statement of the account DE89 3704 0044 0532 0130 00 around `body`.
    static func camt(_ body: String, declaration: String = "<?xml version=\"1.0\"?>") -> String {
        """
        \(declaration)
        <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>
        <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
        \(body)
        </Stmt></BkToCstmrStmt></Document>

        """
    }

    /// One booked camt entry.
    static func entry(
        _ amount: String, _ indicator: String = "DBIT", id: String, extra: String = ""
    ) -> String {
        "<Ntry><Amt Ccy=\"EUR\">\(amount)</Amt><CdtDbtInd>\(indicator)</CdtDbtInd><Sts>BOOK</Sts>"
            + "<BookgDt><Dt>2026-10-03</Dt></BookgDt><AcctSvcrRef>\(id)</AcctSvcrRef>\(extra)</Ntry>"
    }

    /// An OFX 1 statement of a US account around `transactions`.
    static func ofx(_ transactions: String) -> String {
        """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102

        <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
        <BANKACCTFROM><BANKID>121000248<ACCTID>1234567890<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST>
        \(transactions)
        </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

        """
    }

    /// Writes `bytes` as `name` in a fresh workspace and runs `arguments` on it (`import`
    /// into the workspace's ledger); returns the output and, after an import, the ledger's
    /// register as CSV lines without the header.
    func run(_ name: String, _ bytes: [UInt8], _ arguments: [String] = ["import"]) throws -> (
        output: StatementsRunner.Output, register: [String]
    ) {
        let workspace = try Workspace()
        let path = workspace.path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var command = arguments + [path]
        if arguments.first == "import" { command += ["--state", workspace.state] }
        let output = try StatementsRunner.run(command)
        guard arguments.first == "import", output.status == 0 else { return (output, []) }
        let register = try StatementsRunner.run(
            ["register", "--state", workspace.state, "-f", "csv"])
        #expect(register.status == 0, "\(register.stderr)")
        // CSV lines end in CRLF, one `Character`.
        return (
            output, register.stdout.split(whereSeparator: \.isNewline).dropFirst().map(String.init)
        )
    }

    func run(_ name: String, _ text: String, _ arguments: [String] = ["import"]) throws -> (
        output: StatementsRunner.Output, register: [String]
    ) {
        try run(name, Array(text.utf8), arguments)
    }

    /// The amounts and currencies of register lines: `-5.50 USD`.
    func amounts(_ register: [String]) -> [String] {
        register.map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return fields.count == 8 ? "\(fields[5]) \(fields[6])" : line
        }
    }

    /// The first diagnostic's place and code, without the workspace's path: `6:39 [CODE]`.
    func firstDiagnostic(_ output: StatementsRunner.Output) -> String? {
        guard let line = output.stderr.split(separator: "\n").first,
            let place = line.firstMatch(of: /:(\d+:\d+): (?:error|warning): (\[[A-Z_0-9]+\])/)
        else { return nil }
        return "\(place.1) \(place.2)"
    }

    // MARK: - 6. Comments, CDATA and processing instructions

    @Test func `imports no booking from inside a camt comment and reads valid markup`() throws {
        let hidden = try run(
            "hidden.xml",
            Self.camt(
                Self.entry("1.00", id: "R1") + "<!--a/>" + Self.entry("1000.00", "CRDT", id: "R2")
                    + "-->"))
        #expect(hidden.output.status == 0, "\(hidden.output.stderr)")
        #expect(
            hidden.register == [
                "2026-10-03,DE89370400440532013000,(no counterparty),,,-1.00,EUR,-1.00"
            ])
        let valid = try run(
            "valid.xml",
            Self.camt(
                "<!--Generated--><?app version=2?>"
                    + Self.entry("<![CDATA[12.34]]>", id: "R1") + "<!---->"))
        #expect(valid.output.status == 0, "\(valid.output.stderr)")
        #expect(amounts(valid.register) == ["-12.34 EUR"])
    }

    @Test func `imports no booking from inside an OFX 2 comment and reads valid markup`() throws {
        let transaction = { (amount: String, id: String) in
            "<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20261002</DTPOSTED><TRNAMT>\(amount)</TRNAMT>"
                + "<FITID>\(id)</FITID><NAME>Shop</NAME></STMTTRN>"
        }
        let text = """
            <?xml version="1.0"?><?OFX OFXHEADER="200" VERSION="220"?><!--Generated-->
            <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD</CURDEF>
            <BANKACCTFROM><BANKID>121000248</BANKID><ACCTID>1234567890</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>
            <BANKTRANLIST><!--X/>\(transaction("1000.00", "2"))-->\(transaction("<![CDATA[-12.34]]>", "1"))
            </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """
        let result = try run("statement.ofx", text)
        #expect(result.output.status == 0, "\(result.output.stderr)")
        #expect(amounts(result.register) == ["-12.34 USD"])
    }

    // MARK: - 7. Values given twice, bookings inside bookings

    @Test func `refuses a value given twice or a booking inside another, saying where`() throws {
        let cases: [(String, String, String)] = [
            (
                "amounts.xml",
                Self.camt(
                    Self.entry("1.00", id: "R1").replacingOccurrences(
                        of: "<CdtDbtInd>", with: "<Amt Ccy=\"EUR\">1000.00</Amt><CdtDbtInd>")),
                "4:32 [ELEMENT_DUPLICATE]"
            ),
            (
                "indicators.xml",
                Self.camt(
                    Self.entry("1.00", id: "R1").replacingOccurrences(
                        of: "<Sts>", with: "<CdtDbtInd>CRDT</CdtDbtInd><Sts>")),
                "4:59 [ELEMENT_DUPLICATE]"
            ),
            (
                "nested.xml",
                Self.camt(Self.entry("1.00", id: "R1", extra: Self.entry("2.00", id: "R2"))),
                "4:141 [ELEMENT_MISPLACED]"
            ),
            (
                "amounts.ofx",
                Self.ofx(
                    "<STMTTRN><DTPOSTED>20261002<TRNAMT>-1.00<TRNAMT>-1000.00<FITID>1</STMTTRN>"),
                "8:49 [ELEMENT_DUPLICATE]"
            ),
            (
                "unclosed.ofx",
                Self.ofx(
                    "<STMTTRN><DTPOSTED>20261002<TRNAMT>-1.00<FITID>1\n"
                        + "<STMTTRN><DTPOSTED>20261003<TRNAMT>-2.00<FITID>2</STMTTRN></STMTTRN>"),
                "9:1 [ELEMENT_MISPLACED]"
            ),
        ]
        for (name, text, expected) in cases {
            let result = try run(name, text)
            #expect(result.output.status == 1, "\(name): \(result.output.stderr)")
            #expect(firstDiagnostic(result.output) == expected, "\(name): \(result.output.stderr)")
            #expect(result.output.stdout.contains("nothing imported"), "\(name)")
        }
    }

    // MARK: - 8. OFX currency aggregates

    @Test func `converts an OFX amount in another currency at its rate`() throws {
        let result = try run(
            "currency.ofx",
            Self.ofx(
                "<STMTTRN><DTPOSTED>20261002<TRNAMT>-5.00<FITID>1<NAME>Café"
                    + "<CURRENCY><CURRATE>1.10<CURSYM>EUR</CURRENCY></STMTTRN>\n"
                    + "<STMTTRN><DTPOSTED>20261003<TRNAMT>-5.50<FITID>2<NAME>Café"
                    + "<ORIGCURRENCY><CURRATE>1.10<CURSYM>EUR</ORIGCURRENCY></STMTTRN>\n"
                    + "<STMTTRN><DTPOSTED>20261004<TRNAMT>-5.00<FITID>3<NAME>Bar"
                    + "<CURRENCY><CURRATE>1.0834<CURSYM>EUR</CURRENCY></STMTTRN>"))
        #expect(result.output.status == 0, "\(result.output.stderr)")
        #expect(
            amounts(result.register) == [
                "-5.50 USD", "-5.50 USD", "-5.42 USD",
            ])
        #expect(
            firstDiagnostic(result.output) == "10:36 [DIALECT_ASSUMED]", "\(result.output.stderr)")
        let strict = try run(
            "currency.ofx",
            Self.ofx(
                "<STMTTRN><DTPOSTED>20261004<TRNAMT>-5.00<FITID>3<NAME>Bar"
                    + "<CURRENCY><CURRATE>1.0834<CURSYM>EUR</CURRENCY></STMTTRN>"),
            ["import", "--strict"])
        #expect(strict.output.status == 1)
        let noRate = try run(
            "currency.ofx",
            Self.ofx(
                "<STMTTRN><DTPOSTED>20261002<TRNAMT>-5.00<FITID>1<NAME>Café"
                    + "<CURRENCY><CURSYM>EUR</CURRENCY></STMTTRN>"))
        #expect(noRate.output.status == 1)
        #expect(firstDiagnostic(noRate.output) == "8:1 [ELEMENT_MISSING]")
    }

    // MARK: - 11. Real banks' files

    @Test func `imports OFX with CDATA, empty tags and grouped amounts`() throws {
        let result = try run(
            "suncorp.ofx",
            Self.ofx(
                "<STMTTRN><DTPOSTED>20261002<TRNAMT>+1 006,60<FITID>1<NAME><![CDATA[Acme & Co]]>"
                    + "<MEMO/></STMTTRN>\n"
                    + "<STMTTRN><DTPOSTED>20261003<TRNAMT>-6.60<FITID>2<NAME>B<MEMO/></STMTTRN>"))
        #expect(result.output.status == 0, "\(result.output.stderr)")
        #expect(
            result.register == [
                "2026-10-02,aba:121000248/1234567890,Acme & Co,,,1006.60,USD,1006.60",
                "2026-10-03,aba:121000248/1234567890,B,,,-6.60,USD,1000.00",
            ])
    }

    @Test func `imports camt with a byte order mark or a damaged counterparty IBAN`() throws {
        let bom = try run(
            "bom.xml", [0xEF, 0xBB, 0xBF] + Array(Self.camt(Self.entry("1.00", id: "R1")).utf8))
        #expect(bom.output.status == 0, "\(bom.output.stderr)")
        #expect(bom.register.count == 1)
        let details =
            "<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Shop</Nm></Cdtr><CdtrAcct><Id>"
            + "<IBAN>FR1420041010050500013M02607</IBAN></Id></CdtrAcct></RltdPties></TxDtls></NtryDtls>"
        let text = Self.camt(Self.entry("1.00", id: "R1", extra: details))
        let damaged = try run("damaged.xml", text)
        #expect(damaged.output.status == 0, "\(damaged.output.stderr)")
        #expect(firstDiagnostic(damaged.output) == "4:216 [COUNTERPARTY_IBAN]")
        #expect(damaged.register == ["2026-10-03,DE89370400440532013000,Shop,,,-1.00,EUR,-1.00"])
        let strict = try run("damaged.xml", text, ["import", "--strict"])
        #expect(strict.output.status == 1)
        let own = try run(
            "own.xml",
            text.replacingOccurrences(of: "DE89370400440532013000", with: "DE89370400440532013001"))
        #expect(own.output.status == 1)
        #expect(firstDiagnostic(own.output) == "3:17 [IBAN_CHECKSUM]")
    }

    @Test(arguments: [false, true])
    func `reads camt and OFX saved as UTF-16`(bigEndian: Bool) throws {
        func utf16(_ text: String) -> [UInt8] {
            var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
            for unit in text.utf16 {
                let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
                bytes += bigEndian ? pair : pair.reversed()
            }
            return bytes
        }
        let camt = try run(
            "utf16.xml",
            utf16(
                Self.camt(
                    Self.entry("1.00", id: "R1", extra: "<AddtlNtryInf>Café 😀</AddtlNtryInf>"),
                    declaration: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>")))
        #expect(camt.output.status == 0, "\(camt.output.stderr)")
        #expect(
            camt.register == ["2026-10-03,DE89370400440532013000,Café 😀,Café 😀,,-1.00,EUR,-1.00"])
        let ofx = try run(
            "utf16.ofx",
            utf16(Self.ofx("<STMTTRN><DTPOSTED>20261002<TRNAMT>-2.00<FITID>1<NAME>Zoë</STMTTRN>")))
        #expect(ofx.output.status == 0, "\(ofx.output.stderr)")
        #expect(ofx.register == ["2026-10-02,aba:121000248/1234567890,Zoë,,,-2.00,USD,-2.00"])
        let broken = try run(
            "broken.xml", utf16(Self.camt(Self.entry("1.00", id: "R1"))).dropLast(1), ["validate"])
        #expect(broken.output.status == 1)
        #expect(broken.output.stderr.contains("[XML_SYNTAX]"))
    }

    // MARK: - 16. Text length

    @Test func `refuses text split by comments and CDATA past its cap`() throws {
        let piece = String(repeating: "x", count: 100_000)
        let split = (0..<12).map { $0 % 2 == 0 ? piece : "<![CDATA[\(piece)]]>" }
            .joined(separator: "<!-- -->")
        let result = try run(
            "long.xml",
            Self.camt(Self.entry("1.00", id: "R1", extra: "<AddtlNtryInf>\(split)</AddtlNtryInf>")),
            ["validate"])
        #expect(result.output.status == 1)
        #expect(
            firstDiagnostic(result.output) == "4:155 [TEXT_TOO_LONG]", "\(result.output.stderr)")
        #expect(result.output.stderr.contains("is longer than 1,048,576 bytes"))
        let kept = try run(
            "kept.xml",
            Self.camt(
                Self.entry(
                    "1.00", id: "R1",
                    extra: "<AddtlNtryInf>\(piece.prefix(9000))</AddtlNtryInf>")))
        #expect(kept.output.status == 1)
        #expect(firstDiagnostic(kept.output) == "4:155 [TEXT_TOO_LONG]", "\(kept.output.stderr)")
    }
}
