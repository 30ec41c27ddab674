import Foundation
import Testing

/// End-to-end tests of bank dialects: sample profiles, sniffing, `statements profile`, and
/// the misreads the issue names.
struct ProfileCommandTests {
    /// Each sample profile's account: IBAN, currency, transaction count and balance, worked
    /// out by hand from the sample export.
    static let sampleAccounts: [(id: String, currency: String, count: Int, balance: String)] = [
        ("BE68539007547034", "EUR", 3, "911.55"),
        ("CH8100230023012345678", "CHF", 3, "5175.25"),
        ("DE40500502010009876543", "EUR", 4, "2657.42"),
        ("DE77100100100123456789", "EUR", 5, "1446.10"),
        ("ES9121000418450200051332", "EUR", 3, "1702.10"),
        ("FR7630006000011234567890189", "EUR", 4, "1004.50"),
        ("GB29NWBK60161331926819", "GBP", 4, "2995.88"),
        ("aba:021000021/123456789", "USD", 4, "3203.01"),
        ("aba:111000025/4410021123", "USD", 3, "1726.43"),
        ("aba:111000025/4410025521", "USD", 2, "501.27"),
        ("card:amex/1009", "USD", 4, "-1194.04"),
        ("NL18RABO0123459876", "EUR", 3, "1504.40"),
        ("NL36INGB0007654321", "EUR", 4, "2336.33"),
    ]

    /// The accounts of a ledger, from `accounts --format json`.
    static func accounts(_ state: String) throws -> [[String: Any]] {
        let output = try StatementsRunner.run(["accounts", "--state", state, "--format", "json"])
        #expect(output.status == 0)
        return try #require(
            JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
    }

    static func balance(_ account: [String: Any]) -> String? {
        (account["balance"] as? [String: Any])?["decimal"] as? String
    }

