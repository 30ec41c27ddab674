import Foundation
import Testing

/// End-to-end tests of the bank-export features of #17 that profiles and sniffing share:
/// the account given alone, rows not booked yet, statement balances, accounts of several
/// currencies, signs and dates.
struct BankExportCommandTests {
    static let chaseChecking = """
        Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #
        DEBIT,10/28/2026,"GROCERY MART",-49.99,DEBIT_CARD,2164.95,,
        DEBIT,10/13/2026,"LANDLORD RENT",-1234.56,ACH_DEBIT,2214.94,,
        CREDIT,10/01/2026,"ACME PAYROLL",3449.50,ACH_CREDIT,3449.50,,

        """

    func folder(_ workspace: Workspace, _ name: String, profile: String?, files: [String: String])
        throws -> String
    {
        let path = workspace.path + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let profile { _ = try workspace.write(name + "/statements-profile.json", profile) }
        for (file, text) in files { _ = try workspace.write(name + "/" + file, text) }
        return path
    }

    @Test func `reads an export that names no account given only the account`() throws {
        let workspace = try Workspace()
        let bare = try workspace.write("chase.csv", Self.chaseChecking)
        let refused = try StatementsRunner.run(["validate", bare])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("[DIALECT_UNKNOWN] the file does not name its account"))

