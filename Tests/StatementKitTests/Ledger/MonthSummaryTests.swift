import Foundation
import Testing

@testable import StatementKit

/// Format 6: each month record keeps its count, total and first and last day, and `accounts`
/// reads those instead of the transactions.
struct MonthSummaryTests {
    typealias Figures = (String, Int, Int64, String?, String?, Int64?)

    /// Each account of `Fixtures/ledger-format-5` as the release that wrote it listed them
    /// (`statements accounts --format json`): count, balance, first and last date, and the
    /// ledger's balance at the latest balance the bank stated.
    static let format5Accounts: [Figures] = [
        ("BH67BMAG00001299123456", 1, 1_130_375, "2026-10-04", "2026-10-04", 1_130_375),
        ("CH9300762011623852957", 4, 80565, "2026-10-02", "2026-10-30", nil),
        ("DE86500502010001234567", 4, 1_120_870, "2026-10-02", "2026-10-20", 1_120_870),
        ("DE88370400440532013018", 3, 353_749, "2026-10-03", "2026-10-20", 353_749),
        ("DE89370400440532013000", 16, 181_829, "2026-10-01", "2026-11-20", 181_829),
        ("FR7630006000011234567890189", 4, 218_486, "2026-10-01", "2026-10-28", nil),
        ("GB82WEST12345698765432", 3, 131_878, "2026-10-01", "2026-10-28", 127_760),
        ("NL42INGB0006123456", 3, 165_499, "2026-10-02", "2026-10-20", 165_499),
        ("NL91ABNA0417164300", 4, 740_799, "2026-10-15", "2026-11-30", 740_799),
        ("aba:121000248/1234567890", 3, 272_653, "2026-10-01", "2026-10-12", 272_653),
        ("card:chase/4417", 3, -13332, "2026-10-02", "2026-10-15", -13332),
        ("name:0001234567", 3, 12000, "2026-10-05", "2026-10-25", 12000),
        ("name:000312345-98765-43", 2, 1_050_412, "2026-10-03", "2026-10-31", 1_050_412),
        ("name:76050101-123456789", 1, 5000, "2026-10-05", "2026-10-05", 5000),
    ]

    static func figures(_ ledger: TestLedger) throws -> [Figures] {
        try ledger.accounts().map {
            (
                $0.account.id.text, $0.transactionCount, $0.balance.minorUnits,
                $0.firstDate?.isoText, $0.lastDate?.isoText, $0.bankBalance?.ledger.minorUnits
            )
        }
    }

    static func same(_ lhs: [Figures], _ rhs: [Figures]) -> Bool {
        lhs.elementsEqual(rhs) { $0 == $1 }
    }

    /// The month lines of every live section of the ledger's months log.
    static func monthLines(_ state: String) throws -> [[Substring]] {
        let storage = StorageController(folder: state)
        let manifest = try storage.loadManifest(months: false)
        let log = try Data(contentsOf: URL(fileURLWithPath: state + "/" + manifest.monthsLog.name))
        return manifest.accounts.values.compactMap(\.section).flatMap { section in
            String(decoding: log[section.offset..<section.offset + section.bytes], as: UTF8.self)
                .split(separator: "\n").filter { !$0.hasPrefix("balance\t") }
                .map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        }
    }

