import Foundation
import Testing

/// End-to-end tests of reading a bank's CSV by what its columns hold (#35): accounts never
/// merged, signs and row order proved by the balance column.
struct SniffingEvidenceCommandTests {
    @Test(arguments: ["Account Name", "Konto", "Card No."])
    func `refuses a column that names several accounts, whatever its header`(column: String)
        throws
    {
        let workspace = try Workspace()
        let export = try workspace.write(
            "two.csv",
            """
            Date,Description,\(column),Amount
            2026-10-01,Salary,Everyday,2500.00
            2026-10-02,Coffee,Everyday,-3.50
            2026-10-03,Interest,Savings,1.20

            """)
        let output = try StatementsRunner.run([
            "import", export, "--account", "name:everyday", "--state", workspace.state,
        ])
        #expect(output.status == 1, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "two.csv:2:19: error: [DIALECT_UNKNOWN] column \"\(column)\" names several accounts (\"Everyday\", \"Savings\")"
            ), "\(output.stderr)")
        #expect(!output.stdout.contains("new transactions"))

        // One account's name in every row is that account's: read, with the account given.
        let one = try workspace.write(
            "one.csv",
            "Date,Description,\(column),Amount\n2026-10-01,Salary,Everyday,2500.00\n"
                + "2026-10-02,Coffee,Everyday,-3.50\n2026-10-03,Lunch,Everyday,-9.00\n")
        let read = try StatementsRunner.run(["validate", one, "--account", "name:everyday"])
        #expect(read.status == 0, "\(read.stderr)")
    }

    @Test
    func
        `reads a file without header by its values: the account's IBAN and the debit and credit words`()
        throws
    {
        let workspace = try Workspace()
        let export = try workspace.write(
            "headerless.csv",
            """
            "01-10-2026","NL91ABNA0417164300","2.500,00","Credit","ACME PAYROLL","NL18RABO0123459876"
            "03-10-2026","NL91ABNA0417164300","12,50","Debet","COFFEE HOUSE",""
            "13-10-2026","NL91ABNA0417164300","1.234,56","Debet","LANDLORD RENT","DE89370400440532013000"

            """)
        let output = try StatementsRunner.run(["import", export, "--state", workspace.state])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                #"headerless.csv:1:14: warning: [DIALECT_ASSUMED] the file has no header, and column 2 holds one IBAN on every row, "NL91ABNA0417164300" (line 1); assumed it is the account's"#
            ), "\(output.stderr)")
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("NL91 ABNA 0417 1643 00"), "\(accounts.stdout)")
        #expect(accounts.stdout.contains("1,252.94"), "\(accounts.stdout)")
        // Strict refuses what was assumed.
        let strict = try StatementsRunner.run(["validate", "--strict", export])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("error: [DIALECT_ASSUMED] the file has no header"))

        // One row is no evidence that a column of one IBAN is the account's.
        let single = try workspace.write(
            "single.csv", #""01-10-2026","NL91ABNA0417164300","2.500,00","Credit","ACME""# + "\n")
        let refused = try StatementsRunner.run(["validate", single])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("nor the account (--account ID)"), "\(refused.stderr)")
    }

    @Test
    func
        `takes a column of one IBAN as the account only when none is given and every row holds it`()
        throws
    {
        let workspace = try Workspace()
        func row(_ day: Int, _ iban: String) -> String {
            #""\#(13 + day % 15)-10-2026","\#(iban)","1,00","\#(day % 2 == 0 ? "Debet" : "Credit")","Rent \#(day)""#
        }
        let landlord = "FR1420041010050500013M02606"
        // The counterparty's IBAN on every row: with the account given, the rows are that
        // account's, not the landlord's.
        let rent = try workspace.write(
            "rent.csv", (0..<3).map { row($0, landlord) }.joined(separator: "\n") + "\n")
        let given = try StatementsRunner.run([
            "import", rent, "--account", "DE89370400440532013000", "--state", workspace.state,
        ])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(!given.stderr.contains("holds one IBAN"))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("DE89 3704"), "\(accounts.stdout)")
        #expect(!accounts.stdout.contains("FR14"), "\(accounts.stdout)")

        // Another IBAN on row 300, past the rows the columns are told by: another account's
        // rows or a counterparty's, refused whether an account is given or not.
        let rows = (0..<300).map { row($0, "NL91ABNA0417164300") } + [row(300, landlord)]
        let deep = try workspace.write("deep.csv", rows.joined(separator: "\n") + "\n")
        for account in [[], ["--account", "DE89370400440532013000"]] {
            let refused = try StatementsRunner.run(["validate", deep] + account)
            #expect(refused.status == 1)
            #expect(
                refused.stderr.contains(
                    #"deep.csv:301:14: error: [DIALECT_UNKNOWN] the file has no header, and column 2 holds the IBAN "NL91ABNA0417164300" on its first rows and "FR1420041010050500013M02606" (line 301) later"#
                ), "\(refused.stderr)")
        }

        // Two IBANs, each on a block of rows, in the first rows: two accounts' rows.
        let two = try workspace.write(
            "two.csv",
            ((0..<2).map { row($0, "NL91ABNA0417164300") } + (2..<4).map { row($0, landlord) })
                .joined(separator: "\n") + "\n")
        let merged = try StatementsRunner.run([
            "validate", two, "--account", "DE89370400440532013000",
        ])
        #expect(merged.status == 1)
        #expect(
            merged.stderr.contains("two.csv:3:14: error: [DIALECT_UNKNOWN]"), "\(merged.stderr)")

        // IBANs that change from row to row are counterparties': not the text of the rows.
        let payees = ["NL20INGB0001234567", landlord, "NL91ABNA0417164300"]
        let paid = try workspace.write(
            "paid.csv",
            (0..<3).map { row($0, payees[$0]) }.joined(separator: "\n") + "\n")
        let read = try StatementsRunner.run([
            "import", paid, "--account", "DE89370400440532013000", "--state", workspace.state,
        ])
        #expect(read.status == 0, "\(read.stderr)")
        let register = try StatementsRunner.run([
            "register", "--account", "DE89370400440532013000", "--state", workspace.state,
        ])
        #expect(register.stdout.contains("Rent 1 "), "\(register.stdout)")
        #expect(!register.stdout.contains("NL20INGB"), "\(register.stdout)")
    }

    @Test func `leaves the date order open for several accounts' rows and reads 0,500 as half`()
        throws
    {
        let workspace = try Workspace()
        // Each account's rows are sorted read month first, the file's are not: no proof.
        let grouped = try workspace.write(
            "grouped.csv",
            """
            Date,Account,Description,Amount
            04/01/2026,GB29NWBK60161331926819,Coffee,-3.50
            10/02/2026,GB29NWBK60161331926819,Lunch,-9.50
            03/01/2026,GB82WEST12345698765432,Tea,-2.50
            09/02/2026,GB82WEST12345698765432,Cake,-4.50

            """)
        let open = try StatementsRunner.run(["validate", grouped])
        #expect(open.status == 1)
        #expect(
            open.stderr.contains(
                #"not which order the dates are in ("dd/MM/yyyy" or "MM/dd/yyyy")"#))

        // A single zero before the mark groups no thousands: "-0,500" is not -500.
        let half = try workspace.write(
            "half.csv",
            "Datum;Beschreibung;Betrag\n01.10.2026;Kiosk;-0,500\n02.10.2026;Kiosk;-1,000\n")
        let read = try StatementsRunner.run([
            "import", half, "--account", "DE89370400440532013000", "--state", workspace.state,
        ])
        #expect(read.status == 1, "\(read.stdout)")
        #expect(
            read.stderr.contains(#"[AMOUNT_PRECISION] amount "-0,500": EUR has 2 decimal places"#))

        // In a currency of three decimals, three digits after the one mark are its decimals.
        let dinars = try workspace.write(
            "dinars.csv",
            "Date;Description;Amount;Currency\n2026-10-01;Shop;-12.500;KWD\n"
                + "2026-10-02;Salary;1.250;KWD\n")
        let kuwait = try StatementsRunner.run([
            "import", dinars, "--account", "name:kuwait", "--state", workspace.state,
        ])
        #expect(kuwait.status == 0, "\(kuwait.stderr)")
        #expect(kuwait.stderr.contains(#"assumed "." is the decimal mark"#), "\(kuwait.stderr)")
        let register = try StatementsRunner.run([
            "register", "--account", "name:kuwait", "--state", workspace.state,
        ])
        #expect(register.stdout.contains("-12.500 KWD"), "\(register.stdout)")
        #expect(register.stdout.contains("-11.250 KWD"), "\(register.stdout)")
    }

    @Test
    func
        `reports rows without a date at the end of a file instead of leaving them out as a footer`()
        throws
    {
        let workspace = try Workspace()
        // A blank date, then a balance line (a footer still): the row reported, none left out.
        let undated = try workspace.write(
            "undated.csv",
            "Buchungstag;Verwendungszweck;Betrag\n01.10.2026;Shop;-12,50\n02.10.2026;Gehalt;2.500,00\n;Miete;-800,00\nKontostand;2.212,95 EUR\n"
        )
        let account = ["--account", "DE89370400440532013000"]
        let output = try StatementsRunner.run(["validate", undated] + account)
        #expect(output.status == 1)
        #expect(
            output.stderr.contains("undated.csv:4:1: error: [FIELD_EMPTY] date is required"),
            "\(output.stderr)")
        #expect(!output.stderr.contains("undated.csv:5:"), "\(output.stderr)")
        // A status where the date should be is a row not booked yet: left out, and counted,
        // as a status column's would be.
        let pending = try workspace.write(
            "pending.csv",
            "Date,Description,Amount\n10/02/2026,A,-1.00\n10/13/2026,B,-2.00\nPending,Hotel,-99.00\n"
        )
        let left = try StatementsRunner.run(["validate", pending] + account)
        #expect(left.status == 0, "\(left.stderr)")
        #expect(left.stderr.contains("pending.csv: note: 1 row left out as not booked yet"))
        #expect(left.stdout.contains("(3 rows checked, 1 not booked yet)"), "\(left.stdout)")
    }

    @Test func `decides a card's sign by its type column or a clear majority, else leaves it open`()
        throws
    {
        let workspace = try Workspace()
        let header = "Date,Description,Type,Amount\n"
        // Payments outnumber sales, but the types say charges are negative: signed.
        let typed = try workspace.write(
            "typed.csv",
            header
                + "10/15/2026,Payment Thank You,Payment,500.00\n10/21/2026,UBER EATS,Sale,-23.75\n10/24/2026,NETFLIX REFUND,Return,12.99\n"
        )
        let read = try StatementsRunner.run([
            "import", typed, "--account", "card:chase/4417", "--state", workspace.state,
        ])
        #expect(read.status == 0, "\(read.stderr)")
        let balance = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(balance.stdout.contains("489.24"), "\(balance.stdout)")
        // Two charges and two payments without types: either reading is plausible.
        let split = try workspace.write(
            "split.csv",
            "Date,Description,Card Member,Amount\n10/09/2026,SHELL OIL,JANE DOE,88.20\n10/15/2026,Payment Thank You,JANE DOE,-500.00\n10/21/2026,UBER EATS,JANE DOE,23.75\n10/24/2026,NETFLIX REFUND,JANE DOE,-12.99\n"
        )
        // One charge beside refunds and a payment: three of four positive is no majority of
        // five rows, and the signs are not turned.
        let refunds = try workspace.write(
            "refunds.csv",
            "Date,Description,Card Member,Amount\n10/02/2026,SHOP,JANE DOE,-54.20\n10/05/2026,REFUND,JANE DOE,20.00\n10/07/2026,REFUND,JANE DOE,12.00\n10/15/2026,PAYMENT,JANE DOE,300.00\n"
        )
        for file in [split, refunds] {
            let open = try StatementsRunner.run(["validate", file, "--account", "card:amex/1004"])
            #expect(open.status == 1)
            #expect(
                open.stderr.contains(
                    "but not whether positive amounts are money in (sign signed) or charges (sign charges-positive)"
                ), "\(open.stderr)")
        }
    }

    @Test func `proves debit and credit swapped and the row order by the balance`() throws {
        let workspace = try Workspace()
        // Newest first, as the dates say. "Debit" raises the balance: the bank speaks from
        // its own books.
        let export = try workspace.write(
            "books.csv",
            """
            Date,Description,Debit,Credit,Balance
            2026-10-03,Rent,,500.00,2000.00
            2026-10-02,Coffee,,12.50,2500.00
            2026-10-01,Salary,2500.00,,2512.50

            """)
        let output = try StatementsRunner.run([
            "import", export, "--account", "name:books", "--state", workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "[DIALECT_ASSUMED] the balance column rises by column \"Debit\" and falls by \"Credit\": read \"Debit\" as money in (columns.credit) and \"Credit\" as money out (columns.debit)"
            ))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("2,000.00"), "\(accounts.stdout)")

        // The profile it prints says the same, and reads the file.
        let profile = try StatementsRunner.run(["profile", export, "--account", "name:books"])
        #expect(profile.stdout.contains(#""debit": "Credit""#), "\(profile.stdout)")
        #expect(profile.stdout.contains(#""rowOrder": "newest-first""#), "\(profile.stdout)")
    }

    @Test(arguments: ["Amount\n-12.50", "Debit,Credit\n12.50,"])
    func `refuses a balance that proves opposite signs in two row orders on one day`(
        columns: String
    ) throws {
        let workspace = try Workspace()
        // The balance before each row, oldest first, reads as the balance after each row,
        // newest first, with every sign turned: on one day the dates cannot tell which.
        let names = columns.split(separator: "\n")
        let first = String(names[1])
        let salary = names[0] == "Amount" ? "2500.00" : ",2500.00"
        let rent = names[0] == "Amount" ? "-800.00" : "800.00,"
        let export = try workspace.write(
            "before.csv",
            """
            Date,Description,\(names[0]),Balance
            2026-10-01,Shop,\(first),1000.00
            2026-10-01,Salary,\(salary),987.50
            2026-10-01,Rent,\(rent),3487.50

            """)
        let output = try StatementsRunner.run([
            "import", export, "--account", "name:before", "--currency", "EUR", "--state",
            workspace.state,
        ])
        #expect(output.status == 1, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "before.csv:2:1: error: [DIALECT_UNKNOWN] every row is on the same day, so the dates do not tell which way the rows are listed"
            ), "\(output.stderr)")
        #expect(!output.stdout.contains("new transactions"))

        // Over several days the dates tell: the balance before each row proves nothing, and
        // the running balance check refuses it where its chain breaks.
        let days = try workspace.write(
            "days.csv",
            """
            Date,Description,\(names[0]),Balance
            2026-10-01,Shop,\(first),1000.00
            2026-10-02,Salary,\(salary),987.50
            2026-10-03,Rent,\(rent),3487.50

            """)
        let read = try StatementsRunner.run([
            "validate", days, "--account", "name:before", "--currency", "EUR",
        ])
        #expect(read.status == 1, "\(read.stderr)")
        #expect(read.stderr.contains("[BALANCE_RUNNING]"), "\(read.stderr)")
    }

    @Test func `takes the balance after each row where a file without header has both`() throws {
        let workspace = try Workspace()
        // Account, currency, date, balance before, balance after, value date, amount, text:
        // the balance before holds only with the signs turned, the one after as written.
        let export = try workspace.write(
            "tab.tab",
            [
                "123456789\tEUR\t20261013\t1000,00\t3500,00\t20261013\t2500,00\tACME PAYROLL",
                "123456789\tEUR\t20261013\t3500,00\t3487,50\t20261013\t-12,50\tCOFFEE HOUSE",
                "123456789\tEUR\t20261013\t3487,50\t2252,94\t20261013\t-1234,56\tLANDLORD",
            ].joined(separator: "\n") + "\n")
        let output = try StatementsRunner.run([
            "import", export, "--account", "NL91ABNA0417164300", "--state", workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let register = try StatementsRunner.run(["register", "--state", workspace.state])
        #expect(register.stdout.contains("-1,234.56 EUR  2,252.94 EUR"), "\(register.stdout)")
        #expect(register.stdout.contains("2,500.00 EUR  3,500.00 EUR"), "\(register.stdout)")
    }

    @Test func `reads the rows that two overlapping exports share alike, once`() throws {
        let workspace = try Workspace()
        // Two columns of text: which one tells the rows apart more differs between the two
        // files, so the description joins both.
        let first = try workspace.write(
            "first.csv",
            """
            2026-10-01,Amazon,Order,-10.00
            2026-10-02,Rewe,Order,-20.00
            2026-10-03,Lidl,Card,-30.00
            2026-10-04,Aldi,Card,-40.00

            """)
        let second = try workspace.write(
            "second.csv",
            """
            2026-10-03,Lidl,Card,-30.00
            2026-10-04,Aldi,Card,-40.00
            2026-10-05,Aldi,Refund,5.00
            2026-10-06,Aldi,Transfer,-6.00

            """)
        // N26's export: "Partner Name" is the payee, whatever the other columns hold.
        let header =
            #""Booking Date","Value Date","Partner Name","Partner Iban","Type","Payment Reference","Account Name","Amount (EUR)""#
        let n26Rows = [
            #""2026-10-01","2026-10-01","ACME PAYROLL","","Credit Transfer","","Main Account","2500.00""#,
            #""2026-10-03","2026-10-03","COFFEE HOUSE","","Presentment","","Main Account","-12.50""#,
            #""2026-10-13","2026-10-13","LANDLORD","","Presentment","Rent","Main Account","-1234.56""#,
            #""2026-10-20","2026-10-20","GROCERY MART","","Presentment","","Main Account","-49.99""#,
        ]
        let days = try workspace.write(
            "n26-days.csv", ([header] + n26Rows.prefix(2)).joined(separator: "\n") + "\n")
        let month = try workspace.write(
            "n26-month.csv", ([header] + n26Rows).joined(separator: "\n") + "\n")
        for (files, account, count) in [
            ([first, second], "DE89370400440532013000", "6"), ([days, month], "name:n26", "4"),
        ] {
            for file in files {
                let output = try StatementsRunner.run([
                    "import", file, "--account", account, "--currency", "EUR", "--state",
                    workspace.state,
                ])
                #expect(output.status == 0, "\(output.stderr)")
            }
            let register = try StatementsRunner.run([
                "register", "--account", account, "--state", workspace.state,
            ])
            #expect(register.stdout.contains("\n\(count) transactions"), "\(register.stdout)")
        }
        let register = try StatementsRunner.run(["register", "--state", workspace.state])
        #expect(register.stdout.contains("Lidl Card "), "\(register.stdout)")
        #expect(register.stdout.contains("COFFEE HOUSE "), "\(register.stdout)")
        #expect(!register.stdout.contains("Presentment"), "\(register.stdout)")
    }

    @Test func `takes the statement's IBAN from a preamble that also names another account`()
        throws
    {
        let workspace = try Workspace()
        func export(_ label: String) -> String {
            "Umsatzanzeige;Tagesgeld\n\(label):;DE44500105175407324931\nIBAN:;DE89370400440532013000\n"
                + "\nBuchungstag;Verwendungszweck;Betrag\n01.10.2026;Zinsen;1,23\n"
                + "02.10.2026;Uebertrag;500,00\n"
        }
        // A savings account's reference account is not the statement's.
        let savings = try workspace.write("savings.csv", export("Referenzkonto"))
        let read = try StatementsRunner.run(["import", savings, "--state", workspace.state])
        #expect(read.status == 0, "\(read.stderr)")
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("DE89 3704 0044 0532 0130 00"), "\(accounts.stdout)")
        #expect(!accounts.stdout.contains("DE44"), "\(accounts.stdout)")

        // Two IBANs that nothing tells apart: the given one where it is either, else refused.
        let two = try workspace.write("two.csv", export("Konto 2"))
        let refused = try StatementsRunner.run(["validate", two])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                #"two.csv:3:2: error: [DIALECT_UNKNOWN] the lines above the header name several IBANs ("DE44500105175407324931", "DE89370400440532013000")"#
            ), "\(refused.stderr)")
        let given = try StatementsRunner.run([
            "import", two, "--account", "DE44500105175407324931", "--state", workspace.state,
        ])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(!given.stderr.contains("is not used"), "\(given.stderr)")
        let both = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(both.stdout.contains("DE44 5001"), "\(both.stdout)")
    }

    @Test func `reads a column named Info as the status only when its values are statuses`()
        throws
    {
        let workspace = try Workspace()
        func export(_ name: String, _ infos: [String]) throws -> String {
            let rows = zip(["Shop;-12,50", "Hotel;-200,00", "Storno;5,00"], infos).enumerated()
                .map { "0\($0 + 1).10.2026;\($1.0);\($1.1)" }
            return try workspace.write(
                name, (["Buchungstag;Verwendungszweck;Betrag;Info"] + rows).joined(separator: "\n"))
        }
        let known = try export(
            "known.csv", ["Umsatz gebucht", "Umsatz vorgemerkt", "Umsatz gebucht"])
        let free = try export("free.csv", ["Kartenzahlung", "Hotel Berlin", "Rückbuchung"])
        let mixed = try export("mixed.csv", ["Umsatz gebucht", "Umsatz vorgemerkt", "Rückbuchung"])
        let account = ["--account", "DE89370400440532013000"]
        let pending = try StatementsRunner.run(["validate", known] + account)
        #expect(pending.status == 0, "\(pending.stderr)")
        #expect(pending.stdout.contains("(3 rows checked, 1 not booked yet)"), "\(pending.stdout)")
        let text = try StatementsRunner.run(["validate", free] + account)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("(3 rows checked)"), "\(text.stdout)")
        // A value that says not booked beside one unknown: the column is a status, unknown.
        let refused = try StatementsRunner.run(["validate", mixed] + account)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                #"mixed.csv:4:24: error: [DIALECT_UNKNOWN] the status column holds "Rückbuchung" (line 4)"#
            ), "\(refused.stderr)")
    }

    @Test func `refuses signed amounts that a debit and credit type column contradicts`() throws {
        let workspace = try Workspace()
        func export(_ name: String, refund: String) throws -> String {
            try workspace.write(
                name,
                "Date,Description,Amount,Type\n2026-10-01,Shop,-12.50,Debit\n"
                    + "2026-10-02,Refund,5.00,\(refund)\n2026-10-03,Salary,200.00,Credit\n")
        }
        let account = ["--account", "DE89370400440532013000", "--currency", "EUR"]
        let agree = try StatementsRunner.run(
            ["validate", try export("agree.csv", refund: "Credit")] + account)
        #expect(agree.status == 0, "\(agree.stderr)")
        let contradicted = try StatementsRunner.run(
            ["validate", try export("refund.csv", refund: "Debit")] + account)
        #expect(contradicted.status == 1)
        #expect(
            contradicted.stderr.contains(
                #"refund.csv:3:24: error: [DIALECT_UNKNOWN] the amounts carry their sign, and column "Type" says debit or credit, but the two disagree: "Debit" (line 3)"#
            ), "\(contradicted.stderr)")
    }

    @Test func `takes a dated last row labelled as the closing balance as no booking`() throws {
        let workspace = try Workspace()
        let header = "Buchungstag;Verwendungszweck;Soll;Haben\n"
        let rows = "01.10.2026;Miete;800,00;\n02.10.2026;Gehalt;;2.500,00\n"
        let closing = try workspace.write(
            "closing.csv", header + rows + "31.10.2026;Neuer Kontostand;;1.900,00\n")
        let output = try StatementsRunner.run([
            "import", closing, "--account", "DE89370400440532013000", "--state", workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                #"closing.csv:4:12: warning: [DIALECT_ASSUMED] the last row, "Neuer Kontostand" (line 4), is the closing balance, not a booking"#
            ), "\(output.stderr)")
        let register = try StatementsRunner.run(["register", "--state", workspace.state])
        #expect(register.stdout.contains("\n2 transactions"), "\(register.stdout)")
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("1,900.00"), "\(accounts.stdout)")

        // One among the bookings is refused: the parser would read it as one.
        let opening = try workspace.write(
            "opening.csv", header + "01.10.2026;Alter Kontostand;;200,00\n" + rows)
        let refused = try StatementsRunner.run([
            "validate", opening, "--account", "DE89370400440532013000",
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                #"opening.csv:2:12: error: [DIALECT_UNKNOWN] the row labelled "Alter Kontostand" (line 2) is a balance or a total, not a booking"#
            ), "\(refused.stderr)")
    }

    @Test func `takes a current account for one, whatever card column or date order it shows`()
        throws
    {
        let workspace = try Workspace()
        // The debit card each row was paid with makes no card account: signs as written.
        let checking = try workspace.write(
            "checking.csv",
            "Date,Description,Card No.,Amount\n2026-10-01,Salary,,2500.00\n"
                + "2026-10-02,Shop,XXXX1234,-12.50\n2026-10-03,Refund,XXXX1234,20.00\n"
                + "2026-10-04,Transfer in,,300.00\n")
        let iban = ["--account", "DE89370400440532013000"]
        let read = try StatementsRunner.run(
            ["import", checking, "--state", workspace.state] + iban)
        #expect(read.status == 0, "\(read.stderr)")
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("2,807.50"), "\(accounts.stdout)")
        #expect(!read.stderr.contains("charges positive"), "\(read.stderr)")

        // Month-first dates on a German IBAN: the euro, not the dollar.
        let monthFirst = try workspace.write(
            "us-dates.csv", "Date,Description,Amount\n01/02/2026,A,-1.00\n01/13/2026,B,-2.00\n")
        let dates = try StatementsRunner.run(["validate", monthFirst] + iban)
        #expect(dates.stderr.contains("assumed EUR"), "\(dates.stderr)")

        // A currency given that the currency column contradicts.
        let euros = try workspace.write(
            "euros.csv", "Date,Description,Amount,Currency\n2026-10-01,Shop,-12.50,EUR\n")
        let contradicted = try StatementsRunner.run(
            ["validate", euros, "--currency", "USD"] + iban)
        #expect(contradicted.status == 1)
        #expect(
            contradicted.stderr.contains(
                #"euros.csv:2:24: error: [DIALECT_UNKNOWN] the account's currency is USD, but the currency column holds "EUR" (line 2)"#
            ), "\(contradicted.stderr)")
    }

    @Test func `keeps the bank's running balance within a day of a file listed newest first`()
        throws
    {
        let workspace = try Workspace()
        let export = try workspace.write(
            "newest.csv",
            """
            Date,Description,Amount,Balance
            2026-10-02,Fee,-5.00,1682.50
            2026-10-01,Rent,-800.00,1687.50
            2026-10-01,Salary,2500.00,2487.50
            2026-10-01,Shop,-12.50,-12.50

            """)
        let output = try StatementsRunner.run([
            "import", export, "--account", "DE89370400440532013000", "--state", workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let register = try StatementsRunner.run([
            "register", "-f", "csv", "--state", workspace.state,
        ])
        let balances = register.stdout.split(whereSeparator: \.isNewline).dropFirst().map {
            $0.split(separator: ",").last.map(String.init) ?? ""
        }
        #expect(balances == ["-12.50", "2487.50", "1687.50", "1682.50"], "\(register.stdout)")
    }

    @Test func `reads a two-digit year first where only the last part of the dates changes`()
        throws
    {
        let workspace = try Workspace()
        let swedish = try workspace.write(
            "se.csv",
            "Bokföringsdag;Text;Belopp\n26-10-01;ICA;-125,50\n26-10-05;Lön;25 000,00\n26-10-12;Hyra;-8 500,00\n"
        )
        let output = try StatementsRunner.run([
            "import", swedish, "--account", "name:se", "--currency", "SEK", "--state",
            workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("read as yy-MM-dd, the year first"), "\(output.stderr)")
        let register = try StatementsRunner.run(["register", "--state", workspace.state])
        #expect(register.stdout.contains("2026-10-12  Hyra"), "\(register.stdout)")
        // The same day of two months across a year's end stays day first.
        let rent = try workspace.write(
            "rent.csv", "Datum;Text;Betrag\n01.12.25;Miete;-900,00\n01.01.26;Miete;-900,00\n")
        let days = try StatementsRunner.run([
            "import", rent, "--account", "name:rent", "--state", workspace.state,
        ])
        #expect(days.status == 0, "\(days.stderr)")
        let months = try StatementsRunner.run([
            "register", "--account", "name:rent", "--state", workspace.state,
        ])
        #expect(months.stdout.contains("2025-12-01"), "\(months.stdout)")
    }

    @Test func `leaves open the sign of amounts written without one, beside a balance or types`()
        throws
    {
        let workspace = try Workspace()
        // The balance falls by every amount but the first, which no balance before it checks.
        let balance = try workspace.write(
            "balance.csv",
            "Date,Description,Amount,Balance\n10/01/2026,PAYROLL ACME,2500.00,2500.00\n"
                + "10/02/2026,RENT,900.00,1600.00\n10/03/2026,KROGER,45.10,1554.90\n")
        // Types of several kinds of booking beside unsigned amounts.
        let types = try workspace.write(
            "types.csv",
            "Posting Date,Description,Type,Amount\n10/01/2026,PAYROLL,ACH Credit,2500.00\n"
                + "10/02/2026,RENT,ACH Debit,900.00\n10/03/2026,KROGER,POS,45.10\n")
        for file in [balance, types] {
            let open = try StatementsRunner.run([
                "validate", file, "--account", "aba:021000021/123456789",
            ])
            #expect(open.status == 1, "\(open.stderr)")
            #expect(
                open.stderr.contains("but not whether positive amounts are money in"),
                "\(open.stderr)")
        }
    }

    @Test func `keeps words of a status or a sign out of the text of overlapping exports`()
        throws
    {
        let workspace = try Workspace()
        let first = try workspace.write(
            "a.csv",
            "2026-10-01;Rewe Markt;Booked;-12,50\n2026-10-03;Gehalt;Booked;2000,00\n"
                + "2026-10-05;Miete;Booked;-900,00\n")
        let second = try workspace.write(
            "b.csv",
            "2026-10-03;Gehalt;Booked;2000,00\n2026-10-05;Miete;Booked;-900,00\n"
                + "2026-10-07;Amazon;Reversed;-20,00\n2026-10-08;Amazon;Booked;20,00\n")
        for file in [first, second] {
            let output = try StatementsRunner.run([
                "import", file, "--account", "DE89370400440532013000", "--state", workspace.state,
            ])
            #expect(output.status == 0, "\(output.stderr)")
        }
        let register = try StatementsRunner.run(["register", "--state", workspace.state])
        #expect(register.stdout.contains("\n5 transactions"), "\(register.stdout)")
        #expect(!register.stdout.contains("Booked"), "\(register.stdout)")
    }

    @Test(arguments: [
        "Kontostand", "Balance", "Balance carried forward", "Total", "Opening balance",
    ])
    func `takes a last row labelled only as a balance as the balance, and refuses a total`(
        label: String
    ) throws {
        let workspace = try Workspace()
        let export = try workspace.write(
            "labelled.csv",
            "Datum;Text;Betrag\n01.10.2026;Miete;-900,00\n02.10.2026;Gehalt;2000,00\n"
                + "31.10.2026;\(label);1100,00\n")
        let output = try StatementsRunner.run([
            "validate", export, "--account", "DE89370400440532013000",
        ])
        if label == "Total" || label == "Opening balance" {
            #expect(output.status == 1, "\(output.stderr)")
            #expect(output.stderr.contains("is a balance or a total, not a booking"))
        } else {
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.contains("is the closing balance, not a booking"))
            #expect(output.stdout.contains("2 rows checked"), "\(output.stdout)")
        }
    }

    @Test func `reads a fee in a column of its own the way the balance proves, else refuses it`()
        throws
    {
        let workspace = try Workspace()
        let header = "Date,Description,Amount,Fee,Balance\n2026-10-01,Top-up,100.00,0.00,100.00\n"
        // Revolut's way: the fee is taken from the amount (-50.00 and 1.00 is -51.00); a fee
        // written with its sign is added. Either way the balance says which.
        for fee in ["1.00", "-1.00"] {
            let workspace = try Workspace()
            let export = try workspace.write(
                "fee.csv", header + "2026-10-02,Cash at Bank X,-50.00,\(fee),49.00\n")
            let output = try StatementsRunner.run([
                "import", export, "--account", "name:rev", "--state", workspace.state,
            ])
            #expect(output.status == 0, "\(output.stderr)")
            let sign =
                fee.hasPrefix("-")
                ? "added to the amount with its sign (fee signed)"
                : "taken from the amount (fee deducted)"
            #expect(
                output.stderr.contains(
                    #"fee.csv:3:34: warning: [DIALECT_ASSUMED] column "Fee" holds a fee beside the amount, such as ""#
                        + fee + #"" (line 3); the balance shows it is "# + sign), "\(output.stderr)"
            )
            let register = try StatementsRunner.run([
                "register", "--state", workspace.state, "-f", "csv",
            ])
            #expect(
                register.stdout.contains("Cash at Bank X,,-51.00,EUR,49.00"), "\(register.stdout)")
        }
        // PayPal's Net beside its Fee: the balance moves by the amount, the fee in it.
        let net = try workspace.write(
            "net.csv", header + "2026-10-02,Cash at Bank X,-51.00,-1.00,49.00\n")
        let included = try StatementsRunner.run([
            "import", net, "--account", "name:net", "--state", workspace.state,
        ])
        #expect(included.status == 0, "\(included.stderr)")
        #expect(
            included.stderr.contains(
                "the balance shows the amount includes it (the fee is not read)"),
            "\(included.stderr)")
        let netRegister = try StatementsRunner.run([
            "register", "--state", workspace.state, "-f", "csv", "--account", "name:net",
        ])
        #expect(
            netRegister.stdout.contains("Cash at Bank X,,-51.00,EUR,49.00"), "\(netRegister.stdout)"
        )
        // Without a balance nothing tells how the fee counts: refused.
        let unproved = try workspace.write(
            "unproved.csv",
            "Date,Description,Amount,Fee\n2026-10-01,Top-up,100.00,0.00\n"
                + "2026-10-02,Cash at Bank X,-50.00,1.00\n")
        let output = try StatementsRunner.run(["validate", unproved, "--account", "name:rev"])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                #"unproved.csv:3:34: error: [DIALECT_UNKNOWN] column "Fee" holds a fee beside the amount, such as "1.00" (line 3), and no balance shows whether the amount includes it, it is taken from the amount or added with its sign"#
            ), "\(output.stderr)")
        // A profile says it; a profile's fee without its column is refused.
        let profile = try workspace.write(
            "fee.json",
            #"{"dateFormat": "yyyy-MM-dd", "columns": {"date": "Date", "amount": "Amount", "#
                + #""description": "Description", "fee": "Fee"}, "fee": "deducted", "#
                + #""account": {"id": "name:rev", "currency": "EUR"}}"#)
        let profiled = try StatementsRunner.run([
            "import", unproved, "--profile", profile, "--state", workspace.state,
        ])
        #expect(profiled.status == 0, "\(profiled.stderr)")
        let register = try StatementsRunner.run([
            "register", "--state", workspace.state, "-f", "csv",
        ])
        #expect(register.stdout.contains("Cash at Bank X,,-51.00,EUR,49.00"), "\(register.stdout)")
        let noColumn = try workspace.write(
            "nocolumn.json",
            #"{"columns": {"date": "Date", "amount": "Amount", "description": "Description"}, "#
                + #""fee": "deducted", "account": {"id": "name:rev"}}"#)
        let refused = try StatementsRunner.run(["validate", unproved, "--profile", noColumn])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("fee: needs the fee's column (columns.fee)"),
            "\(refused.stderr)")
        // Fees of zero only: nothing is missed.
        let free = try workspace.write(
            "free.csv", header + "2026-10-02,Cash,-50.00,0.00,50.00\n")
        let read = try StatementsRunner.run(["validate", free, "--account", "name:rev"])
        #expect(read.status == 0, "\(read.stderr)")
    }

    @Test func `proves a card's charges positive by a balance that is owed`() throws {
        let workspace = try Workspace()
        // The balance, rising by each amount and positive, is what is owed.
        let export = try workspace.write(
            "card.csv",
            """
            Date,Description,Amount,Balance
            2026-10-02,SHOP,300.00,300.00
            2026-10-10,PAYMENT,-100.00,200.00
            2026-10-20,SHOP,50.00,250.00

            """)
        let output = try StatementsRunner.run([
            "import", export, "--account", "card:visa/1234", "--currency", "EUR", "--state",
            workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("it is what is owed; read charges positive"))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("-250.00"), "\(accounts.stdout)")

        // Payments outnumbering charges read the same as a prepaid card's money, spent: the
        // sign is left open.
        let prepaid = try workspace.write(
            "prepaid.csv",
            "Date,Description,Amount,Balance\n2026-10-01,TOP-UP,100.00,100.00\n"
                + "2026-10-02,COFFEE,-3.50,96.50\n2026-10-03,CINEMA,-12.00,84.50\n")
        // Top-ups and a refund beside two purchases: not the two-to-one of a card's charges
        // over its payments, so a prepaid card's money as well.
        let topUps = try workspace.write(
            "top-ups.csv",
            "Date,Description,Amount,Balance\n2026-03-01,TOP-UP,100.00,100.00\n"
                + "2026-03-03,TESCO,-20.00,80.00\n2026-03-08,TOP-UP,50.00,130.00\n"
                + "2026-03-12,REFUND,15.00,145.00\n2026-03-20,PRET,-5.00,140.00\n")
        for file in [prepaid, topUps] {
            let open = try StatementsRunner.run([
                "validate", file, "--account", "card:visa/9999", "--currency", "EUR",
            ])
            #expect(open.status == 1, "\(open.stderr)")
            #expect(
                open.stderr.contains(
                    "but not whether positive amounts are money in (sign signed) or charges"),
                "\(open.stderr)")
        }
        #expect(accounts.stdout.contains("EUR"))
        #expect(!output.stderr.contains("assumed USD"))
        let alone = try StatementsRunner.run(["validate", export, "--currency", "EUR"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--currency is the currency of the account given"))
        let unknown = try StatementsRunner.run([
            "validate", export, "--account", "name:x", "--currency", "EURO",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--currency \"EURO\" is not an ISO 4217 currency code"))
    }

    @Test func `keeps a booking dated back out of the balances of the days it passes`() throws {
        let workspace = try Workspace()
        // The bank's balance after the 2nd (80.00) left out the booking dated the 1st that it
        // lists next; in date order the 2nd ends at 70.00. Newest first alike.
        // A second row dated back after the first (the 2nd after the 1st, both before the 3rd
        // listed above them) ends no day either.
        let rows = [
            "2026-03-01,A,-10.00,90.00", "2026-03-03,B,-10.00,80.00", "2026-03-01,C,-10.00,70.00",
            "2026-03-02,D,-10.00,60.00", "2026-03-04,E,-10.00,50.00",
        ]
        for (name, ordered) in [("oldest", rows), ("newest", rows.reversed())] {
            let export = try workspace.write(
                "\(name).csv", "Date,Description,Amount,Balance\n" + ordered.joined(separator: "\n")
            )
            let state = workspace.path + "/state-\(name)"
            let output = try StatementsRunner.run([
                "import", export, "--account", "name:x", "--currency", "EUR", "--state", state,
            ])
            #expect(output.status == 0, "\(name): \(output.stderr)")
            let accounts = try StatementsRunner.run(["accounts", "--state", state])
            #expect(accounts.stdout.contains("50.00"), "\(accounts.stdout)")
        }
        // A later file whose last row is dated back still states where the days before it
        // end, counting that row: a gap of 440.00 between the files is found.
        let gap = workspace.path + "/state-gap"
        for (name, rows) in [
            ("first", ["2026-10-01,A,-10.00,90.00", "2026-10-02,B,-10.00,80.00"]),
            (
                "later",
                [
                    "2026-10-05,D,-10.00,500.00", "2026-10-06,E,-10.00,490.00",
                    "2026-10-07,F,-10.00,480.00", "2026-10-04,G,-10.00,470.00",
                ]
            ),
        ] {
            let file = try workspace.write(
                "\(name).csv", "Date,Description,Amount,Balance\n" + rows.joined(separator: "\n"))
            let output = try StatementsRunner.run([
                "import", file, "--account", "name:x", "--currency", "EUR", "--state", gap,
            ])
            #expect(output.status == (name == "first" ? 0 : 1), "\(name): \(output.stderr)")
            if name == "later" {
                #expect(
                    output.stderr.contains(
                        "the bank states 490.00 EUR for name:x at the end of 2026-10-05"),
                    "\(output.stderr)")
            }
        }
    }

    @Test func `refuses a balance chain that breaks, at the row where it breaks`() throws {
        let workspace = try Workspace()
        let export = try workspace.write(
            "broken.csv",
            """
            Date,Description,Amount,Balance
            2026-10-01,Salary,2500.00,2500.00
            2026-10-02,Coffee,-12.50,2487.50
            2026-10-03,Rent,-500.00,1900.00

            """)
        let output = try StatementsRunner.run(["validate", export, "--account", "name:x"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("broken.csv:4:"), "\(output.stderr)")
        #expect(output.stderr.contains("[BALANCE_RUNNING]"))
    }

    @Test func `reads columns by their values when the header words are unknown`() throws {
        let workspace = try Workspace()
        let export = try workspace.write(
            "api.csv",
            """
            created,details,value_eur,running_total
            2026-10-01T09:00:00Z,Salary,2500.00,3500.00
            2026-10-03T10:00:00Z,Coffee,-12.50,3487.50
            2026-10-13T11:00:00Z,Rent,-1234.56,2252.94

            """)
        let output = try StatementsRunner.run([
            "import", export, "--account", "name:api", "--state", workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("3 new transactions"))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("2,252.94"), "\(accounts.stdout)")
        #expect(accounts.stdout.contains("EUR"))
    }

    @Test
    func `says what it recognised and prints a profile with FILL IN where a question is open`()
        throws
    {
        let workspace = try Workspace()
        let export = try workspace.write(
            "open.csv",
            """
            Tag,Text,Posten X,Posten Y
            2026-10-01,Miete,-500.00,12.00
            2026-10-02,Kaffee,-3.50,12.00

            """)
        let refused = try StatementsRunner.run(["validate", export, "--account", "name:x"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "open.csv:1:1: error: [DIALECT_UNKNOWN] recognised dates in \"Tag\" (yyyy-MM-dd), text in \"Text\", no balance column, but not which column is the amount (\"Posten X\" or \"Posten Y\"); statements profile FILE prints a profile with FILL IN where the file leaves it open"
            ), "\(refused.stderr)")
        let profile = try StatementsRunner.run(["profile", export, "--account", "name:x"])
        #expect(profile.status == 1)
        let fills = profile.stdout.split(separator: "\n").filter { $0.contains("FILL IN") }
        #expect(fills == [#"    "amount": "FILL IN one of Posten X, Posten Y","#])

        // Filled in, the profile reads the file.
        let filled = try workspace.write(
            "filled.json",
            profile.stdout.replacingOccurrences(
                of: "FILL IN one of Posten X, Posten Y", with: "Posten X"))
        let read = try StatementsRunner.run(["validate", "--profile", filled, export])
        #expect(read.status == 0, "\(read.stderr)")
    }

    @Test func `profile checks that the profile it prints reads the file`() throws {
        let workspace = try Workspace()
        let export = try workspace.write(
            "broken.csv",
            """
            Date,Description,Amount,Balance
            2026-10-01,Salary,2500.00,2500.00
            2026-10-02,Coffee,-12.50,2487.50
            2026-10-03,Rent,-500.00,1900.00

            """)
        let output = try StatementsRunner.run(["profile", export, "--account", "name:x"])
        #expect(output.status == 1)
        #expect(output.stdout.contains(#""balance": "Balance""#))
        #expect(output.stderr.contains("broken.csv:4:25: error: [BALANCE_RUNNING]"))
        #expect(
            output.stderr.contains(
                "broken.csv: the profile printed does not read the file (1 error)"))
        let good = try workspace.write(
            "good.csv", "Date,Description,Amount,Balance\n2026-10-01,Salary,2500.00,2500.00\n")
        let fine = try StatementsRunner.run(["profile", good, "--account", "name:x"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }
}
