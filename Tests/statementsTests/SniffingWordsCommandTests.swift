import Foundation
import Testing

/// End-to-end tests of the words and columns that decide how an export reads (#35, the third
/// red team): balance and total rows, pending columns, whose account a preamble names, what
/// a balance owed proves, and currencies written beside an IBAN or without decimals.
struct SniffingWordsCommandTests {
    /// Imports `text` with `arguments` into a fresh ledger: the run, and the register's rows
    /// as `date,amount,currency` (empty when nothing was imported).
    private func read(_ text: String, _ arguments: [String]) throws -> (
        StatementsRunner.Output, [String]
    ) {
        let workspace = try Workspace()
        defer { withExtendedLifetime(workspace) {} }
        let export = try workspace.write("export.csv", text)
        let output = try StatementsRunner.run(
            ["import", export, "--state", workspace.state] + arguments)
        let register = try StatementsRunner.run([
            "register", "--state", workspace.state, "-f", "csv",
        ])
        let rows = register.stdout.split(whereSeparator: \.isNewline).dropFirst().map { row in
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            return [fields[0], fields[fields.count - 3], fields[fields.count - 2]].joined(
                separator: ",")
        }
        return (output, rows)
    }

    @Test func `reads a card's charges written negative beside what is owed as written`() throws {
        let card =
            "Date,Description,Amount,Balance\n03/02/2026,STARBUCKS,-5.75,105.75\n"
            + "03/05/2026,AMAZON,-42.10,147.85\n03/14/2026,PAYMENT THANK YOU,100.00,47.85\n"
        let (output, rows) = try read(card, ["--account", "card:visa/1234", "--currency", "USD"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains("it is what is owed, and is not used; amounts read as signed"))
        #expect(rows == ["2026-03-02,-5.75,USD", "2026-03-05,-42.10,USD", "2026-03-14,100.00,USD"])
        // On an account not known as a card the same balance may be money left, falling by
        // charges written positive: the sign is left open.
        let (open, none) = try read(card, ["--account", "name:x", "--currency", "USD"])
        #expect(open.status == 1)
        #expect(open.stderr.contains("but not whether positive amounts are money in"))
        #expect(none.isEmpty)
        // A card issuer's two dates over amounts mostly positive: charges, or money in.
        let (issuer, _) = try read(
            "Trans. Date,Post Date,Description,Amount\n03/02/2026,03/02/2026,STARBUCKS,5.75\n"
                + "03/05/2026,03/06/2026,AMAZON.COM,42.10\n"
                + "03/14/2026,03/14/2026,INTERNET PAYMENT - THANK YOU,-200.00\n",
            ["--account", "name:x", "--currency", "USD"])
        #expect(issuer.status == 1)
        #expect(issuer.stderr.contains("but not whether positive amounts are money in"))
        // Rows typed Sale and Payment are a card's, whatever account is given.
        let (typed, typedRows) = try read(
            "Date,Description,Type,Amount\n2026-03-02,STARBUCKS,Sale,5.75\n"
                + "2026-03-14,PAYMENT,Payment,-200.00\n2026-03-20,SHELL,Sale,38.00\n",
            ["--account", "name:x", "--currency", "USD"])
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(typedRows.map { $0.split(separator: ",")[1] } == ["-5.75", "200.00", "-38.00"])
    }

    @Test func `takes a last row labelled as a balance as the closing balance and refuses others`()
        throws
    {
        let rows =
            "Buchungstag;Verwendungszweck;Betrag\n02.03.2026;Gehalt;2.500,00\n"
            + "05.03.2026;REWE;-84,12\n"
        let account = ["--account", "name:x", "--currency", "EUR"]
        let (closing, booked) = try read(
            rows + "31.03.2026;Kontostand am 31.03.2026;3.915,88\n", account)
        #expect(closing.status == 0, "\(closing.stderr)")
        #expect(
            closing.stderr.contains(#""Kontostand am 31.03.2026" (line 4), is the closing balance"#)
        )
        #expect(booked.count == 2)
        for (label, line) in [
            ("Summe der Umsätze", 4), ("Total for March 2026", 4), ("ANCIEN SOLDE", 2),
            ("Saldo precedente", 2), ("SALDO ANTERIOR", 2),
        ] {
            let text =
                line == 2
                ? "Buchungstag;Verwendungszweck;Betrag\n01.03.2026;\(label);1.500,00\n"
                    + "02.03.2026;Gehalt;2.500,00\n05.03.2026;REWE;-84,12\n"
                : rows + "31.03.2026;\(label);2.415,88\n"
            let (refused, none) = try read(text, account)
            #expect(refused.status == 1, "\(label)")
            #expect(
                refused.stderr.contains(
                    "export.csv:\(line):12: error: [DIALECT_UNKNOWN] the row labelled \"\(label)\" (line \(line)) is a balance or a total, not a booking"
                ), "\(refused.stderr)")
            #expect(none.isEmpty)
        }
        // Listed newest first, the last row is the oldest: a balance labelled as the opening
        // one is the balance before the rows; one labelled only as a balance is refused.
        for (label, opening) in [("Alter Kontostand", true), ("Kontostand", false)] {
            let (newest, newestRows) = try read(
                "Buchungstag;Verwendungszweck;Betrag;Saldo\n13.07.2026;DB Bahn;-37,80;3.407,99\n"
                    + "03.07.2026;REWE;-54,21;3.445,79\n02.07.2026;Gehalt;2.500,00;3.500,00\n"
                    + "01.07.2026;\(label);1.000,00;\n", account)
            #expect(newest.status == (opening ? 0 : 1), "\(newest.stderr)")
            #expect(newestRows.count == (opening ? 3 : 0))
        }
        // Merchants named like the start of a label, with no date after it, are bookings.
        for merchant in ["Solde Privé Shop", "Saldo al 50% Outlet", "Brought Forward Coffee"] {
            let (output, booked) = try read(rows + "31.03.2026;\(merchant);-45,00\n", account)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(booked.count == 3, "\(merchant): \(booked)")
        }
        // An undated total under the rows is a footer line, not a row without its date.
        for footer in [";Total des opérations;129,12", ";Total;2.415,88"] {
            let (output, footed) = try read(rows + footer + "\n", account)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(footed == ["2026-03-02,2500.00,EUR", "2026-03-05,-84.12,EUR"])
        }
    }

