import Foundation
import Testing

/// Where a stated balance holds (issue #34, the red team's findings): a running balance after
/// its row, a file's latest day perhaps only in part, a closing balance at the day its
/// statement gives, a statement without balances as a statement of its own.
struct BalancePlacementTests {
    static let header =
        "date,account_iban,account_name,account_kind,amount,currency,beneficiary,beneficiary_iban,description,reference,balance\n"

    /// A canonical CSV row of the test account.
    static func row(_ day: String, _ amount: String, _ reference: String, _ balance: String = "")
        -> String
    {
        "2026-10-\(day),DE89370400440532013000,A,checking,\(amount),EUR,X,,d,\(reference),\(balance)\n"
    }

    /// Imports files one run each; the exit statuses, and `accounts` and `check` after.
    static func importEach(_ files: [String], _ workspace: Workspace) throws
        -> (statuses: [Int32], accounts: String, check: Int32)
    {
        let statuses = try files.map {
            try StatementsRunner.run(["import", $0, "--state", workspace.state]).status
        }
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state]).stdout
        let check = try StatementsRunner.run(["check", "--state", workspace.state]).status
        return (statuses, accounts, check)
    }

    @Test func `holds a running balance after its row, not at the end of its day`() throws {
        let workspace = try Workspace()
        // 0 + 100 − 10 = 90 after the second of three rows of the day; the day ends at 85.
        let middle = try workspace.write(
            "m.csv",
            Self.header + Self.row("01", "100.00", "R1") + Self.row("01", "-10.00", "R2", "90.00")
                + Self.row("01", "-5.00", "R3") + Self.row("02", "1.00", "R4", "86.00"))
        let result = try Self.importEach([middle], workspace)
        #expect(result.statuses == [0])
        #expect(
            result.accounts.contains("85.00 EUR at the end of 2026-10-01"), "\(result.accounts)")
        #expect(result.accounts.contains("the ledger agrees"))
        #expect(result.check == 0)
    }

    @Test func `takes a file's latest day as perhaps partial, so an overlapping export agrees`()
        throws
    {
        let workspace = try Workspace()
        // Exported at noon on the 2nd, then again later: the 2nd had one more booking.
        let noon = try workspace.write(
            "noon.csv",
            Self.header + Self.row("01", "100.00", "R1", "100.00")
                + Self.row("02", "-10.00", "R2", "90.00"))
        let later = try workspace.write(
            "later.csv",
            Self.header + Self.row("02", "-10.00", "R2", "90.00")
                + Self.row("02", "-5.00", "R3", "85.00") + Self.row("03", "-1.00", "R4", "84.00"))
        let result = try Self.importEach([noon, later], workspace)
        #expect(result.statuses == [0, 0])
        #expect(result.accounts.contains("  84.00  "), "\(result.accounts)")
        #expect(result.check == 0)
        // A file starting within a day asserts nothing about the day before it.
        let other = try Workspace()
        let morning = try other.write(
            "morning.csv", Self.header + Self.row("05", "50.00", "S1", "50.00"))
        let afternoon = try other.write(
            "afternoon.csv",
            Self.header + Self.row("05", "-20.00", "S2", "30.00")
                + Self.row("06", "-1.00", "S3", "29.00"))
        #expect(try Self.importEach([afternoon, morning], other).statuses == [0, 0])
    }

    @Test func `places a camt closing balance and an OFX ledger balance at the day they give`()
        throws
    {
        let workspace = try Workspace()
        // The bank closes October at 110.00; a stray booking of the 25th was imported too.
        let camt = try workspace.write(
            "october.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
            <GrpHdr><MsgId>A</MsgId><CreDtTm>2026-11-01T06:00:00</CreDtTm></GrpHdr>
            <Stmt><Id>A</Id><CreDtTm>2026-11-01T06:00:00</CreDtTm>
            <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
            <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-09-30</Dt></Dt></Bal>
            <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">110.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-10-31</Dt></Dt></Bal>
            <Ntry><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-10-05</Dt></BookgDt><AcctSvcrRef>A-1</AcctSvcrRef></Ntry>
            </Stmt></BkToCstmrStmt></Document>

            """)
        let stray = try workspace.write(
            "stray.csv", Self.header + Self.row("25", "1.00", "B-1", "111.00"))
        let output = try StatementsRunner.run(["import", camt, stray, "--state", workspace.state])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                "october.xml:7:1: error: [BALANCE_ASSERTION] the bank states 110.00 EUR for DE89370400440532013000 at the end of 2026-10-31; the ledger has 111.00 EUR, 1.00 EUR more"
            ), "\(output.stderr)")
        // October downloaded on 5 November: its ledger balance holds then, after a booking
        // of 3 November that the November statement lists.
        func ofx(_ asOf: String, _ balance: String, _ rows: [(String, String, String)]) -> String {
            let list = rows.map { day, amount, id in
                "<STMTTRN><TRNTYPE>OTHER</TRNTYPE><DTPOSTED>\(day)</DTPOSTED><TRNAMT>\(amount)</TRNAMT><FITID>\(id)</FITID><NAME>x</NAME></STMTTRN>"
            }.joined()
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
                <OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1</TRNUID><STMTRS><CURDEF>USD</CURDEF>
                <BANKACCTFROM><BANKID>121000248</BANKID><ACCTID>1234567890</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>
                <BANKTRANLIST><DTSTART>20261001</DTSTART><DTEND>20261130</DTEND>\(list)</BANKTRANLIST>
                <LEDGERBAL><BALAMT>\(balance)</BALAMT><DTASOF>\(asOf)</DTASOF></LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

                """
        }
        let other = try Workspace()
        let october = try other.write(
            "oct.ofx",
            ofx("20261105", "85.00", [("20261001", "100.00", "F1"), ("20261005", "-10.00", "F2")]))
        let november = try other.write(
            "nov.ofx", ofx("20261130", "85.00", [("20261103", "-5.00", "F3")]))
        let result = try Self.importEach([october, november], other)
        #expect(result.statuses == [0, 0])
        #expect(result.check == 0)
    }

    @Test func `places a closing balance within its own statement, not the next one's rows`()
        throws
    {
        let workspace = try Workspace()
        let account =
            #"{"iban":"DE89370400440532013000","name":"A","kind":"checking","currency":"EUR"}"#
        // 100.00 − 5.00 = 95.00 at the end of the 2nd; the second statement states nothing.
        let file = try workspace.write(
            "pages.json",
            """
            [{"account":\(account),"openingBalance":"100.00","closingBalance":"95.00",
              "transactions":[{"date":"2026-10-02","amount":"-5.00","beneficiary":"x","reference":"E0"}]},
             {"account":\(account),
              "transactions":[{"date":"2026-10-03","amount":"-5.00","beneficiary":"x","reference":"E1"}]}]

            """)
        let result = try Self.importEach([file], workspace)
        #expect(result.statuses == [0])
        #expect(result.accounts.contains("  90.00  "), "\(result.accounts)")
        #expect(result.accounts.contains("95.00 EUR at the end of 2026-10-02, the ledger agrees"))
        #expect(result.check == 0)
    }

    @Test func `shows a balance stated in a month without bookings in the latest statement`()
        throws
    {
        let workspace = try Workspace()
        let october = try workspace.write(
            "october.csv",
            Self.header + Self.row("01", "100.00", "R1", "100.00")
                + Self.row("02", "-10.00", "R2", "90.00") + Self.row("03", "-1.00", "R3", "89.00"))
        // November states a balance and no booking: 1.00, where the ledger holds 89.00.
        let november = try workspace.write(
            "november.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
            <GrpHdr><MsgId>N</MsgId><CreDtTm>2026-11-16T06:00:00</CreDtTm></GrpHdr>
            <Stmt><Id>N</Id><CreDtTm>2026-11-16T06:00:00</CreDtTm>
            <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
            <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-15</Dt></Dt></Bal>
            </Stmt></BkToCstmrStmt></Document>

            """)
        let out = workspace.path + "/reports"
        let output = try StatementsRunner.run([
            "process", october, november, "--state", workspace.state, "--out", out,
        ])
        #expect(output.status == 1)
        let text = try String(
            contentsOfFile: out + "/2026-10/DE89370400440532013000.txt", encoding: .utf8)
        #expect(text.contains("Bank balance Nov 15, 2026: €1.00; difference €88.00"), "\(text)")
    }

    @Test func `asserts the end of a day that is not the file's latest, and no single-day file`()
        throws
    {
        let workspace = try Workspace()
        // 85.00 at the end of the 14th (the 15th's row follows); a later file books a stray
        // 7.00 on the 14th.
        let first = try workspace.write(
            "m1.csv",
            Self.header + Self.row("13", "90.00", "R1", "90.00")
                + Self.row("14", "-5.00", "R3", "85.00") + Self.row("15", "-1.00", "R4"))
        let stray = try workspace.write(
            "m2.csv",
            Self.header + Self.row("14", "-7.00", "R5") + Self.row("16", "-2.00", "R6", "75.00"))
        #expect(try Self.importEach([first, stray], workspace).statuses == [0, 1])
        // A file of one day may start within it: it asserts nothing about the day before.
        let other = try Workspace()
        let full = try other.write(
            "f0.csv",
            Self.header + Self.row("13", "93.00", "R1", "93.00")
                + Self.row("14", "-3.00", "R0", "90.00"))
        let rest = try other.write("s1.csv", Self.header + Self.row("14", "-5.00", "R3", "85.00"))
        let later = try other.write("s2.csv", Self.header + Self.row("20", "-1.00", "R9", "84.00"))
        let result = try Self.importEach([full, rest, later], other)
        #expect(result.statuses == [0, 0, 0])
        #expect(result.check == 0)
    }
}
