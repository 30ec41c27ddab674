import Foundation
import Testing

@testable import StatementKit

/// Transaction ids and payment references (SPEC 4): nothing a bank shares between bookings
/// may make the ledger drop one.
struct TransactionIDTests {
    static let de = StateControllerTests.de

    @Test func `keeps every row that shares a payment reference`() throws {
        let ledger = try TestLedger()
        let report = try ledger.importText(
            "date,account_iban,amount,beneficiary,reference\n"
                + "2026-10-02,\(Self.de),1500.00,Salary,REF-1\n"
                + "2026-10-10,\(Self.de),-500.00,Rent,REF-1\n")
        #expect(report.files.map(\.outcome) == [.imported(new: 2, present: 0)])
        #expect(try ledger.account(Self.de).balance.minorUnits == 100_000)
    }

    @Test func `rejects a file that gives one transaction id to two bookings`() throws {
        let ledger = try TestLedger()
        let report = try ledger.importText(
            "date,account_iban,amount,beneficiary,transaction_id\n"
                + "2026-10-02,\(Self.de),1500.00,Salary,T-1\n"
                + "2026-10-10,\(Self.de),-500.00,Rent,T-1\n")
        #expect(report.files.map(\.outcome) == [.rejected])
        let diagnostic = try #require(report.files.first?.validation.diagnostics.first)
        #expect(diagnostic.code == .transactionIDConflict)
        #expect(diagnostic.line == 3)
        #expect(diagnostic.message.contains("also on line 2"))
        #expect(diagnostic.message.contains("map it as reference"))
        #expect(try ledger.accounts().isEmpty)
    }

    @Test func `takes one booking listed twice, or re-dated within a month, once`() throws {
        let ledger = try TestLedger()
        let report = try ledger.importText(
            "date,account_iban,amount,beneficiary,transaction_id\n"
                + "2026-10-30,\(Self.de),-5.00,Kiosk,T-1\n"
                + "2026-11-02,\(Self.de),-5.00,Kiosk,T-1\n")
        #expect(report.files.map(\.outcome) == [.imported(new: 1, present: 1)])
    }

    @Test func `rejects a transaction id already in the ledger with another amount`() throws {
        let ledger = try TestLedger()
        let header = "date,account_iban,amount,beneficiary,transaction_id\n"
        try ledger.importText(header + "2026-10-02,\(Self.de),-5.00,Kiosk,T-1\n")
        let report = try ledger.importText(
            header + "2026-10-03,\(Self.de),-7.00,Cafe,T-2\n"
                + "2026-10-02,\(Self.de),-50.00,Kiosk,T-1\n", name: "b.csv")
        #expect(report.files.map(\.outcome) == [.rejected])
        let diagnostic = try #require(report.files.first?.validation.diagnostics.first)
        #expect(diagnostic.code == .transactionIDConflict)
        #expect(diagnostic.line == 3)
        #expect(diagnostic.message.contains("2026-10"))
        #expect(try ledger.account(Self.de).transactionCount == 1)
    }

    @Test func `never imports fewer rows than a file holds when references repeat`() throws {
        var random = SeededGenerator(seed: 15)
        for round in 0..<20 {
            let ledger = try TestLedger()
            let count = Int.random(in: 1...60, using: &random)
            var rows: [String] = []
            for _ in 0..<count {
                let day = Int.random(in: 1...3, using: &random)
                let amount = ["-1.00", "-2.00", "3.00"].randomElement(using: &random)!
                let name = ["Kiosk", "Cafe"].randomElement(using: &random)!
                let reference = ["R1", "R2", "", "NOTPROVIDED"].randomElement(using: &random)!
                rows.append("2026-10-0\(day),\(Self.de),\(amount),\(name),\(reference)\n")
            }
            let text = "date,account_iban,amount,beneficiary,reference\n" + rows.joined()
            let first = try ledger.importText(text, name: "r\(round).csv")
            #expect(first.files.map(\.outcome) == [.imported(new: count, present: 0)])
            #expect(try ledger.account(Self.de).transactionCount == count)
            // The same rows again, with a few more: only the new ones are added.
            let extra = Int.random(in: 0...5, using: &random)
            let again = try ledger.importText(
                text + rows.prefix(extra).joined(), name: "again\(round).csv")
            #expect(
                again.files.map(\.outcome)
                    == [extra == 0 ? .alreadyPresent(count) : .imported(new: extra, present: count)]
            )
        }
    }
}