    @Test func `decides the order of day and month by a value date, never by the order of rows`()
        throws
    {
        let account = ["--account", "name:x", "--currency", "GBP"]
        // The value date's 13 says day first, for the booking date too.
        let (valued, rows) = try read(
            "Date,Value Date,Description,Amount\n01/03/2026,02/03/2026,TESCO,-20.00\n"
                + "05/03/2026,06/03/2026,PRET,-5.00\n11/03/2026,13/03/2026,SALARY,2000.00\n",
            account)
        #expect(valued.status == 0, "\(valued.stderr)")
        #expect(
            rows == ["2026-03-01,-20.00,GBP", "2026-03-05,-5.00,GBP", "2026-03-11,2000.00,GBP"])
        // Rows listed by their posting date: a late transaction date out of order does not
        // make the dates month first.
        let (late, none) = try read(
            "Transaction Date,Posting Date,Description,Amount\n01/03/2026,02/03/2026,TESCO,-20.00\n"
                + "02/03/2026,03/03/2026,PRET,-5.00\n03/02/2026,04/03/2026,HOTEL,-200.00\n",
            account)
        #expect(late.status == 1)
        #expect(late.stderr.contains("but not which order the dates are in"), "\(late.stderr)")
        #expect(none.isEmpty)
        // A backdated last row does not make a file listed oldest first newest first: its
        // running balance holds in file order.
        let workspace = try Workspace()
        let backdated = try workspace.write(
            "backdated.csv",
            "Date;Description;Amount;Balance\n02.07.2026;Gehalt;2500,00;3500,00\n"
                + "03.07.2026;REWE;-54,21;3445,79\n13.07.2026;Bahn;-37,80;3407,99\n"
                + "01.07.2026;Zinskorrektur;1,20;3409,19\n")
        let checked = try StatementsRunner.run([
            "validate", backdated, "--account", "DE89370400440532013000",
        ])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(!checked.stderr.contains("BALANCE_RUNNING"), "\(checked.stderr)")
    }

    @Test func `leaves out the rows a pending column marks, whatever its values are called`() throws
    {
        let statusColumns = [
            ("Transaction Status", "Pending", "Posted"), ("Pending", "true", "false"),
        ].map { column, pending, booked in
            "Date,Description,Amount,\(column)\n2026-03-02,PAYROLL,2500.00,\(booked)\n"
                + "2026-03-05,TARGET,-84.12,\(booked)\n2026-03-15,UBER,-12.00,\(pending)\n"
        }
        // comdirect and Nordea write `offen`, `Reserverad` where a pending row's date stands.
        let dateColumns = ["offen", "Reserverad"].map { word in
            "Buchungstag;Buchungstext;Betrag\n\(word);UBER;-12,00\n"
                + "05.03.2026;TARGET;-84,12\n02.03.2026;PAYROLL;2.500,00\n"
        }
        for text in statusColumns + dateColumns {
            let (output, rows) = try read(text, ["--account", "name:x", "--currency", "EUR"])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.contains("1 row left out as not booked yet"), "\(output.stderr)")
            #expect(rows == ["2026-03-02,2500.00,EUR", "2026-03-05,-84.12,EUR"], "\(text)")
        }
    }

    @Test func `takes an IBAN heading the first column as the account's, the others' elsewhere`()
        throws
    {
        let rows = "2026-10-01,ACME PAYROLL,2500.00\n2026-10-03,COFFEE HOUSE,-12.50\n"
        let (own, ownRows) = try read(
            "IBAN,Date,Description,Amount\n"
                + rows.split(separator: "\n").map { "IE29AIBK93115212345678,\($0)\n" }.joined(),
            [])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(ownRows == ["2026-10-01,2500.00,EUR", "2026-10-03,-12.50,EUR"], "\(ownRows)")
        // One IBAN written in groups on one row and in lower case on another: one account.
        let (spaced, spacedRows) = try read(
            "IBAN,Date,Description,Amount\nIE29AIBK93115212345678,2026-10-01,ACME,2500.00\n"
                + "IE29 AIBK 9311 5212 3456 78,2026-10-03,COFFEE,-12.50\n"
                + "ie29aibk93115212345678,2026-10-04,SHOP,-1.00\n", [])
        #expect(spaced.status == 0, "\(spaced.stderr)")
        #expect(spacedRows.count == 3, "\(spacedRows)")
        // Two IBANs in it: two accounts' rows, or counterparties', refused.
        let (two, none) = try read(
            "IBAN,Date,Description,Amount\nIE29AIBK93115212345678,2026-10-01,ACME,2500.00\n"
                + "DE89370400440532013000,2026-10-03,COFFEE,-12.50\n", [])
        #expect(two.status == 1)
        #expect(
            two.stderr.contains(
                #"3:1: error: [DIALECT_UNKNOWN] column "IBAN" holds the IBAN "IE29AIBK93115212345678" on its first rows and "DE89370400440532013000" (line 3) later"#
            ), "\(two.stderr)")
        #expect(none.isEmpty)
        // Further right, the same column is the counterparty's: the file names no account.
        let (other, _) = try read(
            "Date,Description,Amount,IBAN\n"
                + rows.split(separator: "\n").map { "\($0),IE29AIBK93115212345678\n" }.joined(),
            [])
        #expect(other.status == 1)
        #expect(other.stderr.contains("the file does not name its account"), "\(other.stderr)")
        // NatWest's account number column: a sort code and number on every row.
        let (natwest, natwestRows) = try read(
            "Date,Type,Description,Value,Balance,Account Name,Account Number\n"
                + "01 Oct 2026,BAC,'ACME,2500.00,3500.00,'MR J DOE,'600000-12345678\n"
                + "03 Oct 2026,POS,'COFFEE,-12.50,3487.50,'MR J DOE,'600000-12345678\n", [])
        #expect(natwest.status == 0, "\(natwest.stderr)")
        #expect(
            natwest.stderr.contains(
                #"assumed it is the account's, sort-code:600000/12345678"#), "\(natwest.stderr)")
        #expect(natwestRows == ["2026-10-01,2500.00,GBP", "2026-10-03,-12.50,GBP"])
        // Another GB account given: the sort code column names another account's number.
        let (otherGB, _) = try read(
            "Date,Type,Description,Value,Balance,Account Name,Account Number\n"
                + "01 Oct 2026,BAC,ACME,2500.00,3500.00,MR J DOE,60-00-00 12345678\n",
            ["--account", "GB33BUKB20201555555555"])
        #expect(otherGB.status == 1)
        #expect(otherGB.stderr.contains("the file is another account's"), "\(otherGB.stderr)")
        // A sort code given whose number ends as the column's does: another account still.
        let (sameEnd, _) = try read(
            "Date,Type,Description,Value,Balance,Account Name,Account Number\n"
                + "01 Oct 2026,BAC,ACME,2500.00,3500.00,MR J DOE,'600000-12345678\n",
            ["--account", "sort-code:600000/99995678"])
        #expect(sameEnd.status == 1)
        #expect(sameEnd.stderr.contains("the file is another account's"), "\(sameEnd.stderr)")
        // Beside another account given, the first column's IBAN is the file's own or a
        // landlord's: refused. Below an IBAN above the header or beside a column named as the
        // account, it is the counterparty's.
        let (landlord, noRent) = try read(
            "IBAN;Buchungstag;Betrag;Verwendungszweck\n"
                + "DE02120300000000202051;02.01.2024;-12,50;Miete\n",
            ["--account", "DE89370400440532013000"])
        #expect(landlord.status == 1)
        #expect(
            landlord.stderr.contains(
                #"the first column, "IBAN", holds "DE02120300000000202051" on every row, and the account given is DE89370400440532013000"#
            ), "\(landlord.stderr)")
        #expect(noRent.isEmpty)
        // Two accounts on the line above the header: neither is the file's alone.
        let (twoAbove, noneAbove) = try read(
            "Konten: DE89370400440532013000, DE02120300000000202051\n\n"
                + "Buchungstag;Verwendungszweck;Betrag\n01.10.2026;Miete;-500,00\n", [])
        #expect(twoAbove.status == 1)
        #expect(twoAbove.stderr.contains("the file does not name its account"))
        #expect(noneAbove.isEmpty)
        let rent = ";02.01.2024;-12,50;Miete\nDE02120300000000202051;03.02.2024;-12,50;Miete\n"
        let ownAndRent =
            "DE02120300000000202051;DE89370400440532013000;02.01.2024;-12,50;Miete\n"
        for text in [
            "Konto;DE89370400440532013000\n\nIBAN;Buchungstag;Betrag;Verwendungszweck\n"
                + "DE02120300000000202051" + rent,
            "IBAN;Auftragskonto;Buchungstag;Betrag;Verwendungszweck\n" + ownAndRent,
        ] {
            let workspace = try Workspace()
            let export = try workspace.write("export.csv", text)
            let output = try StatementsRunner.run(["import", export, "--state", workspace.state])
            #expect(output.status == 0, "\(output.stderr)")
            let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
            #expect(accounts.stdout.contains("DE89 3704 0044 0532 0130 00"), "\(accounts.stdout)")
            #expect(!accounts.stdout.contains("DE02 1203"), "\(accounts.stdout)")
        }
    }

    @Test func `refuses what a file does not say: a settlement IBAN, a column of other currencies`()
        throws
    {
        // A card statement naming the current account it is settled from names no account of
        // its own.
        let (settled, none) = try read(
            "\"Kreditkarte:\";\"4930 **** **** 1234\"\n\"Abrechnungskonto:\";\"DE89370400440532013000\"\n\n"
                + "\"Belegdatum\";\"Beschreibung\";\"Betrag (EUR)\"\n\"04.03.2026\";\"AMAZON\";\"-84,12\"\n"
                + "\"05.03.2026\";\"REWE\";\"-20,00\"\n", [])
        #expect(settled.status == 1)
        #expect(settled.stderr.contains("the file does not name its account"), "\(settled.stderr)")
        #expect(none.isEmpty)
        // `Amount (EUR)` beside a currency column of the original amounts' currency.
        let (currencies, _) = try read(
            "Date,Description,Amount (EUR),Original Amount,Currency\n"
                + "2026-03-05,Amazon US,-84.12,-90.00,USD\n2026-03-14,Walmart,-45.00,-48.00,USD\n",
            ["--account", "DE89370400440532013000"])
        #expect(currencies.status == 1)
        #expect(
            currencies.stderr.contains(
                #"the header names EUR for the amounts, but the currency column holds "USD" (line 2)"#
            ),
            "\(currencies.stderr)")
        // mBank's `#Rachunek` naming two of the customer's accounts.
        let (two, _) = try read(
            "#Data operacji;#Opis operacji;#Rachunek;#Kwota;\n2026-03-02;PENSJA;eKonto 1234;2 500,00 PLN;\n"
                + "2026-03-03;PRZELEW;eMax 5678;500,00 PLN;\n", ["--account", "name:x"])
        #expect(two.status == 1)
        #expect(
            two.stderr.contains(##"column "#Rachunek" names several accounts"##), "\(two.stderr)")
        // An account-number column whose few numbers split the rows: several accounts. One
        // number on every row (Amex's `Account #`) is no question.
        for (column, other) in [
            ("Account Number", "xxxx9876"), ("Kontonummer", "7654321"), ("Product", "Savings"),
        ] {
            let (several, none) = try read(
                "Date,\(column),Description,Amount\n2026-03-02,xxxx1234,Salary,2500.00\n"
                    + "2026-03-03,\(other),Transfer in,500.00\n2026-03-03,xxxx1234,Transfer out,-500.00\n"
                    + "2026-03-14,xxxx1234,Power,-45.00\n",
                ["--account", "DE89370400440532013000"])
            #expect(several.status == 1)
            #expect(
                several.stderr.contains(#"column "\#(column)" names several accounts"#),
                "\(several.stderr)")
            #expect(none.isEmpty)
        }
        // One account number on every row, not the given account's: another account's file.
        let (other, _) = try read(
            "Date,Account Number,Description,Amount\n2026-03-02,87654321,Salary,2500.00\n"
                + "2026-03-03,87654321,Power,-45.00\n",
            ["--account", "sort-code:309457/12345678", "--currency", "GBP"])
        #expect(other.status == 1)
        #expect(
            other.stderr.contains(
                #"column "Account Number" names account "87654321" (line 2), which the account given, sort-code:309457/12345678, is not"#
            ), "\(other.stderr)")
        // Unsigned amounts that words such as `Lastschrift` would sign: left open.
        let (unsigned, _) = try read(
            "Buchungstag;Umsatzart;Verwendungszweck;Betrag\n02.03.2026;Gutschrift;Gehalt;2.500,00\n"
                + "05.03.2026;Lastschrift;REWE;84,12\n14.03.2026;Lastschrift;Strom;45,00\n",
            ["--account", "name:x", "--currency", "EUR"])
        #expect(unsigned.status == 1)
        #expect(unsigned.stderr.contains("but not whether positive amounts are money in"))
    }

    @Test
    func `reads the currency beside an IBAN, a balance after each row, and amounts in kroner`()
        throws
    {
        let (swiss, swissRows) = try read(
            "Konto:;CH9300762011623852957 EUR\n\nBuchungsdatum;Text;Belastung;Gutschrift;Saldo\n"
                + "02.03.2026;Zahlung Kunde;;2500.00;3500.00\n05.03.2026;Miete;1000.00;;2500.00\n",
            [])
        #expect(swiss.status == 0, "\(swiss.stderr)")
        #expect(swiss.stderr.contains("names EUR beside the account's IBAN"), "\(swiss.stderr)")
        #expect(swissRows == ["2026-03-02,2500.00,EUR", "2026-03-05,-1000.00,EUR"])

        let (rabobank, _) = try read(
            "Datum,Omschrijving,Bedrag,Saldo na trn\n2026-03-02,Salaris,1250.00,2250.00\n"
                + "2026-03-05,Huur,-1000.00,1250.00\n",
            ["--account", "NL91ABNA0417164300"])
        #expect(rabobank.status == 0, "\(rabobank.stderr)")

        let (danish, danishRows) = try read(
            "Dato;Tekst;Beløb;Saldo\n02.03.2026;Løn;25.000,00 kr.;35.000,00 kr.\n"
                + "05.03.2026;Netto;-84,12 kr.;34.915,88 kr.\n",
            ["--account", "name:x", "--currency", "DKK"])
        #expect(danish.status == 0, "\(danish.stderr)")
        #expect(danishRows == ["2026-03-02,25000.00,DKK", "2026-03-05,-84.12,DKK"])

        // Yen have no decimals: `250,000` groups thousands.
        let (yen, yenRows) = try read(
            "Date;Description;Amount;Balance\n2026-03-02;Salary;250,000;350,000\n"
                + "2026-03-05;Lawson;-1,200;348,800\n",
            ["--account", "name:x", "--currency", "JPY"])
        #expect(yen.status == 0, "\(yen.stderr)")
        #expect(yenRows == ["2026-03-02,250000,JPY", "2026-03-05,-1200,JPY"])
    }

    @Test func `keeps the signs of a bank account's purchases and leaves a card's refunds open`()
        throws
    {
        // `Purchase` rows on an account given by its routing number: card payments from a
        // current account, signs as written (the balance agrees).
        // Given by a name, purchases written negative beside a balance that rises by the
        // deposits are a current account's too.
        for account in ["aba:321076470/123456", "name:x"] {
            let (checking, rows) = try read(
                "Date,Description,Type,Amount,Balance\n07/01/2026,PAYROLL,Deposit,1250.00,2250.00\n"
                    + "07/03/2026,SAFEWAY,Purchase,-54.21,2195.79\n07/15/2026,VENMO,Deposit,40.00,2235.79\n",
                ["--account", account, "--currency", "USD"])
            #expect(checking.status == 0, "\(checking.stderr)")
            #expect(rows.map { $0.split(separator: ",")[1] } == ["1250.00", "-54.21", "40.00"])
        }
        // A card month of one charge and four refunds and payments: charges positive or
        // negative, the amounts cannot tell.
        let (refunds, none) = try read(
            "Date,Description,Card Member,Account #,Amount\n11/03/2026,DELTA,MAX,-41004,612.40\n"
                + "11/05/2026,DELTA REFUND,MAX,-41004,-612.40\n11/09/2026,MARRIOTT CREDIT,MAX,-41004,-250.00\n"
                + "11/20/2026,PAYMENT,MAX,-41004,-400.00\n11/22/2026,CREDIT,MAX,-41004,-20.00\n",
            ["--account", "card:amex/1004", "--currency", "USD"])
        #expect(refunds.status == 1)
        #expect(refunds.stderr.contains("but not whether positive amounts are money in"))
        #expect(none.isEmpty)
    }

    @Test func `reads two-digit years last where the first part would be a year ahead or dotted`()
        throws
    {
        let iban = ["--account", "DE89370400440532013000"]
        let (dotted, dottedRows) = try read(
            "Buchungstag;Verwendungszweck;Betrag\n01.01.24;Sparrate;100,00\n01.02.24;Sparrate;100,00\n"
                + "01.03.24;Sparrate;100,00\n01.04.25;Auszahlung;-250,00\n", iban)
        #expect(dotted.status == 0, "\(dotted.stderr)")
        #expect(
            dottedRows.map { $0.prefix(10) } == [
                "2024-01-01", "2024-02-01", "2024-03-01", "2025-04-01",
            ])
        let (annual, annualRows) = try read(
            "Datum;Omschrijving;Bedrag;Saldo\n31-12-23;Rente 2023;12,50;1012,50\n"
                + "31-12-24;Rente 2024;15,19;1027,69\n31-12-25;Rente 2025;16,44;1044,13\n", iban)
        #expect(annual.status == 0, "\(annual.stderr)")
        #expect(annualRows.map { $0.prefix(10) } == ["2023-12-31", "2024-12-31", "2025-12-31"])
    }

    @Test
    func `refuses a reversal in a debit column and takes no word or linked IBAN as the account's`()
        throws
    {
        let (reversal, none) = try read(
            "Date,Description,Debit,Credit\n01/07/2026,Salary,,2500.00\n03/07/2026,Tesco,54.21,\n"
                + "04/07/2026,Tesco reversal,-54.21,\n13/07/2026,Rent,800.00,\n",
            ["--account", "name:x", "--currency", "GBP"])
        #expect(reversal.status == 1)
        #expect(
            reversal.stderr.contains(
                #"a debit or credit column holds amounts of both signs, such as "-54.21" (line 4)"#),
            "\(reversal.stderr)")
        #expect(none.isEmpty)
        // `All` above the header is a word, not the Albanian lek.
        let (word, wordRows) = try read(
            "Account;DE89370400440532013000\nTransactions;All\n\nDate;Description;Amount;Balance\n"
                + "2026-07-01;Salary;2500,00;3500,00\n2026-07-02;Rent;-800,00;2700,00\n", [])
        #expect(word.status == 0, "\(word.stderr)")
        #expect(wordRows.allSatisfy { $0.hasSuffix(",EUR") } && wordRows.count == 2, "\(wordRows)")
        // The current account a deposit account is linked to is not the statement's.
        let (linked, linkedRows) = try read(
            "Conto deposito;N. 000123456789\nConto di appoggio;IT60X0542811101000000123456\n\n"
                + "Data operazione;Descrizione;Importo;Saldo\n15/07/2026;Interessi;12,50;10.012,50\n16/07/2026;Bollo;-2,00;10.010,50\n",
            [])
        #expect(linked.status == 1)
        #expect(linked.stderr.contains("--account ID"), "\(linked.stderr)")
        #expect(linkedRows.isEmpty)
    }

    @Test func `refuses what the file leaves open: a first row's fee, two-digit years`()
        throws
    {
        // No balance before the first row checks its fee: every reading holds.
        let (fee, none) = try read(
            "Date,Description,Amount,Fee,Balance\n2024-01-02,Shop A,-10.00,1.00,989.00\n"
                + "2024-01-03,Shop B,-20.00,0.00,969.00\n2024-01-04,Salary,500.00,0.00,1469.00\n",
            ["--account", "name:x", "--currency", "EUR"])
        #expect(fee.status == 1)
        #expect(fee.stderr.contains(#"column "Fee" holds a fee beside the amount"#))
        #expect(none.isEmpty)
        // `15-03-24`, `15-03-25`, `15-03-26`: a year's days, or a day in three years.
        let (yearly, _) = try read(
            "Date;Description;Amount\n15-03-24;Premium;-120,00\n15-03-25;Premium;-125,00\n"
                + "15-03-26;Premium;-130,00\n", ["--account", "name:x", "--currency", "EUR"])
        #expect(yearly.status == 1)
        #expect(
            yearly.stderr.contains(
                #"dates such as "15-03-24" (line 2) read as yy-MM-dd or as dd-MM-yy"#),
            "\(yearly.stderr)")
        // One date on every row: 25 November 2026, or 26 November 2025. Dotted dates whose
        // last part ranges as a month's days do: March 2024, or 2001 to 2011.
        for (rows, example, formats) in [
            (
                "25-11-26;Shop 1;-10,00\n25-11-26;Shop 2;-10,00\n", "25-11-26",
                "yy-MM-dd or as dd-MM-yy"
            ),
            (
                "24.03.01;Shop A;-10,00\n24.03.05;Shop B;-20,00\n24.03.11;Salary;500,00\n",
                "24.03.01", "yy.MM.dd or as dd.MM.yy"
            ),
            (
                "25/11/26;Shop 1;-10,00\n25/11/26;Shop 2;-10,00\n", "25/11/26",
                "yy/MM/dd or as dd/MM/yy"
            ),
            ("25-1-26;Shop 1;-10,00\n25-1-26;Shop 2;-10,00\n", "25-1-26", "yy-M-d or as d-M-yy"),
            ("24.3.10;Shop 1;-10,00\n24.3.21;Shop 2;-10,00\n", "24.3.10", "yy.M.d or as d.M.yy"),
            // A US file of one year (month first), and a late booking in a day-first one.
            (
                "03/02/26;A;-1,00\n03/05/26;B;-1,00\n04/01/26;C;-1,00\n", "03/02/26",
                "yy/MM/dd or as dd/MM/yy"
            ),
            (
                "01-10-26;A;-1,00\n02-10-26;B;-1,00\n03-09-26;C;-1,00\n04-10-26;D;-1,00\n",
                "01-10-26", "yy-MM-dd or as dd-MM-yy"
            ),
            // A first part over 31 is a year, but 2045 is no booking's.
            ("45-01-05;A;-1,00\n45-01-09;B;-1,00\n", "45-01-05", "yy-MM-dd or as dd-MM-yy"),
        ] {
            let (open, none) = try read(
                "Date;Description;Amount\n" + rows, ["--account", "name:x", "--currency", "EUR"])
            #expect(open.status == 1)
            #expect(
                open.stderr.contains(#"dates such as "\#(example)" (line 2) read as \#(formats)"#),
                "\(open.stderr)")
            #expect(none.isEmpty)
        }
        // Years of a statement across a year end, read year first: read year last, they would
        // span 2002 to 2020. Monthly rows over nine years: in order read year last, not first.
        let (yearEnd, yearEndRows) = try read(
            "Date;Description;Amount\n25-12-03;A;-1,00\n25-12-15;B;-2,00\n26-01-02;C;-3,00\n"
                + "26-01-20;D;-4,00\n", ["--account", "name:x", "--currency", "EUR"])
        #expect(yearEnd.status == 0, "\(yearEnd.stderr)")
        #expect(
            yearEndRows == [
                "2025-12-03,-1.00,EUR", "2025-12-15,-2.00,EUR", "2026-01-02,-3.00,EUR",
                "2026-01-20,-4.00,EUR",
            ], "\(yearEndRows)")
        let monthly = (16...24).flatMap { year in
            (1...12).map { String(format: "15/%02d/%02d;Plan;-10,00\n", $0, year) }
        }
        let (nineYears, none9) = try read(
            "Date;Description;Amount\n" + monthly.joined(),
            ["--account", "name:x", "--currency", "EUR"])
        #expect(nineYears.status == 1)
        #expect(nineYears.stderr.contains("read as yy/MM/dd or as dd/MM/yy"), "\(nineYears.stderr)")
        #expect(none9.isEmpty)
        // Dotted dates of one day, or of days a month apart, stay day first.
        let (dotted, dottedRows) = try read(
            "Date;Description;Amount\n24.03.25;Shop;-10,00\n24.04.25;Shop;-10,00\n",
            ["--account", "name:x", "--currency", "EUR"])
        #expect(dotted.status == 0, "\(dotted.stderr)")
        #expect(dottedRows == ["2025-03-24,-10.00,EUR", "2025-04-24,-10.00,EUR"], "\(dottedRows)")
        // A currency beside a reference account's IBAN, or a word on the account's line, is
        // not the account's: the IBAN's country says euros.
        for preamble in [
            "Konto;DE89370400440532013000\nReferenzkonto;CH9300762011623852957 CHF\n",
            "Account;DE89370400440532013000;Transactions;ALL\n",
        ] {
            let (output, rows) = try read(
                preamble + "\nBuchungstag;Verwendungszweck;Betrag\n01.03.2024;Gehalt;2500,00\n"
                    + "05.03.2024;Miete;-800,00\n", [])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(rows == ["2024-03-01,2500.00,EUR", "2024-03-05,-800.00,EUR"], "\(preamble)")
        }
    }
}