    @Test func `upgrades a format 5 ledger in place, its figures the same`() throws {
        let ledger = try TestLedger()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/ledger-format-5")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: ledger.state)
        // Read as it is: the months have no summaries, their transactions are read.
        #expect(try Self.monthLines(ledger.state).allSatisfy { $0.count == 7 })
        #expect(Self.same(try Self.figures(ledger), Self.format5Accounts))
        // The first run that writes upgrades it: one row of an account of its own.
        let other = "DE02120300000000202051"
        let report = try ledger.importText(
            "date,account_iban,amount,beneficiary\n2026-10-09,\(other),1.00,Upgrade\n")
        #expect(report.files.allSatisfy { $0.outcome != .rejected })
        let manifest = try String(contentsOfFile: ledger.state + "/manifest", encoding: .utf8)
        #expect(manifest.hasPrefix("statements-ledger 7\n"))
        // The accounts' records are in pages of the months log, with their totals.
        #expect(!manifest.contains("\naccount\t"))
        let paged = try StorageController(folder: ledger.state).loadManifest(months: false)
        #expect(paged.accounts.count == 15 && paged.accounts.values.allSatisfy { $0.totals != nil })
        // Every month now has its total and first and last day.
        let lines = try Self.monthLines(ledger.state)
        #expect(lines.count == 17 && lines.allSatisfy { $0.count == 9 })
        let now = try Self.figures(ledger).filter { $0.0 != other }
        #expect(Self.same(now.map { ($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) }, Self.format5Accounts))
        #expect(try StorageController(folder: ledger.state).check().problems.isEmpty)
    }

    @Test func `keeps each month's first and last day as rows arrive`() throws {
        let ledger = try TestLedger()
        let de = "DE89370400440532013000"
        try ledger.importText(
            "date,account_iban,amount,beneficiary\n2026-10-17,\(de),-1.00,A\n"
                + "2026-10-09,\(de),-2.00,B\n2026-11-28,\(de),5.00,C\n")
        func days() throws -> [String] {
            try Self.monthLines(ledger.state).map { "\($0[0]) \($0[6])-\($0[7])" }.sorted()
        }
        #expect(try days() == ["2026-10 9-17", "2026-11 28-28"])
        try ledger.importText(
            "date,account_iban,amount,beneficiary\n2026-10-03,\(de),-4.00,D\n"
                + "2026-10-31,\(de),-8.00,E\n",
            name: "more.csv")
        #expect(try days() == ["2026-10 3-31", "2026-11 28-28"])
        let account = try ledger.account(de)
        #expect(account.transactionCount == 5)
        #expect(account.balance.minorUnits == -1000)
        #expect(account.firstDate?.isoText == "2026-10-03")
        #expect(account.lastDate?.isoText == "2026-11-28")
    }

    @Test func `lists accounts from the summaries, without reading a transaction`() throws {
        let ledger = try TestLedger()
        let de = "DE89370400440532013000"
        try ledger.importText(
            "date,account_iban,amount,beneficiary\n2026-10-01,\(de),-1.00,A\n"
                + "2026-10-02,\(de),-2.00,B\n")
        let before = try Self.figures(ledger)
        // Every row's amount changed by hand, its length the same: `report` finds the damage,
        // `accounts` reads only the month records.
        let path = ledger.state + "/transactions"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\t-", with: "\t9").write(
            toFile: path, atomically: false, encoding: .utf8)
        #expect(Self.same(try Self.figures(ledger), before))
        #expect(before.first?.1 == 2 && before.first?.2 == -300)
        #expect(throws: StorageError.self) {
            try ledger.controller().monthlyStatements(months: [Month(year: 2026, month: 10)!])
        }
    }

    @Test func `works out the ledger's balance at a stated day within a month`() throws {
        let ledger = try TestLedger()
        let de = "DE89370400440532013000"
        try ledger.importText(
            "date,account_iban,amount,beneficiary,balance\n2026-10-03,\(de),-1.00,A,99.00\n"
                + "2026-10-10,\(de),-2.00,B,97.00\n2026-10-20,\(de),-4.00,C,93.00\n")
        let account = try ledger.account(de)
        // The latest balance kept holds at the end of 2026-10-10 (the file's last day states
        // none of its own), within the month's rows: the ledger has the first two by then.
        #expect(account.bankBalance?.assertion.day.isoText == "2026-10-10")
        #expect(account.bankBalance?.ledger.minorUnits == 9700)
        #expect(account.balance.minorUnits == 9300)
    }
}
