import Foundation
import Testing

/// Issue #34: every balance a statement states is an assertion the ledger keeps and checks
/// after every import, whatever order the files arrive in.
struct BalanceAssertionTests {
    static let household = "DE89370400440532013000"

    /// `SampleData/good/2026-10-household.csv` cut into files of its rows 1–5, 6–8 and 9–11
    /// (1-based, a record may span lines), each with the header.
    static func householdParts(in workspace: Workspace) throws -> [String] {
        let text = try String(
            contentsOfFile: StatementsRunner.packageRoot.path
                + "/SampleData/good/2026-10-household.csv", encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines.removeFirst()
        var records: [String] = []
        for line in lines where !line.isEmpty {
            if line.hasPrefix("2026-") {
                records.append(line)
            } else {
                records[records.count - 1] += "\n" + line
            }
        }
        #expect(records.count == 11)
        return try [(0..<5, "a"), (5..<8, "b"), (8..<11, "c")].map { range, name in
            try workspace.write(
                "\(name).csv", ([header] + records[range]).joined(separator: "\n") + "\n")
        }
    }

    @Test func `reports a missing statement with its date range and exits 1 until it arrives`()
        throws
    {
        let workspace = try Workspace()
        let parts = try Self.householdParts(in: workspace)
        let first = try StatementsRunner.run(["import", parts[0], "--state", workspace.state])
        #expect(first.status == 0, "\(first.stderr)")
        // Rows 9–11 the next night: rows 6–8 (€1,329.17 of bookings) are missing.
        let gap = try StatementsRunner.run(["import", parts[2], "--state", workspace.state])
        #expect(gap.status == 1)
        #expect(
            gap.stderr == """
                \(parts[2]):2:1: error: [BALANCE_ASSERTION] the bank states 1692.08 EUR for \(Self.household) at the end of 2026-10-21; the ledger has 3021.25 EUR, 1329.17 EUR more: a statement covering 2026-10-03 … 2026-10-21 may be missing, or a booking was imported twice; 1 later balance differs by as much

                """)
        #expect(
            gap.stdout == """
                added 3 new transactions from 1 file, 0 already present
                out of balance  \(Self.household): since 2026-10-21 the ledger has 1,329.17 EUR more than the bank states

                """)
        // The rows stay; the account says it is out of balance.
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(
            accounts.stdout.contains(
                "  DE89 3704 0044 0532 0130 00: 1,627.18 EUR at the end of 2026-10-29, the ledger has 2,956.35 EUR, 1,329.17 EUR more; out of balance since 2026-10-21, 1,329.17 EUR more\n"
            ))
        let json = try StatementsRunner.run([
            "accounts", "--state", workspace.state, "--format", "json",
        ])
        #expect(
            json.stdout.contains(
                "\"outOfBalance\": {\"since\": \"2026-10-21\", \"difference\": {\"minorUnits\": 132917, \"decimal\": \"1329.17\"}}"
            ))
        let check = try StatementsRunner.run(["check", "--state", workspace.state])
        #expect(check.status == 1)
        #expect(
            check.stderr
                == "statements check: error: [BALANCE_ASSERTION] \(Self.household) is out of balance with its bank since 2026-10-21: the ledger has 1,329.17 EUR more than the bank states\n"
        )
        // The missing file a night later: every balance holds again, and the run says so.
        let cleared = try StatementsRunner.run(["import", parts[1], "--state", workspace.state])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stderr.isEmpty)
        #expect(
            cleared.stdout == """
                added 3 new transactions from 1 file, 0 already present
                in balance again  \(Self.household): every balance the bank stated holds

                """)
        let after = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(
            after.stdout.contains(
                "  DE89 3704 0044 0532 0130 00: 1,627.18 EUR at the end of 2026-10-29, the ledger agrees\n"
            ))
        #expect(try StatementsRunner.run(["check", "--state", workspace.state]).status == 0)
    }

    @Test func `asserts no balance that bookings out of day order straddle`() throws {
        let workspace = try Workspace()
        // Two pages of one statement; the second books a day before the first page's entry,
        // so no end of a day holds the first page's balances.
        let file = try workspace.write(
            "pages.sta",
            """
            :20:STMT1
            :25:DE46370400440091000170
            :28C:00001/001
            :60F:C261001EUR100,00
            :61:261015C0,01NTRFNONREF
            :86:First page
            :62M:C261031EUR100,01
            -
            :20:STMT2
            :25:DE46370400440091000170
            :28C:00001/002
            :60M:C261001EUR100,01
            :61:261010C0,30NMSCREF10
            :86:Second page
            :62F:C261031EUR100,31
            -

            """)
        let output = try StatementsRunner.run(["import", file, "-s", workspace.state])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        #expect(try StatementsRunner.run(["check", "-s", workspace.state]).status == 0)
        let accounts = try ProfileCommandTests.accounts(workspace.state)
        #expect(accounts.map(ProfileCommandTests.balance) == ["100.31"])
    }

    @Test func `asserts no balance of statements that share a line with each other's rows`()
        throws
    {
        let workspace = try Workspace()
        func balance(_ code: String, _ amount: String, _ day: String) -> String {
            "<Bal><Tp><CdOrPrtry><Cd>\(code)</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">\(amount)</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>\(day)</Dt></Dt></Bal>"
        }
        func entry(_ amount: String, _ day: String, _ id: String) -> String {
            "<Ntry><Amt Ccy=\"EUR\">\(amount)</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>\(day)</Dt></BookgDt><AcctSvcrRef>\(id)</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Payer</Nm></Dbtr></RltdPties></TxDtls></NtryDtls></Ntry>"
        }
        func statement(_ iban: String, _ body: String) -> String {
            "<Stmt><Id>\(iban)</Id><CreDtTm>2026-11-01T06:00:00</CreDtTm><Acct><Id><IBAN>\(iban)</IBAN></Id></Acct>\(body)</Stmt>"
        }
        // A compact document whose first amount spans lines: the first statement's last
        // booking (2026-10-22) is on the line where the second statement starts.
        let first = statement(
            "DE89370400440532013000",
            balance("OPBD", "0.00", "2026-10-01") + balance("CLBD", "3.00", "2026-10-31")
                + entry(" 1.00\n", "2026-10-15", "A1") + entry("2.00", "2026-10-22", "A2"))
        let second = statement(
            "DE62370400440532013001",
            balance("OPBD", "5.00", "2026-10-01") + balance("CLBD", "6.00", "2026-10-31")
                + entry("1.00", "2026-10-03", "B1"))
        let file = try workspace.write(
            "compact.xml",
            "<?xml version=\"1.0\"?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt><GrpHdr><MsgId>M</MsgId><CreDtTm>2026-11-01T06:00:00</CreDtTm></GrpHdr>"
                + first + second + "</BkToCstmrStmt></Document>\n")
        let output = try StatementsRunner.run(["import", file, "-s", workspace.state])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("added 3 new transactions from 1 file"))
        #expect(try StatementsRunner.run(["check", "-s", workspace.state]).status == 0)
    }

    @Test func `reports the balance check in the import's JSON`() throws {
        let workspace = try Workspace()
        let parts = try Self.householdParts(in: workspace)
        _ = try StatementsRunner.run(["import", parts[0], "--state", workspace.state])
        let output = try StatementsRunner.run([
            "import", parts[2], "--state", workspace.state, "-f", "json",
        ])
        #expect(output.status == 1)
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let balances = try #require(document["balances"] as? [[String: Any]])
        #expect(balances.count == 1)
        #expect(balances[0]["account"] as? String == Self.household)
        #expect(balances[0]["cleared"] as? Bool == false)
        let state = try #require(balances[0]["outOfBalance"] as? [String: Any])
        #expect(state["since"] as? String == "2026-10-21")
        let diagnostics = try #require(balances[0]["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["BALANCE_ASSERTION"])
        #expect(diagnostics.map { $0["line"] as? Int } == [2])
    }

    @Test(arguments: [[2, 1, 0], [1, 2, 0], [2, 0, 1], [0, 1, 2]])
    func `gives the bank's balance whatever order the parts arrive in, a backfill too`(
        order: [Int]
    ) throws {
        let workspace = try Workspace()
        let parts = try Self.householdParts(in: workspace)
        var statuses: [Int32] = []
        for index in order {
            statuses.append(
                try StatementsRunner.run(["import", parts[index], "--state", workspace.state])
                    .status)
        }
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("  11  1,619.68  "), "\(accounts.stdout)")
        #expect(accounts.stdout.contains("the ledger agrees"))
        // Only a run that leaves a gap (the first and the last part without the middle one)
        // exits 1; the last run always leaves the account in balance.
        #expect(statuses.last == 0)
        #expect(statuses.filter { $0 != 0 }.count == (order.prefix(2).sorted() == [0, 2] ? 1 : 0))
    }

    @Test func `reports the bookings of a camt and an MT940 of one account with other ids`() throws
    {
        let workspace = try Workspace()
        let mt940 = try workspace.write(
            "sparkasse.sta",
            """
            :20:STMT
            :25:DE86500502010001234567
            :28C:1
            :60F:C260930EUR10000,00
            :61:2610021002CR2500,00NTRFNONREF//MT-1
            :61:2610151015DR1250,00NTRFNONREF//MT-2
            :61:2610201020DR41,30NDDTNONREF//MT-3
            :62F:C261020EUR11208,70
            -

            """)
        let camt = "SampleData/formats/camt053-v02-sparkasse.xml"
        #expect(
            try StatementsRunner.run(["import", camt, "--state", workspace.state]).status == 0)
        let doubled = try StatementsRunner.run(["import", mt940, "--state", workspace.state])
        #expect(doubled.status == 1)
        // Every booking twice: the difference is their sum, 2,500.00 − 1,250.00 − 41.30.
        // Both files state the closing balance; the ledger names the first by path.
        #expect(
            doubled.stderr == """
                \(mt940):8:1: error: [BALANCE_ASSERTION] the bank states 11208.70 EUR for DE86500502010001234567 at the end of 2026-10-20; the ledger has 12417.40 EUR, 1208.70 EUR more: a statement covering 2026-10-02 … 2026-10-20 may be missing, or a booking was imported twice; 1 later balance differs by as much

                """)
        #expect(
            doubled.stdout.hasSuffix(
                "since 2026-10-20 the ledger has 1,208.70 EUR more than the bank states\n"))
    }

    @Test func `reports an OFX LEDGERBAL and a camt CLBD the ledger does not hold`() throws {
        let workspace = try Workspace()
        for file in ["ofx2-savings.ofx", "camt053-v02-sparkasse.xml"] {
            let imported = try StatementsRunner.run([
                "import", "SampleData/formats/" + file, "--state", workspace.state,
            ])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        // November's statements without bookings, whose balances say some are missing.
        let ofx = try workspace.write(
            "november.ofx",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
            <OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1</TRNUID><STMTRS><CURDEF>CAD</CURDEF>
            <BANKACCTFROM><BANKID>000312345</BANKID><ACCTID>98765-43</ACCTID><ACCTTYPE>SAVINGS</ACCTTYPE></BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20261101</DTSTART><DTEND>20261130</DTEND></BANKTRANLIST>
            <LEDGERBAL><BALAMT>10600.00</BALAMT><DTASOF>20261130</DTASOF></LEDGERBAL>
            </STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

            """)
        let camt = try workspace.write(
            "november.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
            <GrpHdr><MsgId>N</MsgId><CreDtTm>2026-12-01T06:00:00</CreDtTm></GrpHdr>
            <Stmt><Id>N1</Id><CreDtTm>2026-12-01T06:00:00</CreDtTm>
            <Acct><Id><IBAN>DE86500502010001234567</IBAN></Id><Ccy>EUR</Ccy></Acct>
            <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">11000.00</Amt>
            <CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-30</Dt></Dt></Bal>
            </Stmt></BkToCstmrStmt></Document>

            """)
        let output = try StatementsRunner.run(["import", ofx, camt, "--state", workspace.state])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                "\(camt):6:1: error: [BALANCE_ASSERTION] the bank states 11000.00 EUR for DE86500502010001234567 at the end of 2026-11-30; the ledger has 11208.70 EUR, 208.70 EUR more: a statement covering 2026-11-01 … 2026-11-30 may be missing"
            ))
        #expect(
            output.stderr.contains(
                "\(ofx):6:1: error: [BALANCE_ASSERTION] the bank states 10600.00 CAD for name:000312345-98765-43 at the end of 2026-11-30; the ledger has 10504.12 CAD, 95.88 CAD less: a statement covering 2026-11-01 … 2026-11-30 may be missing"
            ))
    }

    @Test func `says in every report format where the bank's balance and the ledger's differ`()
        throws
    {
        let workspace = try Workspace()
        let parts = try Self.householdParts(in: workspace)
        let out = workspace.path + "/reports"
        for part in [parts[0], parts[2]] {
            _ = try StatementsRunner.run([
                "process", part, "--state", workspace.state, "--out", out,
            ])
        }
        let base = out + "/2026-10/\(Self.household)"
        let text = try String(contentsOfFile: base + ".txt", encoding: .utf8)
        #expect(
            text.contains(
                "Closing balance  €2,948.85\nBank balance Oct 21, 2026: €1,692.08; difference €1,329.17\n"
            ))
        #expect(text.contains("Bank balance Oct 29, 2026: €1,627.18; difference €1,329.17\n\n"))
        let csv = try String(contentsOfFile: base + ".csv", encoding: .utf8)
        #expect(
            csv.hasSuffix(
                "2026-10-29,Bank balance,ledger 2956.35 difference 1329.17,,,1627.18,EUR,DE89370400440532013000\r\n"
                    + "2026-10-31,Closing balance,,,,2948.85,EUR,DE89370400440532013000\r\n"))
        let html = try String(contentsOfFile: base + ".html", encoding: .utf8)
        #expect(
            html.contains(
                "<dt>Bank balance Oct 21, 2026</dt><dd><span class=\"num\">€1,692.08</span> (difference <span class=\"num\">€1,329.17</span>)</dd>"
            ))
        // The missing part arrives: the statements agree with the bank again.
        _ = try StatementsRunner.run([
            "process", parts[1], "--state", workspace.state, "--out", out,
        ])
        #expect(
            !(try String(contentsOfFile: base + ".txt", encoding: .utf8)).contains("Bank balance"))
    }

    @Test func `keeps the accounts and balances of statements without bookings`() throws {
        let workspace = try Workspace()
        // Two accounts in one OFX file, each with a ledger balance and no transaction.
        let statement = { (account: String, balance: String) in
            """
            <STMTTRNRS><TRNUID>1</TRNUID><STMTRS><CURDEF>USD</CURDEF>
            <BANKACCTFROM><BANKID>121000248</BANKID><ACCTID>\(account)</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>
            <LEDGERBAL><BALAMT>\(balance)</BALAMT><DTASOF>20261031120000</DTASOF></LEDGERBAL>
            </STMTRS></STMTTRNRS>
            """
        }
        let ofx = try workspace.write(
            "two.ofx",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
            <OFX><BANKMSGSRSV1>
            \(statement("1111", "250.00"))
            \(statement("2222", "-12.50"))
            </BANKMSGSRSV1></OFX>

            """)
        let imported = try StatementsRunner.run(["import", ofx, "--state", workspace.state])
        #expect(imported.status == 0, "\(imported.stderr)")
        let accounts = try StatementsRunner.run([
            "accounts", "--state", workspace.state, "--format", "json",
        ])
        let list = try #require(
            JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]])
        #expect(list.map { $0["id"] as? String } == ["aba:121000248/1111", "aba:121000248/2222"])
        #expect(
            list.map { ($0["balance"] as? [String: Any])?["decimal"] as? String } == [
                "250.00", "-12.50",
            ])
        #expect(list.map { $0["transactionCount"] as? Int } == [0, 0])
        // Reports: a statement of the balance for the month it was stated in.
        let out = workspace.path + "/reports"
        let report = try StatementsRunner.run([
            "report", "--state", workspace.state, "--month", "2026-10", "--out", out,
        ])
        #expect(report.status == 0, "\(report.stderr)")
        let text = try String(
            contentsOfFile: out + "/2026-10/aba_121000248_2222.txt", encoding: .utf8)
        #expect(text.contains("Opening balance  -$12.50\nClosing balance  -$12.50\n"))
    }

    @Test func `rejects under strict a file that leaves an account out of balance`() throws {
        let workspace = try Workspace()
        let parts = try Self.householdParts(in: workspace)
        #expect(
            try StatementsRunner.run(["import", parts[0], "--state", workspace.state]).status == 0)
        let strict = try StatementsRunner.run([
            "import", parts[2], "--state", workspace.state, "--strict",
        ])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("\(parts[2]):2:1: error: [BALANCE_ASSERTION]"))
        #expect(strict.stdout.contains("rejected  \(parts[2]): 1 error, nothing imported"))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("  5  3,001.26  "), "\(accounts.stdout)")
        #expect(try StatementsRunner.run(["check", "--state", workspace.state]).status == 0)
    }

    @Test func `checks the statements of one file against each other`() throws {
        let output = try StatementsRunner.run([
            "import", "SampleData/bad/balance-assertion.json", "--state",
            try Workspace().state,
        ])
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "SampleData/bad/balance-assertion.json:8:1: error: [BALANCE_ASSERTION] the bank states 6400.00 EUR for NL91ABNA0417164300 at the end of 2026-11-29; the file's statements give 6200.00 EUR, 200.00 EUR less: a statement covering 2026-10-16 … 2026-11-29 may be missing, or a booking was imported twice; 1 later balance differs by as much\n"
        )
    }
}
