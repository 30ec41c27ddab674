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
        let result = try sample("ofx1-wellsfargo-checking.ofx")
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        #expect(result.rows.map(\.transaction.amount.minorUnits) == [320_000, -145_000, -2_347])
        let account = try #require(result.rows.first?.account)
        #expect(account.id.text == "aba:121000248/1234567890")
        #expect(account.currency == Currency(code: "USD"))
        #expect(
            result.rows.map(\.transaction.transactionID) == ["202610011", "202610052", "202610123"])
        #expect(result.rows[1].transaction.reference == "1042")
        #expect(result.rows[2].transaction.beneficiary == "CAFÉ BLEU & CO")
        #expect(result.rows[2].transaction.date.description == "2026-10-12")
        // LEDGERBAL 2,726.53 after +1,726.53 of rows: the account opened at 1,000.00.
        #expect(result.summary.openingBalances[account.id]?.minorUnits == 100_000)
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

    @Test func `detects OFX and QFX by content`() {
        #expect(
            StatementFormat(path: "a.qfx", head: Array("OFXHEADER:100\nDATA:OFXSGML".utf8)) == .ofx)
        #expect(
            StatementFormat(
                path: "a.xml",
                head: Array("<?xml version=\"1.0\"?><?OFX OFXHEADER=\"200\"?><OFX>".utf8))
                == .ofx)
    }
}