        // --account: the layout is sniffed; an ABA account is kept in dollars.
        let given = try StatementsRunner.run([
            "import", bare, "--account", "aba:021000021/123456789", "--state", workspace.state,
        ])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stdout.contains("3 new transactions"))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("aba:021000021/123456789"))
        #expect(accounts.stdout.contains("USD"))
        #expect(accounts.stdout.contains("2,164.95"))

        // A folder profile with the account alone does the same for every file below it.
        let chase = try folder(
            workspace, "chase",
            profile: #"{"account": {"id": "aba:021000021/123456789", "name": "Chase"}}"#,
            files: ["october.csv": Self.chaseChecking])
        let folderRun = try StatementsRunner.run(["validate", chase])
        #expect(folderRun.status == 0, "\(folderRun.stderr)")
        #expect(folderRun.stdout == "no errors in 1 file (3 rows checked)\n")

        // A file that names its own account keeps it, and says the given one is unused.
        let named = try workspace.write(
            "named.csv",
            "IBAN: DE89 3704 0044 0532 0130 00\nDate,Description,Amount\n2026-10-01,Rent,-5.00\n")
        let unused = try StatementsRunner.run(["validate", named, "--account", "name:cash"])
        #expect(unused.status == 0)
        #expect(
            unused.stderr.contains(
                "[DIALECT_ASSUMED] the file names its own account; the account given, name:cash, is not used"
            ))
    }

    @Test func `refuses --account beside a profile that names the account`() throws {
        let output = try StatementsRunner.run([
            "validate", "SampleData/profiles/nl-ing", "--account", "name:x",
        ])
        #expect(output.status == 2)
        #expect(output.stderr.contains("--account name:x cannot replace it"))
        let bad = try StatementsRunner.run(["validate", "SampleData/good", "--account", "zz:1"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--account \"zz:1\": scheme \"zz\" is not one of"))
    }

    @Test func `leaves out rows not booked yet and counts them`() throws {
        let workspace = try Workspace()
        let export = """
            Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
            CARD_PAYMENT,Current,2026-10-01 10:00:00,2026-10-01 12:30:45,Salary,2500.00,0.00,EUR,COMPLETED,2500.00
            CARD_PAYMENT,Current,2026-10-03 10:00:00,2026-10-03 12:30:45,Coffee,-12.50,0.00,EUR,COMPLETED,2487.50
            CARD_PAYMENT,Current,2026-10-30 10:00:00,,Shop,-9.99,0.00,EUR,PENDING,

            """
        let revolut = try folder(
            workspace, "revolut", profile: #"{"account": {"id": "name:revolut"}}"#,
            files: ["revolut.csv": export])
        let validate = try StatementsRunner.run(["validate", revolut])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout == "no errors in 1 file (3 rows checked, 1 not booked yet)\n")
        #expect(validate.stderr.hasSuffix("revolut.csv: note: 1 row left out as not booked yet\n"))
        let imported = try StatementsRunner.run([
            "import", revolut, "--state", workspace.state, "-v",
        ])
        #expect(
            imported.stdout.contains(
                "2 new transactions, 0 already present, 1 row not booked yet left out"))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("2,487.50"))

        // A profile says it with columns.status and notBooked.
        let profile = try workspace.write(
            "profile.json",
            #"{"columns": {"date": "Completed Date", "amount": "Amount", "description": "Description", "currency": "Currency", "status": "State"}, "notBooked": ["pending"], "dateFormat": "yyyy-MM-dd HH:mm:ss", "account": {"id": "name:revolut"}}"#
        )
        let withProfile = try StatementsRunner.run([
            "validate", "--profile", profile, revolut + "/revolut.csv", "--format", "json",
        ])
        #expect(withProfile.stdout.contains(#""rows": 3, "notBooked": 1, "errors": 0"#))

        // A status that is neither booked nor pending is not guessed at.
        let unknown = try workspace.write(
            "unknown.csv",
            "IBAN: DE89 3704 0044 0532 0130 00\nDate,Description,Amount,Status\n2026-10-01,Rent,-5.00,Disputed\n"
        )
        let refused = try StatementsRunner.run(["validate", unknown])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "[DIALECT_UNKNOWN] the status column holds \"Disputed\" (line 3), neither a known booked status nor a known pending one"
            ))
    }

    @Test func `reconciles balances of a preamble, a footer or a row of their own`() throws {
        let workspace = try Workspace()
        // Bank of America: summary lines above, a beginning-balance row without amount.
        let bofa = """
            Description,,Summary Amt.
            Beginning balance as of 10/01/2026,,"1,000.00"
            Ending balance as of 10/31/2026,,"%@"

            Date,Description,Amount,Running Bal.
            10/01/2026,Beginning balance as of 10/01/2026,,"1,000.00"
            10/02/2026,"COFFEE","-12.50","987.50"
            10/13/2026,"PAYROLL","2,500.00","3,487.50"

            """
        for (closing, status) in [("3,487.50", Int32(0)), ("3,478.50", 1)] {
            let file = try workspace.write(
                "bofa.csv", bofa.replacingOccurrences(of: "%@", with: closing))
            let output = try StatementsRunner.run([
                "validate", file, "--account", "aba:026009593/4321",
            ])
            #expect(output.status == status, "\(output.stderr)")
            #expect(output.stdout.contains("(3 rows checked)"))
            if status == 1 {
                #expect(
                    output.stderr.contains(
                        "bofa.csv:3:34: error: [BALANCE_CLOSING] closing balance 3478.50 differs from opening balance plus transactions, 3487.50"
                    ), "\(output.stderr)")
            }
        }
        // comdirect: the new balance above the rows, the old one in the footer.
        let comdirect = """
            "Umsätze Girokonto";"Zeitraum: 30 Tage";
            "Neuer Kontostand";"1.487,50 EUR";

            "Buchungstag";"Wertstellung (Valuta)";"Vorgang";"Buchungstext";"Umsatz in EUR";
            "13.10.2026";"13.10.2026";"Gutschrift";"Lohn";"500,00";
            "02.10.2026";"02.10.2026";"Lastschrift";"Kaffee";"-12,50";

            "Alter Kontostand";"%@ EUR";

            """
        for (opening, status) in [("1.000,00", Int32(0)), ("1.100,00", 1)] {
            let file = try workspace.write(
                "comdirect.csv", comdirect.replacingOccurrences(of: "%@", with: opening))
            let output = try StatementsRunner.run([
                "validate", file, "--account", "DE89370400440532013000",
            ])
            #expect(output.status == status, "\(output.stderr)")
            if status == 1 {
                #expect(
                    output.stderr.contains(
                        "comdirect.csv:2:20: error: [BALANCE_CLOSING] closing balance 1487.50 differs from opening balance plus transactions, 1587.50"
                    ), "\(output.stderr)")
            }
        }
        // A profile names them, and the opening balance must agree with the running balance.
        let profile = try workspace.write(
            "profile.json",
            #"{"headerLine": 2, "preamble": {"openingBalance": {"line": 1, "field": 2}}, "footerLines": 1, "footer": {"closingBalance": {"line": 1, "field": 2}}, "columns": {"date": "Date", "amount": "Amount", "description": "Text", "balance": "Balance"}, "account": {"id": "name:cash"}}"#
        )
        let export = try workspace.write(
            "export.csv",
            "Opening,90.00\nDate,Text,Amount,Balance\n2026-10-01,Rent,-5.00,95.00\nClosing,95.00\n")
        let output = try StatementsRunner.run(["validate", "--profile", profile, export])
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "\(export):1:9: error: [BALANCE_RUNNING] preamble openingBalance 90.00 differs from the balance before the first row, 100.00 (its running balance less its amount)\n"
        )
    }

    @Test func `keeps an account of several currencies in one pocket per currency`() throws {
        let workspace = try Workspace()
        let wise = try folder(
            workspace, "wise",
            profile: #"{"account": {"id": "name:wise", "currencies": ["EUR", "USD"]}}"#,
            files: [
                "october.csv": """
                TransferWise ID,Date,Amount,Currency,Description,Payment Reference,Running Balance
                T1,13-10-2026,100.00,EUR,Top up,,100.00
                T2,14-10-2026,50.00,USD,Client,,50.00
                T3,15-10-2026,-20.00,EUR,Coffee,,80.00

                """
            ])
        let imported = try StatementsRunner.run(["import", wise, "--state", workspace.state])
        #expect(imported.status == 0, "\(imported.stderr)")
        let accounts = try StatementsRunner.run([
            "accounts", "--state", workspace.state, "--format", "json",
        ])
        #expect(accounts.stdout.contains(#""id": "name:wise@EUR""#))
        #expect(accounts.stdout.contains(#""id": "name:wise@USD""#))
        let report = try StatementsRunner.run([
            "report", "--state", workspace.state, "--account", "name:wise@USD", "--month",
            "2026-10", "--report-format", "csv", "--out", "-",
        ])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("50.00"))
        #expect(!report.stdout.contains("Coffee"))
        // A currency the account does not hold is caught.
        _ = try workspace.write(
            "wise/november.csv",
            "TransferWise ID,Date,Amount,Currency,Description\nT4,13-11-2026,5.00,GBP,Gift\n")
        let later = try StatementsRunner.run(["import", wise, "--state", workspace.state])
        #expect(later.status == 1)
        #expect(
            later.stderr.contains(
                "[CURRENCY_CONFLICT] currency GBP is not one of the account's currencies, EUR, USD")
        )
    }

    @Test func `reads in-out columns both filled, a sign column and a card's positive charges`()
        throws
    {
        let workspace = try Workspace()
        let exchange = try workspace.write(
            "exchange.csv",
            "Date,Text,Paid out,Paid in\n2026-10-01,Exchange,100.00,92.50\n2026-10-02,Salary,,10.00\n"
        )
        let profile = try workspace.write(
            "in-out.json",
            #"{"sign": "in-out", "columns": {"date": "Date", "debit": "Paid out", "credit": "Paid in", "description": "Text"}, "account": {"id": "name:fx"}}"#
        )
        let inOut = try StatementsRunner.run([
            "import", "--profile", profile, exchange, "--state", workspace.state,
        ])
        #expect(inOut.status == 0, "\(inOut.stderr)")
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("name:fx"))
        #expect(accounts.stdout.contains("2.50"))  // -7.50 + 10.00

        // Signs in a column of their own: an indicator of "-" and "+".
        let signed = try workspace.write(
            "signed.csv", "Date,Text,Amount,Sign\n2026-10-01,Rent,5.00,-\n2026-10-02,Pay,7.00,+\n")
        let signProfile = try workspace.write(
            "sign.json",
            #"{"sign": "indicator", "indicator": {"debit": ["-"], "credit": ["+"]}, "columns": {"date": "Date", "amount": "Amount", "indicator": "Sign", "description": "Text"}, "account": {"id": "name:signs"}}"#
        )
        let signs = try StatementsRunner.run([
            "import", "--profile", signProfile, signed, "--state", workspace.state,
        ])
        #expect(signs.status == 0, "\(signs.stderr)")

        // An Amex export writes charges positive: a card account reads them so, and says so.
        let amex = try workspace.write(
            "amex.csv",
            "Date,Description,Card Member,Account #,Amount\n10/02/2026,AMAZON,JANE DOE,-41004,45.12\n10/05/2026,NETFLIX,JANE DOE,-41004,12.99\n10/07/2026,UBER,JANE DOE,-41004,20.00\n10/09/2026,CAFE,JANE DOE,-41004,5.00\n10/15/2026,PAYMENT THANK YOU,JANE DOE,-41004,-50.00\n"
        )
        let card = try StatementsRunner.run([
            "import", amex, "--account", "card:amex/1004", "--state", workspace.state,
        ])
        #expect(card.status == 0, "\(card.stderr)")
        #expect(
            card.stderr.contains(
                "a card account whose amounts are positive in 4 of 5 rows: read them as charges positive and payments negative"
            ))
        #expect(card.stderr.contains("assumed USD"))
        let all = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(all.stdout.contains("-33.11"))  // -45.12 - 12.99 - 20.00 - 5.00 + 50.00
    }

    @Test func `sniffs dates with month names and times`() throws {
        let workspace = try Workspace()
        let nationwide = try workspace.write(
            "nationwide.csv",
            """
            "Account Name:","FlexAccount ****12345"

            "Date","Transaction type","Description","Paid out","Paid in","Balance"
            "03 Oct 2026","Payment","COFFEE","£12.50","","£987.50"
            "13 Oct 2026","Credit","PAYROLL","","£2,500.00","£3,487.50"

            """)
        let output = try StatementsRunner.run([
            "import", nationwide, "--account", "sort-code:070116/12345678", "--state",
            workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        // The account has no name: its label is its id, and the table needs 120 columns.
        let accounts = try StatementsRunner.run(
            ["accounts", "--state", workspace.state], environment: ["COLUMNS": "120"])
        #expect(accounts.stdout.contains("GBP"))
        #expect(accounts.stdout.contains("3,487.50"))
        #expect(accounts.stdout.contains("2026-10-03  2026-10-13"))
        let profile = try StatementsRunner.run([
            "profile", nationwide, "--account", "sort-code:070116/12345678",
        ])
        #expect(profile.stdout.contains(#""dateFormat": "d MMM yyyy""#))
    }
}

/// Each account of a ledger as `currency count balance kind`, from `accounts --format json`.
func accountFigures(_ state: String) throws -> [String: String] {
    let output = try StatementsRunner.run(["accounts", "--state", state, "--format", "json"])
    let accounts = try #require(
        JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
    var found: [String: String] = [:]
    for account in accounts {
        let balance = account["balance"] as! [String: Any]
        found[account["id"] as! String] =
            "\(account["currency"]!) \(account["transactionCount"]!) \(balance["minorUnits"]!) \(account["kind"]!)"
    }
    return found
}

/// The dozen real-layout exports of `SampleData/exports`, read with no profile or with a
/// folder profile that gives only the account, imported with exact counts and balances.
struct SampleExportsTests {
    @Test func `imports every sample export with its exact balance`() throws {
        let workspace = try Workspace()
        let imported = try StatementsRunner.run([
            "import", "SampleData/exports", "--state", workspace.state,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout.hasSuffix(
                "added 66 new transactions from 13 files, 0 already present\n"))
        let found = try accountFigures(workspace.state)
        // One month of the household's year each, January to November: the rows, plus an
        // opening balance where a running balance or a preamble and footer line give one:
        // 1,000.00 (comdirect, Santander, Nationwide, Revolut), or where the account's earlier
        // months are in the other sample folders, what they leave (2,336.33 after the holiday
        // house's May at ING, 4,179.54 after the Chase account's October).
        #expect(
            found == [
                "CH7609000000123456789": "CHF 5 35525 checking",
                "DE64200411330001234567": "EUR 5 88494 checking",
                "DE45120300001234567890": "EUR 5 40810 checking",
                "ES7000491500010512345678": "EUR 5 158981 checking",
                "FR7618206000406500123456749": "EUR 5 35274 checking",
                "IT60X0542811101000000123456": "EUR 5 29960 checking",
                "NL36INGB0007654321": "EUR 5 307132 checking",
                "aba:021000021/123456789": "USD 5 522035 checking",
                "card:amex/1004": "USD 6 -25664 credit-card",
                "name:revolut": "EUR 5 110005 checking",
                "name:wise@EUR": "EUR 2 145401 checking",
                "name:wise@GBP": "GBP 2 8760 checking",
                "name:wise@USD": "USD 1 82000 checking",
                "sort-code:040004/12345678": "GBP 5 53801 checking",
                "sort-code:070116/12345678": "GBP 5 209087 checking",
            ])
    }
}

/// The banks' own formats of `SampleData/formats`, found in a folder by their content and
/// imported with exact counts and balances.
struct SampleFormatsTests {
    @Test func `imports every sample statement with its exact balance`() throws {
        let workspace = try Workspace()
        let imported = try StatementsRunner.run([
            "import", "SampleData/formats", "--state", workspace.state,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Currency, count and balance of each account, without its kind.
        let found = try accountFigures(workspace.state).mapValues {
            $0.split(separator: " ").dropLast().joined(separator: " ")
        }
        // Each balance is the statement's closing balance: its opening balance plus its rows.
        #expect(
            found == [
                "DE86500502010001234567": "EUR 4 1120870",
                "DE89370400440532013000": "EUR 5 181829",
                "NL91ABNA0417164300": "EUR 2 740799",
                "DE88370400440532013018": "EUR 4 323749",
                "NL36INGB0007654321": "EUR 3 422631",
                "name:76050101-123456789": "EUR 1 5000",
                "name:0001234567": "CHF 3 12000",
                "aba:021000021/123456789": "USD 5 417954",
                "name:000312345-98765-43": "CAD 2 1050412",
                "card:chase/4417": "USD 3 -13332",
            ])
        // Imported again, nothing is added: the bank's references are the identities.
        let again = try StatementsRunner.run([
            "import", "SampleData/formats", "--state", workspace.state,
        ])
        #expect(
            again.stdout.hasSuffix(
                "nothing new: the 32 transactions of 9 files are in the ledger already\n"))
    }
}

/// The same bookings delivered as camt.053 and as MT940, as banks send both during a
/// migration.
struct CrossFormatTests {
    @Test func `refuses at import an id given to bookings of two statements of a file`() throws {
        let workspace = try Workspace()
        // Checked per statement while reading; across statements, against the ledger.
        let file = try workspace.write(
            "two.sta",
            """
            :20:A
            :25:DE89370400440532013000
            :60F:C261001EUR10,00
            :61:261031D1,00NMSCNONREF//SAME
            :62F:C261031EUR9,00
            -
            :20:B
            :25:DE89370400440532013000
            :60F:C261031EUR9,00
            :61:261101D2,00NMSCNONREF//SAME
            :62F:C261101EUR7,00
            -

            """)
        let validate = try StatementsRunner.run(["validate", file])
        #expect(validate.status == 0)
        let imported = try StatementsRunner.run(["import", file, "--state", workspace.state])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("two.sta:10:1: error: [TRANSACTION_ID_CONFLICT]"))
    }

    @Test func `imports bookings once when a camt.053 and an MT940 give them the same ids`() throws
    {
        let workspace = try Workspace()
        let mt940 = try workspace.write(
            "same-days.sta",
            """
            :20:MIGRATION
            :25:DE86500502010001234567
            :60F:C260930EUR10000,00
            :61:2610021002CR2500,00NTRFNONREF//2026100200001
            :86:166?00GUTSCHRIFT?20Rechnung 2026-117?32Kunde & Partner AG
            :61:2610201020DR41,30NDDTNONREF//2026102000003
            :86:105?00LASTSCHRIFT?32Stadtwerke Koeln
            :62F:C261020EUR12458,70
            -

            """)
        let camt = try StatementsRunner.run([
            "import", "SampleData/formats/camt053-v02-sparkasse.xml", "--state", workspace.state,
        ])
        #expect(camt.status == 0, "\(camt.stderr)")
        let again = try StatementsRunner.run(["import", mt940, "--state", workspace.state, "-v"])
        #expect(again.stdout.contains("already present  \(mt940): 2 transactions"))
        // Its balances leave out the camt's other two bookings: the bank's statements
        // disagree, and the import says so.
        #expect(again.status == 1)
        #expect(
            again.stderr.contains(
                "\(mt940):8:1: error: [BALANCE_ASSERTION] the bank states 12458.70 EUR for DE86500502010001234567 at the end of 2026-10-20; the ledger has 11208.70 EUR"
            ))
        let profile = try StatementsRunner.run(["profile", mt940])
        #expect(profile.stdout == "\(mt940): SWIFT MT940/MT942; read as it is, no profile needed\n")
    }
}
