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
        // October is one month of eleven, less than half the ledger.
        #expect(transactions.count { $0.date.hasPrefix("2026-10") } * 2 < transactions.count)
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
        // No other employer pays a wage into a side account: Max invoices his clients.
        for word in ["PAYROLL", "GEHALT", "LOHN", "SALARIS"] {
            let wages = transactions.filter {
                !$0.amount.hasPrefix("-")
                    && ($0.beneficiary + " " + $0.description).uppercased().contains(word)
            }
            #expect(wages.isEmpty, "\(wages)")
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
