import Foundation
import Testing

@testable import StatementKit

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Unit tests of the XML reader and of the camt.052/053/054 reader.
struct CamtParserTests {
    struct Result {
        var rows: [ParsedRow] = []
        var summary = ParseSummary()
        var diagnostics: [Diagnostic] = []

        var lines: [String] { diagnostics.map(\.textLine) }
        var total: Int64 { rows.reduce(0) { $0 + $1.transaction.amount.minorUnits } }
    }

    func parse(_ text: String) -> Result {
        var result = Result()
        var collector = DiagnosticCollector(file: "c.xml")
        result.summary = CamtParser().parse(MemoryByteSource(text), diagnostics: &collector) {
            result.rows.append($0)
        }
        result.diagnostics = collector.diagnostics
        return result
    }

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleData/formats")

    /// The element names and texts of a document as Foundation's `XMLParser` reports them.
    final class Oracle: NSObject, XMLParserDelegate {
        var events: [String] = []
        var text = ""

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            flush()
            events.append("<\(Self.localName(name))")
            for (key, value) in attributes.sorted(by: { $0.key < $1.key })
            where !key.hasPrefix("xmlns") {
                events.append("@\(key)=\(value)")
            }
        }

        func parser(
            _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
            qualifiedName: String?
        ) {
            flush()
            events.append(">\(Self.localName(name))")
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            text += String(decoding: block, as: UTF8.self)
        }

        /// A name without its namespace prefix, as our reader reports it.
        static func localName(_ name: String) -> String {
            String(name.split(separator: ":", omittingEmptySubsequences: false).last ?? "")
        }

