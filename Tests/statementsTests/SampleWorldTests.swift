import Foundation
import Testing

/// Every folder of `SampleData/` but `bad/`, processed into one ledger, is one world: no file
/// rejected, no account in two currencies, no two statements of one account for the same
/// days, every balance a bank states holding (issue #36, item 9).
@Suite struct SampleWorldTests {
    static let folders = [
        "SampleData/good", "SampleData/profiles", "SampleData/exports", "SampleData/formats",
    ]

    @Test func `the four sample folders process into one ledger that checks`() throws {
        let workspace = try Workspace()
        let output = try StatementsRunner.run(
            ["process"] + Self.folders + [
                "--state", workspace.state, "--out", workspace.path + "/reports",
            ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stderr.contains("error:"), "\(output.stderr)")
        #expect(!output.stdout.contains("rejected"))
        #expect(!output.stdout.contains("out of balance"))
        let check = try StatementsRunner.run(["check", "--state", workspace.state])
        #expect(check.status == 0, "\(check.stderr)")
        // One account per bank account: no account is fed by two banks' files.
        let accounts = try StatementsRunner.run(["accounts", "-s", workspace.state, "-f", "json"])
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]])
        #expect(list.allSatisfy { $0["outOfBalance"] is NSNull })
        // An account may have several files (months, formats), never two for one day.
        var owners: [String: [(file: String, first: String, last: String)]] = [:]
        for folder in Self.folders {
            for file in try Self.statementFiles(in: folder) {
                let one = try Workspace()
                let imported = try StatementsRunner.run(["import", file, "-s", one.state, "-q"])
                #expect(imported.status == 0, "\(file): \(imported.stderr)")
                let ids = try StatementsRunner.run(["accounts", "-s", one.state, "-f", "json"])
                let objects = try #require(
                    try JSONSerialization.jsonObject(with: Data(ids.stdout.utf8))
                        as? [[String: Any]])
                for object in objects {
                    owners[try #require(object["id"] as? String), default: []].append(
                        (
                            file, try #require(object["firstDate"] as? String),
                            try #require(object["lastDate"] as? String)
                        ))
                }
            }
        }
        #expect(owners.count == list.count)
        for (account, files) in owners {
            let ordered = files.sorted { $0.first < $1.first }
            for (earlier, later) in zip(ordered, ordered.dropFirst()) {
                #expect(
                    earlier.last < later.first,
                    "\(account): \(earlier.file) and \(later.file) cover the same days")
            }
        }
        // The household's account and its savings run on into November, in their banks' own
        // formats.
        #expect(owners["DE89370400440532013000"]?.count == 2)
        #expect(owners["NL91ABNA0417164300"]?.count == 2)
        // So do a few side accounts, each a month at a time in another layout or format: the
        // holiday house's ING account (a profile's May, an export's July, an MT940's October),
        // Max's Chase account (September, October as OFX, November) and his Lyon account
        // (a French bank's September, canonical CSV's October).
        #expect(owners["NL36INGB0007654321"]?.count == 3)
        #expect(owners["aba:021000021/123456789"]?.count == 3)
        #expect(owners["FR7630006000011234567890189"]?.count == 2)
        // Every account is one of the household's, and no other.
        #expect(Set(owners.keys) == Set(Self.household.keys))
    }

    /// The year the samples tell: one household (Erika and Max Mustermann, Berlin) whose
    /// side accounts in other banks, formats and currencies each show a month of their own,
    /// not one template of a salary, a rent and a coffee copied into a dozen accounts.
    @Test func `names an account whatever order the files that name it come in`() throws {
        // The folders in the order a shell's glob gives: an export of DE89 that does not
        // name it comes before good/'s file that names it "Household".
        let workspace = try Workspace()
        let output = try StatementsRunner.run(
            ["process"] + Self.folders.sorted() + ["--state", workspace.state, "-q"])
        #expect(output.status == 0, "\(output.stderr)")
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        let line = accounts.stdout.split(separator: "\n").first { $0.hasPrefix("DE89") }
        #expect(line?.contains("Household") == true, "\(accounts.stdout)")
    }

    @Test func `the four sample folders tell one household's year, month by month`() throws {
        let workspace = try Workspace()
        let reports = workspace.path + "/reports"
        let output = try StatementsRunner.run(
            ["process"] + Self.folders + ["--state", workspace.state, "--out", reports, "-q"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try StatementsRunner.run(["check", "--state", workspace.state]).status == 0)
        let register = try StatementsRunner.run(["register", "-s", workspace.state, "-f", "json"])
        #expect(register.status == 0, "\(register.stderr)")
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(register.stdout.utf8))
                as? [[String: Any]])
        struct Row: Hashable {
            let date: String
            let account: String
            let beneficiary: String
            let description: String
            let amount: String
        }
        let transactions = try rows.map { row in
            Row(
                date: try #require(row["date"] as? String),
                account: try #require(row["account"] as? String),
                beneficiary: row["beneficiary"] as? String ?? "",
                description: row["description"] as? String ?? "",
                amount: try #require((row["amount"] as? [String: Any])?["decimal"] as? String))
        }
        // Every month of the year so far has transactions and a folder of reports.
        let months = Set(transactions.map { String($0.date.prefix(7)) })
        let year = (1...11).map { String(format: "2026-%02d", $0) }
        #expect(months == Set(year))
        for month in year {
            #expect(
                FileManager.default.fileExists(atPath: reports + "/" + month + "/index.html"),
                "\(month)")
            #expect(
                transactions.count { $0.date.hasPrefix(month) } >= 5, "\(month)")
        }
        // October, the month good/ shows, is one month of eleven: fewer than two in five of
        // the ledger's transactions.
        #expect(transactions.count { $0.date.hasPrefix("2026-10") } * 5 < transactions.count * 2)
        // The household's salary arrives once a month, in its account only.
        let salary = transactions.filter { $0.beneficiary.hasPrefix("Capgemini") }
        #expect(salary.map(\.account) == ["DE89370400440532013000", "DE89370400440532013000"])
        #expect(salary.map { $0.date.prefix(7) } == ["2026-10", "2026-11"])
        #expect(salary.allSatisfy { $0.amount == "2450.00" })
        // No booking is copied into another account: the same day, amount and counterparty
        // appear in one account only.
        let copies = Dictionary(grouping: transactions) {
            [$0.date, $0.amount, $0.beneficiary.lowercased()]
        }.filter { Set($0.value.map(\.account)).count > 1 }
        #expect(copies.isEmpty, "\(copies.keys)")
        // The template's names are gone, and the holder of the side accounts is the
        // household's.
        for name in ["ACME PAYROLL", "LANDLORD RENT", "COFFEE HOUSE", "GROCERY MART", "JANE DOE"] {
            #expect(
                !transactions.contains {
                    ($0.beneficiary + " " + $0.description).uppercased().contains(name)
                }, "\(name)")
        }
        // No other employer pays a wage into any account: Max invoices his clients, and
        // Erika's salary arrives in the household's account only.
        let wageWords = [
            "PAYROLL", "GEHALT", "LOHN", "SALARIS", "SALARY", "SALAIRE", "TRAITEMENT", "NÓMINA",
            "SUELDO",
        ]
        for word in wageWords {
            let wages = transactions.filter {
                !$0.amount.hasPrefix("-") && !$0.beneficiary.hasPrefix("Capgemini")
                    && ($0.beneficiary + " " + $0.description).uppercased().contains(word)
            }
            #expect(wages.isEmpty, "\(wages)")
        }
        // The strangers the samples once held are gone: a company's account in Spain, a
        // Bahrain operations account, a French teacher's joint account, a British salary, a
        // Belgian supplier paid into the household's savings.
        let strangers = [
            "EMPRESA EJEMPLO", "CLIENTE NORTE", "MUSTER GMBH", "EDUCATION NATIONALE",
            "ÉDUCATION NATIONALE", "EXAMPLE LTD", "KLANT NV", "LEVERANCIER", "VERHUUR JANSEN",
            "HYPOTHEEK BANK", "APARTMENT ELECTRICITY",
        ]
        for name in strangers {
            #expect(
                !transactions.contains {
                    ($0.beneficiary + " " + $0.description).uppercased().contains(name)
                }, "\(name)")
        }
        // The card is paid from the US checking account: the same amount on the same day.
        let payment = transactions.filter {
            $0.account == "card:amex/1004" && $0.beneficiary.hasPrefix("Payment")
        }
        #expect(payment.map(\.amount) == ["400.00"])
        #expect(
            transactions.contains {
                $0.account == "aba:021000021/123456789" && $0.date == payment.first?.date
                    && $0.amount == "-400.00" && $0.description.contains("AMERICAN EXPRESS")
            })
    }

    @Test func `every transfer between the household's accounts arrives where it is sent`()
        throws
    {
        let workspace = try Workspace()
        let output = try StatementsRunner.run(
            ["import"] + Self.folders + ["--state", workspace.state, "-q"])
        #expect(output.status == 0, "\(output.stderr)")
        let register = try StatementsRunner.run(["register", "-s", workspace.state, "-f", "json"])
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(register.stdout.utf8))
                as? [[String: Any]])
        let bookings = Set(
            rows.compactMap { row -> String? in
                guard let date = row["date"] as? String, let account = row["account"] as? String,
                    let amount = (row["amount"] as? [String: Any])?["decimal"] as? String
                else { return nil }
                return [date, account, amount].joined(separator: " ")
            })
        func negated(_ amount: String) -> String {
            amount.hasPrefix("-") ? String(amount.dropFirst()) : "-" + amount
        }
        // The transfers whose accounts have no IBAN: the US accounts and cards, and Max's old
        // Sparkasse account, named by its bank code and number in the MT940.
        for transfer in Self.transfers {
            #expect(
                bookings.contains("\(transfer.date) \(transfer.from) -\(transfer.amount)"),
                "\(transfer)")
            #expect(
                bookings.contains("\(transfer.date) \(transfer.to) \(transfer.amount)"),
                "\(transfer)")
        }
        // Every booking that names one of the household's IBANs as its counterparty has its
        // counterpart there, the same day and amount, wherever that account's statements cover
        // the day (the household account's own statements are October's and November's, so
        // what it sent in March or July is seen on the receiving side only).
        let journal = try StatementsRunner.run([
            "export", "-s", workspace.state, "-f", "hledger", "-o", "-",
        ])
        #expect(journal.status == 0, "\(journal.stderr)")
        let accounts = try StatementsRunner.run(["accounts", "-s", workspace.state, "-f", "json"])
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8))
                as? [[String: Any]])
        var covered: [String: ClosedRange<String>] = [:]
        for account in list {
            let id = try #require(account["id"] as? String)
            covered[id] =
                try #require(account["firstDate"] as? String)...#require(
                    account["lastDate"] as? String)
        }
        var checked = 0
        var parties: [String: Set<String>] = [:]
        for entry in journal.stdout.components(separatedBy: "\n\n") {
            let lines = entry.split(separator: "\n").map(String.init)
            guard let head = lines.first, head.first?.isNumber == true,
                let counterparty = lines.first(where: { $0.hasPrefix("    ; counterparty: ") })?
                    .dropFirst("    ; counterparty: ".count),
                let posting = lines.first(where: { $0.hasPrefix("    Assets:Bank:") })
            else { continue }
            let date = String(head.prefix(10))
            let parts = posting.dropFirst("    Assets:Bank:".count).split(separator: " ")
            let (account, amount) = (String(parts[0]), String(parts[1]))
            guard let days = covered[String(counterparty)], covered[account] != nil else {
                // A stranger's IBAN: its holder, the text after the date and before " | ".
                let holder = head.dropFirst("2026-01-01 * ".count)
                    .components(separatedBy: " | ")[0]
                parties[String(counterparty), default: []].insert(holder.lowercased())
                continue
            }
            // One of the household's own IBANs names the household, never a stranger.
            let holder = head.dropFirst("2026-01-01 * ".count).lowercased()
            #expect(
                ["mustermann", "household", "savings", "sparkonto"].contains {
                    holder.contains($0)
                }, "\(head)")
            if days.contains(date) {
                #expect(
                    bookings.contains("\(date) \(counterparty) \(negated(amount))"),
                    "\(date) \(account) \(amount) → \(counterparty)")
                checked += 1
            }
        }
        // The household's savings, both ways in October and in November.
        #expect(checked == 4)
        // No IBAN of the samples is lent to two strangers, nor one of the household's to one.
        #expect(parties.count >= 25)
        #expect(parties.filter { $0.value.count > 1 }.isEmpty, "\(parties)")
    }

    @Test func `the year has several currencies, a card, and accounts named for the household`()
        throws
    {
        let workspace = try Workspace()
        let reports = workspace.path + "/reports"
        let output = try StatementsRunner.run(
            ["process"] + Self.folders + ["--state", workspace.state, "--out", reports, "-q"])
        #expect(output.status == 0, "\(output.stderr)")
        let accounts = try StatementsRunner.run(["accounts", "-s", workspace.state, "-f", "json"])
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8))
                as? [[String: Any]])
        let currencies = Set(list.compactMap { $0["currency"] as? String })
        #expect(currencies == ["EUR", "USD", "GBP", "CHF", "JPY", "BHD", "CAD"])
        let cards = list.filter { $0["kind"] as? String == "credit-card" }
            .compactMap { $0["id"] as? String }
        #expect(cards.sorted() == ["card:amex/1004", "card:amex/1009", "card:chase/4417"])
        #expect(
            FileManager.default.fileExists(atPath: reports + "/2026-11/card_amex_1004.html"))
        // The names the files give their accounts are the household's, not a company's.
        let names = Set(list.compactMap { $0["name"] as? String })
        #expect(
            names == [
                "Household", "Holiday savings", "Girokonto", "comdirect Girokonto",
                "Manama project (Max)", "Brokerage cash (Erika)", "Compte Lyon", "London flat",
                "Erika Mustermann", "Chase Total Checking", "Amex Gold", "Checking", "Savings",
            ])
    }

    /// Every account of the samples and whose it is: Erika and Max Mustermann of Berlin, she
    /// employed at Capgemini, he a consultant with an office in Cologne and clients abroad,
    /// who lived in Zürich until 2025 and keep a holiday house in the Netherlands and flats in
    /// Valencia and London.
    static let household: [String: String] = [
        "DE89370400440532013000": "their household account at Commerzbank: Erika's salary",
        "NL91ABNA0417164300": "their holiday savings at ABN AMRO",
        "DE77100100100123456789": "Max's account for his Cologne office",
        "DE88370400440532013018": "Max's business account at Commerzbank in Cologne",
        "DE86500502010001234567": "Max's account for clients' invoices and taxes (camt.053)",
        "DE40500502010009876543": "Max's Sparkasse account for another client",
        "name:76050101-123456789": "Max's old account at the Sparkasse Nürnberg",
        "DE45120300001234567890": "Max's own account at DKB",
        "DE64200411330001234567": "the car's account at comdirect",
        "BH67BMAG00001299123456": "Max's account for his project in Manama (BHD)",
        "BE68539007547034": "Max's account for his client in Brussels",
        "FR7630006000011234567890189": "Max's account in Lyon, where he rents a studio",
        "FR7618206000406500123456749": "Erika's card account for weeks in Lyon in May",
        "GB82WEST12345698765432": "Erika's brokerage cash (USD): an inheritance invested",
        "CH9300762011623852957": "Erika's yen account at UBS: a dividend, a trip to Japan",
        "CH8100230023012345678": "their old Zürich account at UBS",
        "CH7609000000123456789": "a PostFinance account: a ski week in Zermatt",
        "name:0001234567": "a Swiss account the Zermatt flat's rent is paid into",
        "ES7000491500010512345678": "the Valencia flat's account at Santander",
        "ES9121000418450200051332": "Erika's CaixaBank account: the Valencia flat let in winter",
        "IT60X0542811101000000123456": "a summer in Italy (Intesa Sanpaolo)",
        "NL36INGB0007654321": "the holiday house in Bergen's account at ING",
        "NL18RABO0123459876": "the holiday house's rent and mortgage at Rabobank",
        "GB29NWBK60161331926819": "the London flat's account at NatWest",
        "sort-code:070116/12345678": "the London flat's account at Nationwide",
        "sort-code:040004/12345678": "Max's Monzo for a month in London",
        "name:revolut": "Erika's Revolut: a week in Lisbon",
        "name:wise@EUR": "Max's Wise account for clients abroad, in euros",
        "name:wise@GBP": "the same Wise account in pounds",
        "name:wise@USD": "the same Wise account in dollars",
        "aba:021000021/123456789": "Max's Chase checking: his US client pays, it pays the cards",
        "card:amex/1004": "Max's American Express card",
        "card:amex/1009": "Erika's Amex Gold",
        "card:chase/4417": "Max's Chase card",
        "aba:111000025/4410021123": "Max's checking account from a spring project in Austin",
        "aba:111000025/4410025521": "its savings account",
        "name:000312345-98765-43": "Erika's Canadian savings from her years in Toronto",
    ]

    /// Transfers between the household's accounts that have no IBAN, as both statements book
    /// them: the date, the account sending, the account receiving and the amount.
    static let transfers: [(date: String, from: String, to: String, amount: String)] = [
        ("2026-04-03", "aba:111000025/4410021123", "aba:111000025/4410025521", "500.00"),
        ("2026-10-05", "DE88370400440532013018", "name:76050101-123456789", "300.00"),
        ("2026-10-12", "aba:021000021/123456789", "card:amex/1009", "250.00"),
        ("2026-10-15", "aba:021000021/123456789", "card:chase/4417", "500.00"),
        ("2026-11-13", "aba:021000021/123456789", "card:amex/1004", "400.00"),
    ]

    /// The statement files of a sample folder (not its profiles).
    static func statementFiles(in folder: String) throws -> [String] {
        let root = StatementsRunner.packageRoot.path + "/" + folder
        let names = try FileManager.default.subpathsOfDirectory(atPath: root)
        return names.filter { !$0.hasSuffix("statements-profile.json") }
            .map { root + "/" + $0 }
            .filter { path in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
                    && !isFolder.boolValue
            }.sorted()
    }
}