/// A ledger written by the previous format (1) keeps working.
struct LedgerUpgradeTests {
    static let de = StateControllerTests.de

    /// Writes a format 1 ledger by hand: reference identities, 8-byte hashes, no checksums.
    static func writeFormat1Ledger(at state: String, lines: [String]) throws {
        let folder = state + "/accounts/\(Self.de)"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true)
        let data = lines.joined()
        try data.write(toFile: folder + "/2026-10.tsv", atomically: false, encoding: .utf8)
        try Data(repeating: 7, count: 8 * lines.count).write(
            to: URL(fileURLWithPath: folder + "/2026-10.ids"))
        try
            ("statements-ledger 1\ngeneration\t1\n"
            + "account\t\(Self.de)\tEUR\tchecking\t10000\t2026-11-01T00:00:00Z\tHousehold\n"
            + "month\t\(Self.de)\t2026-10\t\(data.utf8.count)\t\(8 * lines.count)\n").write(
                toFile: state + "/manifest", atomically: false, encoding: .utf8)
    }

    @Test func `re-imports the files of a format 1 ledger adding and losing nothing`() throws {
        let ledger = try TestLedger()
        // What format 1 stored for this file: six fields, the reference last.
        try Self.writeFormat1Ledger(
            at: ledger.state,
            lines: [
                "2026-10-01\t-320\tCafé\t\tLunch\tR-1\n", "2026-10-01\t-320\tCafé\t\tLunch\tR-2\n",
                "2026-10-02\t-100\tKiosk\t\t\t\n", "2026-10-02\t-100\tKiosk\t\t\t\n",
            ])
        let before = try ledger.account(Self.de)
        #expect(before.transactionCount == 4)
        #expect(before.balance.minorUnits == 10_000 - 840)
        let report = try ledger.importText(
            "date,account_iban,amount,beneficiary,description,reference\n"
                + "2026-10-01,\(Self.de),-3.20,Café,Lunch,R-1\n"
                + "2026-10-01,\(Self.de),-3.20,Café,Lunch,R-2\n"
                + "2026-10-02,\(Self.de),-1.00,Kiosk,,\n"
                + "2026-10-02,\(Self.de),-1.00,Kiosk,,\n")
        #expect(report.files.map(\.outcome) == [.alreadyPresent(4)])
        let after = try ledger.account(Self.de)
        #expect(after.transactionCount == 4)
        #expect(after.balance == before.balance)
        #expect(after.account.name == "Household")
        let manifest = try String(contentsOfFile: ledger.state + "/manifest", encoding: .utf8)
        #expect(manifest.hasPrefix("statements-ledger 3\n"))
        let folder = ledger.state + "/accounts/\(Self.de)"
        #expect(!FileManager.default.fileExists(atPath: folder + "/2026-10.ids"))
        #expect(FileManager.default.fileExists(atPath: folder + "/2026-10.idx"))
        // A third identical coffee in a later export is still one more.
        let third = try ledger.importText(
            "date,account_iban,amount,beneficiary\n"
                + String(repeating: "2026-10-02,\(Self.de),-1.00,Kiosk\n", count: 3),
            name: "later.csv")
        #expect(third.files.map(\.outcome) == [.imported(new: 1, present: 2)])
    }

    /// Each account of `Fixtures/ledger-format-1`: its transaction count and balance, as the
    /// release that wrote it listed them (`statements accounts --format json`).
    static let format1Accounts: [(String, Int, Int64)] = [
        ("BE68539007547034", 3, 91155), ("BH67BMAG00001299123456", 1, 1_130_375),
        ("CH9300762011623852957", 4, 80565), ("DE44500105175407324931", 4, 265_742),
        ("DE89370400440532013000", 16, 289_824), ("ES9121000418450200051332", 3, 170_210),
        ("FR1420041010050500013M02606", 4, 100_450), ("FR7630006000011234567890189", 4, 218_486),
        ("GB29NWBK60161331926819", 4, 465_615), ("GB33BUKB20201555555555", 4, 320_301),
        ("GB82WEST12345698765432", 3, 131_878), ("NL18RABO0123459876", 3, 150_440),
        ("NL91ABNA0417164300", 6, 854_020),
    ]

    @Test func `upgrades a ledger written by the previous release, adding and losing nothing`()
        throws
    {
        // The ledger the previous release (format 1) wrote from SampleData/good and
        // SampleData/profiles; one profile export was rejected there for its currency.
        let ledger = try TestLedger()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/ledger-format-1")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: ledger.state)
        func figures() throws -> [(String, Int, Int64)] {
            try ledger.accounts().map {
                ($0.account.id.text, $0.transactionCount, $0.balance.minorUnits)
            }
        }
        #expect(try figures().elementsEqual(Self.format1Accounts, by: ==))
        let root = fixture.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        // The two US samples named their accounts by invented IBANs when the fixture was
        // written; they now name them by ABA and card ids, which are new accounts.
        let profiles = try FileManager.default.contentsOfDirectory(
            atPath: root + "/SampleData/profiles"
        ).filter { !$0.hasPrefix("us-") }.map { root + "/SampleData/profiles/" + $0 }
        let report = try ledger.controller().importFiles(at: [root + "/SampleData/good"] + profiles)
        #expect(report.files.filter { $0.outcome == .rejected }.count == 1)
        #expect(report.files.allSatisfy { if case .imported = $0.outcome { false } else { true } })
        #expect(try figures().elementsEqual(Self.format1Accounts, by: ==))
        let manifest = try String(contentsOfFile: ledger.state + "/manifest", encoding: .utf8)
        #expect(manifest.hasPrefix("statements-ledger 3\n"))
        // Once more, now in format 2: still nothing new.
        let again = try ledger.controller().importFiles(at: [root + "/SampleData/good"] + profiles)
        #expect(again.files.allSatisfy { if case .imported = $0.outcome { false } else { true } })
        #expect(try StorageController(folder: ledger.state).check().problems.isEmpty)
    }

    @Test func `reads a format 1 ledger without writing to it`() throws {
        let ledger = try TestLedger()
        try Self.writeFormat1Ledger(
            at: ledger.state, lines: ["2026-10-01\t-320\tCafé\t\tLunch\tR-1\n"])
        let before = try ledger.snapshot()
        #expect(try ledger.account(Self.de).transactionCount == 1)
        let dryRun = try ledger.importText(
            "date,account_iban,amount,beneficiary,description,reference\n"
                + "2026-10-01,\(Self.de),-3.20,Café,Lunch,R-1\n", dryRun: true)
        #expect(dryRun.files.map(\.outcome) == [.alreadyPresent(1)])
        #expect(try ledger.snapshot() == before)
    }
}

struct ImportGenerationTests {
    @Test func `reports the generations before and after, read under the lock`() throws {
        let ledger = try TestLedger()
        let text =
            "date,account_iban,amount,beneficiary\n2026-10-01,\(StateControllerTests.de),-1.00,A\n"
        #expect(try ledger.importText(text).generations == (0, 1))
        #expect(try ledger.importText(text, name: "again.csv").generations == (1, 1))
        #expect(
            try ledger.importText(
                text + "2026-10-02,\(StateControllerTests.de),-2.00,B\n", name: "more.csv",
                dryRun: true
            ).generations == (1, 1))
    }
}