    @Test func `validates and imports every sample profile with exact totals`() throws {
        let validation = try StatementsRunner.run(["validate", "--strict", "SampleData/profiles"])
        #expect(validation.status == 0, "\(validation.stderr)")
        #expect(validation.stderr == "")
        #expect(validation.stdout == "no errors in 12 files (46 rows checked)\n")
        let workspace = try Workspace()
        let imported = try StatementsRunner.run([
            "import", "SampleData/profiles", "--state", workspace.state,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let accounts = try Self.accounts(workspace.state)
        #expect(accounts.count == Self.sampleAccounts.count)
        for expected in Self.sampleAccounts {
            let account = accounts.first { $0["id"] as? String == expected.id }
            #expect(account?["currency"] as? String == expected.currency, "\(expected.id)")
            #expect(account?["transactionCount"] as? Int == expected.count, "\(expected.id)")
            #expect(account.flatMap(Self.balance) == expected.balance, "\(expected.id)")
        }
    }

    @Test func `applies a profile given with --profile to a file elsewhere`() throws {
        let workspace = try Workspace()
        let export = workspace.path + "/export.csv"
        try FileManager.default.copyItem(
            atPath: StatementsRunner.packageRoot.path
                + "/SampleData/profiles/de-girokonto/umsaetze-2026-10.csv", toPath: export)
        let profile = "SampleData/profiles/de-girokonto/statements-profile.json"
        let output = try StatementsRunner.run([
            "validate", "--strict", "--profile", profile, export,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "no errors in 1 file (5 rows checked)\n")
        let process = try StatementsRunner.run([
            "process", export, "--profile", profile, "--state", workspace.state, "--out",
            workspace.path + "/out", "--report-format", "csv",
        ])
        #expect(process.status == 0, "\(process.stderr)")
        let csv = try String(
            contentsOfFile: workspace.path + "/out/2026-10/DE77100100100123456789.csv",
            encoding: .utf8)
        #expect(
            csv.contains("2026-10-12,Finanzamt Köln-Mitte,ESt-Vorauszahlung IV/2026,,-1000.00,"))
    }

    @Test func `refuses an unusable profile as a usage error naming the key`() throws {
        let workspace = try Workspace()
        let cases: [(json: String, message: String)] = [
            (#"{"separator": ";", "colums": {}}"#, "colums: unknown key"),
            (
                #"{"columns": {"date": "Datum", "amount": "Betrag", "payee": "X"}}"#,
                "columns.payee: unknown key"
            ),
            (#"{"decimalMark": ";"}"#, "decimalMark: must be one of"),
            (#"{"dateFormat": "dd.MM.yyyy Q"}"#, "dateFormat: date format"),
            (#"{"account": {"name": "Cash"}}"#, "account: alone needs the account's"),
            (
                #"{"notBooked": ["Pending"], "columns": {"date": "D", "amount": "A", "description": "T", "account_iban": "K"}}"#,
                "notBooked: and columns.status go together"
            ),
            (
                #"{"footerLines": 1, "footer": {"closingBalance": {"line": 2, "field": 2}}, "columns": {"date": "D", "amount": "A", "description": "T"}, "account": {"id": "name:cash"}}"#,
                "footer.closingBalance.line: counts the 1 footer line from the last up"
            ),
            (
                #"{"preamble": {"openingBalance": {"line": 1, "field": 2}}, "headerLine": 2, "columns": {"date": "D", "amount": "A", "description": "T", "account_iban": "K"}}"#,
                "statement balances need a file of one account"
            ),
            (#"{"headerLine": -1}"#, "headerLine: must be a whole number of at least 0"),
            (#"{"headerLine": 0}"#, "columns: a file without header row (headerLine 0) needs"),
            (#"{"encoding": "ebcdic"}"#, "encoding: must be one of"),
            (
                #"{"account": {"iban": "DE89370400440532013001"}}"#,
                "account.iban \"DE89370400440532013001\": check digits"
            ),
            (
                #"{"sign": "debit-credit", "columns": {"date": "D", "amount": "A", "description": "T", "account_iban": "K"}}"#,
                "columns: needs debit"
            ),
            (
                #"{"decimalMark": ",", "thousandsSeparator": ","}"#,
                "thousandsSeparator: must differ"
            ),
            (#"{"separator": ";",}"#, "line 1, column 19: expected a string key"),
        ]
        for (json, message) in cases {
            let profile = try workspace.write("bad-profile.json", json)
            for command in ["validate", "import", "process"] {
                let output = try StatementsRunner.run(
                    [
                        command, "--profile", profile, "SampleData/good", "--state",
                        workspace.state,
                    ].filter { command != "validate" || ($0 != "--state" && $0 != workspace.state) }
                )
                #expect(output.status == 2, "\(command) \(json)")
                #expect(output.stderr.contains(message), "\(json): \(output.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.state))
    }

    @Test func `applies a folder profile to the files below it and rejects a bad one`() throws {
        let workspace = try Workspace()
        let folder = workspace.path + "/bank/2026"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try workspace.write(
            "bank/statements-profile.json",
            #"{"separator": "|", "decimalMark": ",", "thousandsSeparator": ".", "dateFormat": "d.M.yyyy"}"#
        )
        _ = try workspace.write(
            "bank/2026/oct.csv",
            "date|account_iban|amount|beneficiary\n3.10.2026|DE89370400440532013000|1.000|Shop\n")
        let output = try StatementsRunner.run(["validate", "--strict", workspace.path + "/bank"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "no errors in 1 file (1 row checked)\n")
        let imported = try StatementsRunner.run([
            "import", workspace.path + "/bank", "--state", workspace.state,
        ])
        #expect(imported.status == 0)
        #expect(try Self.accounts(workspace.state).first.flatMap(Self.balance) == "1000.00")
        _ = try workspace.write("bank/statements-profile.json", #"{"separator": "|", "sep": 1}"#)
        // A file named alone gets only its own folder's profile: here none, so it is sniffed.
        let alone = try StatementsRunner.run(["validate", workspace.path + "/bank/2026/oct.csv"])
        #expect(alone.status == 1)
        #expect(alone.stderr.contains("[DIALECT_ASSUMED]"))
        #expect(alone.stderr.contains("[AMOUNT_PRECISION]"))
        let refused = try StatementsRunner.run(["validate", workspace.path + "/bank"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "statements-profile.json:1:20: error: [PROFILE_INVALID] cannot read '\(workspace.path)/bank/2026/oct.csv' with this folder profile: sep: unknown key; did you mean \"separator\"?"
            ), "\(refused.stderr)")
    }

    /// A German export as the issue shows it, generated: Windows-1252, `;`, decimal comma with
    /// `.` between thousands, `dd.MM.yyyy`, a preamble, and three accounts in a column.
    static func germanExport(rows: Int) -> (bytes: [UInt8], totals: [String: (Int, Int64)]) {
        let accounts = [
            "DE89370400440532013000", "DE02120300000000202051", "DE44500105175407324931",
        ]
        let payees = [
            "Café Müller", "Bäckerei Groß", "Stadtwerke Köln", "Arbeitgeber GmbH", "Kiosk",
        ]
        var text = "Umsatzanzeige;Erstellt am 01.01.2027\r\n\r\n"
        text += "Buchungstag;Wertstellung;Konto;Empfänger;Verwendungszweck;Betrag;Währung\r\n"
        var totals: [String: (Int, Int64)] = [:]
        for index in 0..<rows {
            let account = accounts[index % accounts.count]
            // Deterministic, of both signs, up to 1,999.99 so that thousands are grouped.
            let cents = Int64((index * 7_919 + index * index * 31) % 400_000) - 200_000
            let magnitude = String(abs(cents) / 100)
            var grouped = ""
            for (offset, digit) in magnitude.reversed().enumerated() {
                if offset > 0 && offset % 3 == 0 { grouped = "." + grouped }
                grouped = String(digit) + grouped
            }
            let amount =
                (cents < 0 ? "-" : "") + grouped + "," + String(format: "%02d", abs(cents) % 100)
            let day = String(format: "%02d.%02d.2026", index % 28 + 1, index * 12 / rows + 1)
            text +=
                "\(day);\(day);\(account);\(payees[index % payees.count]);Rechnung \(index);\(amount);EUR\r\n"
            let (count, sum) = totals[account] ?? (0, 0)
            totals[account] = (count + 1, sum + cents)
        }
        return (Array(text.data(using: .windowsCP1252)!), totals)
    }

    @Test func `reads a generated 30k-row German export without a profile, exactly`() throws {
        let workspace = try Workspace()
        let (bytes, totals) = Self.germanExport(rows: 30_000)
        let path = workspace.path + "/umsaetze.csv"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let validation = try StatementsRunner.run(["validate", path])
        #expect(validation.status == 0)
        #expect(
            validation.stderr
                == "\(path):3:36: warning: [DIALECT_ASSUMED] the file is not valid UTF-8; read it as windows-1252\n"
        )
        #expect(
            validation.stdout
                == "no errors, 1 warning in 1 file (30,000 rows checked)\n  1 × DIALECT_ASSUMED\n")
        let imported = try StatementsRunner.run(["import", path, "--state", workspace.state])
        #expect(imported.status == 0)
        let accounts = try Self.accounts(workspace.state)
        #expect(accounts.count == totals.count)
        for (iban, (count, sum)) in totals {
            let account = accounts.first { $0["iban"] as? String == iban }
            #expect(account?["transactionCount"] as? Int == count)
            let minorUnits = (account?["balance"] as? [String: Any])?["minorUnits"] as? Int
            #expect(minorUnits.map(Int64.init) == sum, "\(iban)")
        }

        // The profile that sniffing arrives at is accepted, and makes the file clean.
        let sniffed = try StatementsRunner.run(["profile", path])
        #expect(sniffed.status == 0)
        #expect(sniffed.stderr.contains("DIALECT_ASSUMED"))
        #expect(sniffed.stdout.contains(#""encoding": "windows-1252""#))
        #expect(sniffed.stdout.contains(#""headerLine": 3"#))
        let profile = try workspace.write("profile.json", sniffed.stdout)
        let strict = try StatementsRunner.run(["validate", "--strict", "--profile", profile, path])
        #expect(strict.status == 0, "\(strict.stderr)")
        #expect(strict.stderr == "")
        #expect(strict.stdout == "no errors in 1 file (30,000 rows checked)\n")
    }

    @Test func `warns about what it assumed and refuses under strict`() throws {
        let workspace = try Workspace()
        let ambiguous: [(text: String, assumption: String)] = [
            (
                "Date;Account;Payee;Amount;Currency\n01/10/2026;DE89370400440532013000;Kiosk;-12,50;EUR\n02/10/2026;DE89370400440532013000;Kiosk;-1,50;EUR\n01/11/2026;DE89370400440532013000;Kiosk;-2,50;EUR\n",
                "read as dd/MM/yyyy, the only order that lists the rows by date (not MM/dd/yyyy)"
            ),
            (
                "Datum;Konto;Empfänger;Betrag;Währung\n01.10.2026;DE89370400440532013000;Kiosk;1.000;EUR\n",
                #"no amount shows the decimal mark, and "1.000" (line 2) reads either way; assumed "," is the decimal mark"#
            ),
            (
                "Datum;Konto;Empfänger;Betrag\n01.10.2026;DE89370400440532013000;Kiosk;-1,00\n",
                "assumed EUR"
            ),
        ]
        for (text, assumption) in ambiguous {
            let path = try workspace.write("ambiguous.csv", text)
            let output = try StatementsRunner.run(["validate", path])
            #expect(output.status == 0)
            #expect(output.stderr.contains("warning: [DIALECT_ASSUMED]"), "\(output.stderr)")
            #expect(output.stderr.contains(assumption), "\(output.stderr)")
            let strict = try StatementsRunner.run(["validate", "--strict", path])
            #expect(strict.status == 1)
            #expect(strict.stderr.contains("error: [DIALECT_ASSUMED]"))
        }
    }

    @Test func `never reads 1.000 as one euro when other amounts show decimal commas`() throws {
        let workspace = try Workspace()
        let path = try workspace.write(
            "export.csv",
            """
            Datum;Konto;Empfänger;Betrag;Währung
            01.10.2026;DE89370400440532013000;Miete;-1.000;EUR
            02.10.2026;DE89370400440532013000;Kiosk;-2,50;EUR

            """)
        let output = try StatementsRunner.run(["validate", "--strict", path])
        #expect(output.status == 0, "\(output.stderr)")
        _ = try StatementsRunner.run(["import", path, "--state", workspace.state])
        #expect(try Self.accounts(workspace.state).first.flatMap(Self.balance) == "-1002.50")
    }

    @Test func `tells day-first from month-first by the dates themselves`() throws {
        let workspace = try Workspace()
        let layouts: [(dates: [String], format: String)] = [
            (["03/10/2026", "13/10/2026"], "dd/MM/yyyy"),
            (["10/03/2026", "10/13/2026"], "MM/dd/yyyy"),
            (["3.10.2026", "13.10.2026"], "d.M.yyyy"),
            (["2026-10-03", "2026-10-13"], "yyyy-MM-dd"),
            (["20261003", "20261013"], "yyyyMMdd"),
        ]
        for (dates, format) in layouts {
            let rows = dates.map { "\($0),DE89370400440532013000,Kiosk,-1.50,EUR" }
            let path = try workspace.write(
                "dates.csv", "Date,Account,Payee,Amount,Currency\n" + rows.joined(separator: "\n"))
            let profile = try StatementsRunner.run(["profile", path])
            #expect(profile.stdout.contains(#""dateFormat": "\#(format)""#), "\(profile.stdout)")
            #expect(profile.stderr == "", "\(dates)")
        }
        let path = try workspace.write(
            "dates.csv",
            "Date,Account,Payee,Amount\n13/10/2026,DE89370400440532013000,Kiosk,-1.50\n10/13/2026,DE89370400440532013000,Kiosk,-1.50\n"
        )
        let mixed = try StatementsRunner.run(["profile", path])
        #expect(mixed.status == 1)
        #expect(
            mixed.stderr.contains(
                "[DIALECT_UNKNOWN] the dates are neither day-first nor month-first"))
    }

    @Test
    func
        `takes the date order in which the rows are sorted when every day and month is 12 or less`()
        throws
    {
        let workspace = try Workspace()
        let orders: [(dates: [String], format: String, wrong: String)] = [
            (["01/10/2026", "02/10/2026", "01/11/2026"], "dd/MM/yyyy", "2026-01-10"),
            (["10/01/2026", "10/02/2026", "11/01/2026"], "MM/dd/yyyy", "2026-01-10"),
            (["01/11/2026", "02/10/2026", "01/10/2026"], "dd/MM/yyyy", "2026-01-11"),
        ]
        for (dates, format, wrong) in orders {
            let rows = dates.map { "\($0),DE89370400440532013000,Kiosk,-1.50,EUR" }
            let path = try workspace.write(
                "dates.csv", "Date,Account,Payee,Amount,Currency\n" + rows.joined(separator: "\n"))
            let profile = try StatementsRunner.run(["profile", path])
            #expect(profile.status == 0, "\(profile.stderr)")
            #expect(profile.stdout.contains(#""dateFormat": "\#(format)""#), "\(profile.stdout)")
            #expect(profile.stderr.contains("the only order that lists the rows by date"))
            let state = workspace.state + "-\(format.prefix(2))-\(dates[0].prefix(2))"
            #expect(try StatementsRunner.run(["import", path, "--state", state]).status == 0)
            let listed = try StatementsRunner.run(["register", "--state", state])
            #expect(listed.stdout.contains("2026-10-01"), "\(listed.stdout)")
            #expect(!listed.stdout.contains(wrong), "\(listed.stdout)")
        }
    }

    @Test func `refuses dates that read either way and prints both orders to choose from`() throws {
        let workspace = try Workspace()
        // Sorted read day first (1 and 2 October) and read month first (10 January and
        // 10 February), or a single day: the file cannot tell; a profile line decides.
        for dates in [["01/10/2026", "02/10/2026"], ["05/06/2026"], ["05/06/2026", "05/06/2026"]] {
            let rows = dates.map { "\($0),DE89370400440532013000,Kiosk,-1.50,EUR" }
            let path = try workspace.write(
                "dates.csv", "Date,Account,Payee,Amount,Currency\n" + rows.joined(separator: "\n"))
            for command in [["validate"], ["import", "--state", workspace.state]] {
                let output = try StatementsRunner.run(command + [path])
                #expect(output.status == 1, "\(command)")
                #expect(
                    output.stderr.contains(
                        #"[DIALECT_UNKNOWN] recognised dates in "Date", text in "Payee", no balance column, but not which order the dates are in ("dd/MM/yyyy" or "MM/dd/yyyy")"#
                    ), "\(output.stderr)")
            }
            let profile = try StatementsRunner.run(["profile", path])
            #expect(profile.status == 1)
            #expect(profile.stdout.contains(#""dateFormat": "FILL IN dd/MM/yyyy or MM/dd/yyyy""#))
            let fixed = try workspace.write(
                "profile.json",
                profile.stdout.replacingOccurrences(
                    of: "FILL IN dd/MM/yyyy or MM/dd/yyyy", with: "MM/dd/yyyy"))
            let read = try StatementsRunner.run(["validate", "--strict", "--profile", fixed, path])
            #expect(read.status == 0, "\(read.stderr)")
        }
    }

    @Test func `reports a row with a missing separator instead of shifting its columns`() throws {
        let workspace = try Workspace()
        let path = try workspace.write(
            "export.csv",
            """
            Datum;Konto;Empfänger;Betrag;Währung
            01.10.2026;DE89370400440532013000;Kiosk;-2,50;EUR
            02.10.2026;DE89370400440532013000;Kiosk -2,50;EUR

            """)
        let output = try StatementsRunner.run(["validate", path])
        #expect(output.status == 1)
        #expect(output.stderr.contains(":3:"))
        #expect(output.stderr.contains("[CSV_FIELD_COUNT] row has 4 fields, the header has 5"))
    }

    @Test func `prints a reason when a file cannot be understood`() throws {
        let workspace = try Workspace()
        let path = try workspace.write("notes.csv", "hello;world\nthis;is not a statement\n")
        let output = try StatementsRunner.run(["profile", path])
        #expect(output.status == 1)
        #expect(output.stdout == "")
        #expect(
            output.stderr.contains(
                "[FILE_NOT_STATEMENT] the file is not a bank statement: no row of it has a date beside an amount"
            ))
        let unknown = try workspace.write("unknown.csv", "x,y,z\n2026-10-01,1.50,3\n")
        let refused = try StatementsRunner.run(["profile", unknown])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "unknown.csv:1:1: error: [DIALECT_UNKNOWN] no header names the columns; recognised dates in \"x\", amounts in \"y\", but not a column of text"
            ), "\(refused.stderr)")
        let shuffled = try workspace.write(
            "shuffled.csv", "a,b,c\n2026-10-01,x,1.50\n1.50,2026-10-02,y\n")
        let none = try StatementsRunner.run(["profile", shuffled])
        #expect(none.status == 1)
        #expect(
            none.stderr.contains("[DIALECT_UNKNOWN] no line in the first 50 names a date column"))
        let missing = try StatementsRunner.run(["profile", workspace.path + "/missing.csv"])
        #expect(missing.status == 3)
        let usage = try StatementsRunner.run(["profile"])
        #expect(usage.status == 2)
    }
}