        func flush() {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { events.append("'\(trimmed)") }
            text = ""
        }
    }

    func readerEvents(_ bytes: [UInt8]) throws -> [String] {
        var reader = XMLReader(source: MemoryByteSource(bytes))
        var events: [String] = []
        while let event = try reader.next() {
            // The text before each tag, as the oracle flushes it at each.
            if !reader.text.isEmpty { events.append("'\(reader.text)") }
            switch event {
            case .start(let number):
                events.append("<\(reader.names.name(number))")
                for attribute in reader.attributes.sorted(by: { $0.name < $1.name })
                where !attribute.name.hasPrefix("xmlns") && attribute.name != "xsi" {
                    events.append("@\(attribute.name)=\(attribute.value)")
                }
            case .end(let number):
                events.append(">\(reader.names.name(number))")
            }
        }
        return events
    }

    @Test(arguments: ["camt053-v02-sparkasse.xml", "camt053-v08-othr.xml"])
    func `reads XML as Foundation's XMLParser does`(_ file: String) throws {
        let data = try Data(contentsOf: Self.samples.appendingPathComponent(file))
        let oracle = Oracle()
        let parser = XMLParser(data: data)
        parser.delegate = oracle
        #expect(parser.parse())
        let ours = try readerEvents(Array(data))
        #expect(ours.filter { !$0.hasPrefix("@xmlns") } == oracle.events)
        #expect(ours.count > 50)
    }

    /// The sample with comments, processing instructions and CDATA written without spaces
    /// between its tags and inside its texts, as `seed` picks: legal XML all of it.
    static func marked(_ text: String, seed: UInt64) -> String {
        var random = seed
        func next() -> UInt64 {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return random >> 33
        }
        // (Not `<?pi?>`: Foundation's parser on Linux crashes on an instruction without data.)
        let markup = ["<!--x-->", "<!---->", "<?pi a?>", "<!--<Ntry>-->", "<!--a/>-->"]
        var result = ""
        var (inText, inReference) = (false, false)
        for character in text {
            // An entity reference stays whole, outside CDATA.
            if character == "&" { inReference = true }
            if inReference {
                if character == ";" { inReference = false }
                result.append(character)
                continue
            }
            if character == ">" {
                result.append(character)
                // After a start tag: text follows, which CDATA may hold.
                inText = true
                if next() % 3 == 0 { result += markup[Int(next() % UInt64(markup.count))] }
                continue
            }
            if character == "<" {
                inText = false
            } else if inText && character != "\n" && character != " " && next() % 4 == 0 {
                result += "<![CDATA[\(character)]]>"
                continue
            }
            result.append(character)
        }
        return result
    }

    @Test(arguments: 1...20)
    func `reads markup without spaces as Foundation's XMLParser does`(seed: Int) throws {
        let sample = try String(
            contentsOf: Self.samples.appendingPathComponent("camt053-v02-sparkasse.xml"),
            encoding: .utf8)
        // The declaration stays first; markup goes into the document after it.
        let end = try #require(sample.range(of: "?>"))
        let text =
            String(sample[..<end.upperBound])
            + Self.marked(String(sample[end.upperBound...]), seed: UInt64(seed))
        let oracle = Oracle()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = oracle
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(
            try readerEvents(Array(text.utf8)).filter { !$0.hasPrefix("@xmlns") } == oracle.events)
        // The statement reads the same as the plain sample.
        let plain = parse(sample)
        let marked = parse(text)
        #expect(marked.lines == plain.lines)
        #expect(marked.rows.map(\.transaction) == plain.rows.map(\.transaction))
    }

    @Test func `reads entities, CDATA, comments and prefixes`() throws {
        let events = try readerEvents(
            Array(
                """
                <?xml version="1.0"?><!-- a comment --><c:Doc xmlns:c="urn:x" a='1 &gt; 0'>\
                <c:T>A &amp; B &#228;&#x20AC;</c:T><E/><![CDATA[<raw & text>]]></c:Doc>
                """.utf8))
        #expect(
            events == [
                "<Doc", "@a=1 > 0", "<T", "'A & B ä€", ">T", "<E", ">E", "'<raw & text>", ">Doc",
            ])
    }

    @Test func `reads the encoding the XML declaration names, and refuses invalid UTF-8`() throws {
        let body =
            Array("<a>Caf".utf8) + [0xE9] + Array(" &amp; M".utf8) + [0xFC] + Array("ller</a>".utf8)
        let latin = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>".utf8) + body
        #expect(try readerEvents(latin) == ["<a", "'Café & Müller", ">a"])
        let undeclared = Array("<?xml version=\"1.0\"?>".utf8) + body
        #expect(throws: XMLSyntaxError.self) { try readerEvents(undeclared) }
    }

    @Test func `refuses malformed and hostile XML, saying where`() {
        let cases: [(String, String)] = [
            ("<a><b></a>", "1:7: </a> closes <b>"),
            ("<a>", "1:1: the file ends inside <a>"),
            (
                "<!DOCTYPE a [<!ENTITY x \"xx\">]><a>&x;</a>",
                "1:1: a document type declaration is not allowed"
            ),
            ("<a>&bogus;</a>", "1:4: unknown entity &bogus;"),
            ("<a></a><b/>", "1:8: a second root element <b>"),
            ("<a b=1/>", "1:1: attribute b of <a> is not quoted"),
            (String(repeating: "<a>", count: 65), "1:193: nesting deeper than 64 levels"),
        ]
        for (text, expected) in cases {
            var reader = XMLReader(source: MemoryByteSource(text))
            do {
                while try reader.next() != nil {}
                Issue.record("\(text) was read")
            } catch {
                #expect(
                    "\(error.line):\(error.column): \(error.message)".hasPrefix(expected),
                    "\(error)")
            }
        }
    }

    /// Every event of a reader with its name, places, text and attributes.
    static func placedEvents(_ source: some ByteSource) throws -> [String] {
        var reader = XMLReader(source: source)
        var events: [String] = []
        while let event = try reader.next() {
            let tag =
                switch event {
                case .start(let number): "<" + reader.names.name(number)
                case .end(let number): "</" + reader.names.name(number)
                }
            let attributes = reader.attributes.map { "\($0.name)=\($0.value)" }
            events.append(
                "\(tag) \(reader.eventLine):\(reader.eventColumn) '\(reader.text)' "
                    + "\(reader.textLine):\(reader.textColumn) \(attributes)")
        }
        return events
    }

    @Test(arguments: [1, 3, 7, 13, 64])
    func `reads the same events, texts and places whatever the size of each read`(step: Int)
        throws
    {
        let entry = """
            <Ntry><Amt Ccy="EUR">1.50</Amt><Amt Ccy = 'EUR' c:x="&lt;y&gt;">2</Amt>\r
            <Nm>Café &amp; Co</Nm><Nm>A<!-- c -->B<![CDATA[<C>]]>D</Nm><Ustrd>  one
              two  </Ustrd><Cd/><Empty></Empty><e a="1" b='é'/><f a="x>y"/></Ntry>

            """
        let document =
            "\u{FEFF}<?xml version=\"1.0\"?>\n<Document xmlns=\"urn:x\"><Stmt>\n"
            + String(repeating: entry, count: 40) + "</Stmt></Document>\n"
        let whole = try Self.placedEvents(MemoryByteSource(document))
        let trickled = try Self.placedEvents(
            TrickleByteSource(inner: MemoryByteSource(document), step: step))
        #expect(trickled == whole)
        #expect(whole.count == 2 + 40 * 20 + 2)
        #expect(whole[4] == "</Amt 3:26 '1.50' 3:22 [\"Ccy=EUR\"]")
        #expect(whole[6] == "</Amt 3:66 '2' 3:65 [\"Ccy=EUR\", \"x=<y>\"]")
        #expect(whole[8] == "</Nm 4:18 'Café & Co' 4:5 []")
        #expect(whole[10] == "</Nm 4:55 'AB<C>D' 4:27 []")
        #expect(whole[12] == "</Ustrd 5:8 'one\n  two' 4:67 []")
        #expect(whole[17].hasSuffix("[\"a=1\", \"b=é\"]"))
        #expect(whole[19].hasSuffix("[\"a=x>y\"]"))
    }

    @Test func `reads tags with prefixes, spaces and attributes as plain ones, over many chunks`()
        throws
    {
        let entry = { (index: Int) in
            "<Ntry><Amt Ccy=\"EUR\">\(index).10</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>"
                + "<BookgDt><Dt>2026-10-02</Dt></BookgDt><AcctSvcrRef>R\(index)</AcctSvcrRef></Ntry>\n"
        }
        let entries = (0..<2000).map(entry).joined()
        let plain =
            "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\"><BkToCstmrStmt>\n"
            + "<Stmt><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n"
            + entries + "</Stmt></BkToCstmrStmt></Document>\n"
        let prefixed =
            plain.replacingOccurrences(of: "<", with: "<c:")
            .replacingOccurrences(of: "<c:/", with: "</c:")
            .replacingOccurrences(of: "</c:Ntry>", with: "</c:Ntry >")
            .replacingOccurrences(of: "xmlns=", with: "xmlns:c=")
        let results = [parse(plain), parse(prefixed)]
        for result in results {
            #expect(result.diagnostics.isEmpty, "\(result.lines.prefix(3))")
            #expect(result.rows.count == 2000)
            #expect(result.total == (0..<2000).reduce(0) { $0 + $1 * 100 + 10 })
            #expect(result.rows.map(\.line) == Array(3..<2003))
        }
        var names = (0..<5000).map { "<e\($0)/>" }.joined()
        names = "<a>" + names + "</a>"
        var reader = XMLReader(source: MemoryByteSource(names))
        #expect(throws: XMLSyntaxError.self) { while try reader.next() != nil {} }
    }

    @Test func `reads the camt.053 samples with batches, reversals and pending entries`() throws {
        let data = try Data(
            contentsOf: Self.samples.appendingPathComponent("camt053-v02-sparkasse.xml"))
        let result = parse(String(decoding: data, as: UTF8.self))
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        #expect(result.rows.count == 4)
        #expect(result.total == 120_870)
        #expect(result.summary.notBookedCount == 1)
        #expect(result.summary.rowCount == 4)
        let batch = result.rows[1...2].map(\.transaction)
        #expect(batch.map(\.transactionID) == ["2026101500007/1", "2026101500007/2"])
        #expect(batch.map(\.beneficiary) == ["Finanzamt Köln-Mitte", "Techniker Krankenkasse"])
        #expect(batch[0].beneficiaryIBAN?.electronic == "DE02300500000123456789")
        let first = result.rows[0].transaction
        #expect(first.beneficiary == "Kunde & Partner AG")
        #expect(first.description == "Rechnung 2026-117 Danke")
        #expect(first.reference == "INV-2026-117")
        #expect(first.transactionID == "2026100200001")
        #expect(result.rows[3].transaction.reference == "RF18539007547034")
        #expect(result.summary.openingBalances.values.first?.minorUnits == 1_000_000)

        let other = parse(
            String(
                decoding: try Data(
                    contentsOf: Self.samples.appendingPathComponent("camt053-v08-othr.xml")),
                as: UTF8.self))
        #expect(other.diagnostics.isEmpty, "\(other.lines)")
        #expect(other.rows.map(\.transaction.amount.minorUnits) == [70_000, 8_000, -16_000])
        #expect(other.rows[0].account.id.text == "name:0001234567")
        #expect(other.rows[0].account.currency == Currency(code: "CHF"))
        #expect(other.rows[0].transaction.date.description == "2026-07-05")
        #expect(other.rows[0].transaction.beneficiary == "Alpenhof AG")
    }

    static func document(_ body: String) -> String {
        document("BkToCstmrStmt", "Stmt", body)
    }

    static func document(_ kind: String, _ statement: String, _ body: String) -> String {
        """
        <?xml version="1.0"?>
        <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><\(kind)><\(statement)>
        <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
        \(body)
        </\(statement)></\(kind)></Document>
        """
    }

    static func entry(
        _ amount: String, _ indicator: String = "DBIT", id: String = "R1", ccy: String = "EUR",
        extra: String = ""
    ) -> String {
        "<Ntry><Amt Ccy=\"\(ccy)\">\(amount)</Amt><CdtDbtInd>\(indicator)</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-10-03</Dt></BookgDt><AcctSvcrRef>\(id)</AcctSvcrRef>\(extra)</Ntry>"
    }

    @Test func `reports unbalanced statements and bad entries where they are`() {
        let balances = """
            <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>
            <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">9.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>
            """
        let unbalanced = parse(Self.document(balances + Self.entry("2.00")))
        #expect(
            unbalanced.lines == [
                "c.xml:5:1: error: [BALANCE_CLOSING] closing balance 9.00 differs from opening balance plus transactions, 8.00"
            ])
        let bad = parse(
            Self.document(
                Self.entry("1.005", id: "A") + "\n" + Self.entry("1.00", "DEBIT", id: "B") + "\n"
                    + Self.entry("1.00", id: "C", ccy: "USD")))
        #expect(
            bad.lines == [
                "c.xml:4:22: error: [AMOUNT_PRECISION] Amt \"1.005\": EUR has 2 decimal places",
                "c.xml:5:22: error: [ELEMENT_MISSING] <CdtDbtInd> of Amt is \"DEBIT\", not CRDT or DBIT",
                "c.xml:6:22: error: [CURRENCY_CONFLICT] Amt@Ccy \"USD\" differs from the account's currency EUR",
            ])
        let batch = parse(
            Self.document(
                Self.entry(
                    "3.00",
                    extra:
                        "<NtryDtls><TxDtls><Amt Ccy=\"EUR\">1.00</Amt></TxDtls><TxDtls><Amt Ccy=\"EUR\">1.50</Amt></TxDtls></NtryDtls>"
                )))
        #expect(
            batch.lines == [
                "c.xml:4:1: error: [BALANCE_CLOSING] the transactions of this batch entry sum to -2.50, the entry is -3.00"
            ])
        let noStatus = parse(
            Self.document(Self.entry("1.00").replacingOccurrences(of: "<Sts>BOOK</Sts>", with: "")))
        #expect(noStatus.lines == ["c.xml:4:1: error: [ELEMENT_MISSING] <Ntry> has no <Sts>"])
        #expect(noStatus.rows.isEmpty)
        let noAccount = parse(
            "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt><Stmt>\n"
                + Self.entry("1.00") + "</Stmt></BkToCstmrStmt></Document>")
        #expect(
            noAccount.lines == [
                "c.xml:1:81: error: [ELEMENT_MISSING] the statement has no <Acct><Id>"
            ])
    }

    @Test func `takes an empty or blank name, text or reference as absent, never as a blank name`()
    {
        let blank =
            "<NtryDtls><TxDtls><RltdPties><Cdtr><Nm></Nm></Cdtr></RltdPties><RmtInf><Ustrd> </Ustrd></RmtInf></TxDtls></NtryDtls>"
        let result = parse(
            Self.document(
                Self.entry("1.00", id: " ", extra: blank) + "\n"
                    + Self.entry(
                        "2.00", id: "", extra: blank + "<AddtlNtryInf>Card 42</AddtlNtryInf>")))
        #expect(result.lines.isEmpty)
        #expect(result.rows.map(\.transaction.beneficiary) == ["(no counterparty)", "Card 42"])
        #expect(
            result.rows.allSatisfy {
                $0.transaction.description == nil || $0.transaction.description == "Card 42"
            })
        // No transaction id: two blank ones are not one id given twice.
        #expect(result.rows.allSatisfy { $0.transaction.transactionID == nil })
    }

    @Test func `keeps a booking whose counterparty IBAN is damaged, with a warning`() {
        func details(_ iban: String) -> String {
            "<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Shop</Nm></Cdtr><CdtrAcct><Id><IBAN>\(iban)</IBAN></Id></CdtrAcct></RltdPties></TxDtls></NtryDtls>"
        }
        let damaged = parse(
            Self.document(Self.entry("1.00", extra: details("FR1420041010050500013M02607"))))
        #expect(damaged.rows.map(\.transaction.amount.minorUnits) == [-100])
        #expect(damaged.rows.first?.transaction.beneficiary == "Shop")
        #expect(damaged.rows.first?.transaction.beneficiaryIBAN == nil)
        #expect(
            damaged.lines == [
                "c.xml:4:216: warning: [COUNTERPARTY_IBAN] CdtrAcct/Id/IBAN \"FR1420041010050500013M02607\": check digits 14 do not match (expected 84); the bank booked the payment, so the row is kept without the counterparty's IBAN"
            ])
        let sound = parse(
            Self.document(Self.entry("1.00", extra: details("FR14 2004 1010 0505 0001 3M02 606"))))
        #expect(sound.lines.isEmpty)
        #expect(
            sound.rows.first?.transaction.beneficiaryIBAN?.electronic
                == "FR1420041010050500013M02606")
        #expect(sound.rows.first?.transaction.beneficiary == "Shop")
        // The statement's own account must still be valid.
        let own = parse(
            Self.document(Self.entry("1.00")).replacingOccurrences(
                of: "DE89370400440532013000", with: "DE89370400440532013001"))
        #expect(own.rows.isEmpty)
        #expect(own.lines.first?.contains("error: [IBAN_CHECKSUM] Acct/Id/IBAN") == true)
    }

    @Test func `leaves out a camt.052's intraday entries and reads a camt.054's bookings`() {
        let report = parse(Self.document("BkToCstmrAcctRpt", "Rpt", Self.entry("1.00")))
        #expect(report.diagnostics.isEmpty && report.rows.isEmpty)
        #expect(report.summary.notBookedCount == 1)
        let notification = parse(
            Self.document("BkToCstmrDbtCdtNtfctn", "Ntfctn", Self.entry("1.00", "CRDT")))
        #expect(notification.diagnostics.isEmpty, "\(notification.lines)")
        #expect(notification.rows.map(\.transaction.amount.minorUnits) == [100])
    }

    @Test func `detects camt by its namespace`() {
        let head = Array(Self.document("<x/>").utf8)
        #expect(StatementFormat(path: "statement.xml", head: head) == .camt)
        #expect(StatementFormat(path: "x.csv", head: head) == .camt)
    }

    @Test func `reads comments, CDATA and processing instructions written without spaces`() {
        let marked = parse(
            "\u{FEFF}"
                + Self.document(
                    "<!--Generated--><?pi?>"
                        + Self.entry("1.00").replacingOccurrences(
                            of: "1.00</Amt>", with: "<![CDATA[12.34]]></Amt>")
                        + "<!---->"))
        #expect(marked.lines.isEmpty)
        #expect(marked.rows.map(\.transaction.amount.minorUnits) == [-1234])
        // Markup inside a comment is no element, even where it looks like an empty tag.
        let commented = parse(
            Self.document("<!--a/>" + Self.entry("1000.00", "CRDT", id: "X") + "-->"))
        #expect(commented.rows.isEmpty)
        #expect(commented.lines.isEmpty || commented.lines.allSatisfy { $0.contains("warning") })
        let instruction = parse(Self.document("<?a/>" + Self.entry("1000.00", "CRDT") + "?>"))
        #expect(instruction.rows.isEmpty)
    }

    @Test func `refuses a byte order mark anywhere but before the document`() {
        let late = parse(
            Self.document(Self.entry("1.00")).replacingOccurrences(
                of: "<Document", with: "\u{FEFF}<Document"))
        #expect(late.rows.isEmpty)
        #expect(late.lines.first?.contains("[XML_SYNTAX]") == true)
    }

    @Test func `refuses a single-valued element given twice, where the second stands`() {
        let amounts = parse(
            Self.document(
                Self.entry("1.00").replacingOccurrences(
                    of: "<CdtDbtInd>", with: "<Amt Ccy=\"EUR\">1000.00</Amt><CdtDbtInd>")))
        #expect(
            amounts.lines == [
                "c.xml:4:32: error: [ELEMENT_DUPLICATE] <Amt> appears twice in <Ntry>; it has one value, and neither is taken"
            ])
        #expect(amounts.rows.isEmpty)
        let indicators = parse(
            Self.document(
                Self.entry("1.00").replacingOccurrences(
                    of: "<Sts>", with: "<CdtDbtInd>CRDT</CdtDbtInd><Sts>")))
        #expect(
            indicators.lines.first?.hasPrefix("c.xml:4:59: error: [ELEMENT_DUPLICATE] <CdtDbtInd>")
                == true)
        let dates = parse(
            Self.document(
                Self.entry("1.00").replacingOccurrences(
                    of: "</Dt>", with: "</Dt><DtTm>2026-10-04T10:00:00</DtTm>")))
        #expect(
            dates.lines.first?.contains("[ELEMENT_DUPLICATE] <DtTm> appears twice in <BookgDt>")
                == true)
        let disagreeing = parse(
            Self.document(
                Self.entry(
                    "1.00",
                    extra:
                        "<NtryDtls><TxDtls><Amt Ccy=\"EUR\">1.00</Amt><AmtDtls><TxAmt><Amt Ccy=\"EUR\">9.00</Amt></TxAmt></AmtDtls></TxDtls></NtryDtls>"
                )))
        #expect(
            disagreeing.lines.first?.contains(
                "[ELEMENT_DUPLICATE] TxDtls/Amt and TxDtls/AmtDtls/TxAmt/Amt disagree") == true)
        let agreeing = parse(
            Self.document(
                Self.entry(
                    "1.00",
                    extra:
                        "<NtryDtls><TxDtls><Amt Ccy=\"EUR\">1.00</Amt><AmtDtls><TxAmt><Amt Ccy=\"EUR\">1.00</Amt></TxAmt></AmtDtls></TxDtls></NtryDtls>"
                )))
        #expect(agreeing.lines.isEmpty)
        #expect(agreeing.rows.count == 1)
        for (index, result) in [amounts, indicators, dates, disagreeing].enumerated() {
            #expect(result.diagnostics.first?.severity == .error, "\(index)")
        }
    }

    @Test func `refuses an entry inside an entry or outside a statement`() {
        let nested = parse(
            Self.document(
                Self.entry("1.00", extra: Self.entry("1000.00", "CRDT", id: "R2"))))
        #expect(
            nested.lines.first
                == "c.xml:4:141: error: [ELEMENT_MISPLACED] <Ntry> inside <Ntry>: it belongs directly in <Stmt>, <Rpt> or <Ntfctn>"
        )
        let inBalance = parse(
            Self.document("<Bal>" + Self.entry("1.00") + "</Bal>"))
        #expect(inBalance.lines.first?.contains("[ELEMENT_MISPLACED] <Ntry> inside <Bal>") == true)
        let details = parse(
            Self.document(Self.entry("1.00", extra: "<TxDtls><Amt Ccy=\"EUR\">1.00</Amt></TxDtls>"))
        )
        #expect(details.lines.first?.contains("[ELEMENT_MISPLACED] <TxDtls> inside <Ntry>") == true)
        let statement = parse(
            Self.document("<Stmt>" + Self.entry("1.00") + "</Stmt>"))
        #expect(statement.lines.first?.contains("[ELEMENT_MISPLACED]") == true)
    }

    @Test func `reads a booking time after the day's T, and nothing else after it`() {
        let entry = { (date: String) in
            Self.entry("1.00").replacingOccurrences(
                of: "<Dt>2026-10-03</Dt>", with: "<DtTm>\(date)</DtTm>")
        }
        let good = parse(Self.document(entry("2026-10-03T10:00:00+02:00")))
        #expect(good.lines.isEmpty, "\(good.lines)")
        #expect(good.rows.first?.transaction.date == (try? Day(year: 2026, month: 10, day: 3)))
        for bad in ["2026-10-03 10:00", "2026-10-03T\u{301}10:00", "2026-10-3T10:00"] {
            let result = parse(Self.document(entry(bad)))
            #expect(result.rows.isEmpty, "\(bad)")
            #expect(
                result.lines.first?.contains("[DATE_FORMAT] BookgDt") == true, "\(result.lines)")
        }
    }

    @Test func `refuses a comment or an attribute longer than the limit, read a chunk at a time`() {
        let long = String(repeating: "c", count: 1_400_000)
        let comment = parse(Self.document("<!--\(long)-->" + Self.entry("1.00")))
        #expect(comment.rows.isEmpty)
        #expect(
            comment.lines == [
                "c.xml:4:1: error: [TEXT_TOO_LONG] markup longer than 1,048,576 bytes"
            ])
        let attribute = parse(Self.document("<X a=\"\(long)\"/>" + Self.entry("1.00")))
        #expect(attribute.rows.isEmpty)
        #expect(
            attribute.lines == [
                "c.xml:4:2: error: [TEXT_TOO_LONG] text or markup longer than 1,048,576 bytes"
            ])
    }

    @Test func `caps text however comments and CDATA split it`() {
        let piece = String(repeating: "x", count: 100_000)
        let split = parse(
            Self.document(
                Self.entry(
                    "1.00",
                    extra: "<AddtlNtryInf>"
                        + Array(repeating: piece, count: 11).joined(separator: "<!---->")
                        + "</AddtlNtryInf>")))
        #expect(split.rows.isEmpty)
        #expect(
            split.lines.first?.hasSuffix(
                "error: [TEXT_TOO_LONG] the text of <AddtlNtryInf> is longer than 1,048,576 bytes")
                == true, "\(split.lines)")
        let long = String(repeating: "y", count: 9000)
        for extra in [
            "<AddtlNtryInf>\(long)</AddtlNtryInf>",
            "<NtryDtls><TxDtls><RmtInf>"
                + String(repeating: "<Ustrd>\(long.prefix(140))</Ustrd>", count: 70)
                + "</RmtInf></TxDtls></NtryDtls>",
        ] {
            let kept = parse(Self.document(Self.entry("1.00", extra: extra)))
            #expect(kept.lines.count == 1)
            #expect(kept.lines.first?.contains("error: [TEXT_TOO_LONG]") == true, "\(kept.lines)")
            var collector = DiagnosticCollector(file: "c.xml")
            _ = CamtParser(buildsRows: false).parse(
                MemoryByteSource(Self.document(Self.entry("1.00", extra: extra))),
                diagnostics: &collector
            ) { _ in }
            #expect(collector.diagnostics.map(\.textLine) == kept.lines)
        }
    }
}
