import Foundation
import Testing

@testable import StatementKit

struct BalanceCheckTests {
    static func day(_ text: String) -> Day { try! Day(parsing: text) }

    static func assertion(_ day: String, _ cents: Int64, line: Int = 1) -> BalanceAssertion {
        BalanceAssertion(
            day: Self.day(day), balance: Money(minorUnits: cents, currency: .eur), source: "a.csv",
            line: line)
    }

    @Test func `anchors the opening balance at the earliest assertion`() {
        // 100.00 stated at the end of Oct 1, with 20.00 of bookings on or before it.
        let check = BalanceCheck(
            assertions: [
                Self.assertion("2026-10-01", 10_000), Self.assertion("2026-10-05", 12_500),
            ],
            sums: [2000, 4500])
        #expect(check.opening == Money(minorUnits: 8000, currency: .eur))
        #expect(check.failures.isEmpty)
        #expect(check.outOfBalance == nil)
        #expect(check.latest?.ledger == Money(minorUnits: 12_500, currency: .eur))
    }

    @Test func `reports a run of failures with one difference once, from the last that holds`() {
        let check = BalanceCheck(
            assertions: [
                Self.assertion("2026-10-01", 0), Self.assertion("2026-10-03", 100),
                Self.assertion("2026-10-10", 200), Self.assertion("2026-10-11", 300),
                Self.assertion("2026-10-20", 1000),
            ],
            // A booking of 50.00 missing between Oct 4 and Oct 10, then 7.00 doubled by Oct 20.
            sums: [0, 100, 150, 250, 1007])
        #expect(check.failures.count == 2)
        let first = check.failures[0]
        #expect(first.assertion.day == Self.day("2026-10-10"))
        #expect(first.lastHolding == Self.day("2026-10-03"))
        #expect(first.repeats == 1)
        #expect(first.difference == Money(minorUnits: -50, currency: .eur))
        #expect(check.failures[1].difference == Money(minorUnits: 7, currency: .eur))
        #expect(check.failures[1].lastHolding == Self.day("2026-10-03"))
        #expect(
            check.outOfBalance
                == OutOfBalance(
                    since: Self.day("2026-10-10"), difference: Money(minorUnits: 7, currency: .eur))
        )
        let message = DiagnosticMessage.balanceAssertion(
            first, account: AccountID(try! IBAN(parsing: "DE89370400440532013000")))
        #expect(message.code == .balanceAssertion)
        #expect(
            message.text
                == "the bank states 2.00 EUR for DE89370400440532013000 at the end of 2026-10-10; the ledger has 1.50 EUR, 0.50 EUR less: a statement covering 2026-10-04 … 2026-10-10 may be missing, or a booking was imported twice; 1 later balance differs by as much"
        )
    }

    @Test func `keeps one of each stated fact, the same whatever order they come in`() {
        let a = Self.assertion("2026-10-01", 100, line: 9)
        let b = BalanceAssertion(
            day: a.day, balance: a.balance, source: "0-first.csv", line: 3)
        let c = Self.assertion("2026-10-02", 50)
        var one: [BalanceAssertion] = []
        #expect(BalanceAssertion.merge([a, c], into: &one))
        #expect(BalanceAssertion.merge([b], into: &one))
        #expect(!BalanceAssertion.merge([a, b, c], into: &one))
        var other: [BalanceAssertion] = []
        BalanceAssertion.merge([c, b, a], into: &other)
        #expect(one == other)
        #expect(one.map(\.source) == ["0-first.csv", "a.csv"])
    }
}

struct BalanceLedgerFormatTests {
    @Test func `round-trips balance lines, month totals and the balance state`() throws {
        let october = Month(year: 2026, month: 10)!
        var length = LedgerManifest.MonthLength.empty
        let (data, ids) = ([UInt8]([1, 2, 3]), [UInt8](repeating: 0, count: 16))
        length.advance(data: data.span, ids: ids.span, at: .init(), total: -42)
        let assertions = [
            BalanceAssertion(
                day: try Day(parsing: "2026-10-31"), balance: Money(minorUnits: 5, currency: .eur),
                source: "in\tbox/a.csv", line: 7, ledgerSum: -42),
            BalanceAssertion(
                day: try Day(parsing: "2026-11-30"), balance: Money(minorUnits: -5, currency: .eur),
                source: "b.ofx", line: 2),
        ]
        let section = LedgerManifest.section(of: [october: length], assertions: assertions)
        #expect(
            String(decoding: section, as: UTF8.self).hasSuffix(
                "\t-42\t0:3:0:16\nbalance\t2026-10-31\t5\t7\tin\\tbox/a.csv\t-42\nbalance\t2026-11-30\t-5\t2\tb.ofx\n"
            ))
        let read = try LedgerManifest.contents(
            ofSection: section, logs: .init(dataBytes: 3, idBytes: 16), currency: .eur)
        #expect(read.months == [october: length])
        #expect(read.assertions == assertions)
        var manifest = LedgerManifest()
        let iban = AccountID(try IBAN(parsing: "DE89370400440532013000"))
        manifest.accounts[iban] = LedgerManifest.AccountEntry(
            account: Account(id: iban, currency: .eur), turnover: 0, months: [:],
            outOfBalance: OutOfBalance(
                since: try Day(parsing: "2026-10-20"),
                difference: Money(minorUnits: 132_917, currency: .eur)))
        // The account's record, in its page: the balance state, then no section and its
        // totals (no months, no assertions).
        let page = LedgerManifest.page(of: [iban], in: manifest.accounts)
        #expect(
            String(decoding: page, as: UTF8.self).hasSuffix(
                "\t0\t2026-10-20:132917\t\t-\t0:0:-:-:0\n"))
        var paged = LedgerManifest()
        try paged.readPage(page)
        manifest.accounts[iban]!.totals = AccountTotals()
        #expect(paged.accounts == manifest.accounts)
        // The manifest lists the accounts out of balance, which a run says without reading
        // their pages.
        let text = manifest.encoded
        #expect(text.contains("\nunbalanced\tDE89370400440532013000\n"))
        #expect(try LedgerManifest(decoding: text).outOfBalanceIDs == [iban])
    }

    @Test func `upgrades a format 4 ledger in place, reading its files again for their balances`()
        throws
    {
        let ledger = try TestLedger()
        let file = try ledger.files.write(
            "household.csv",
            """
            date,account_iban,amount,beneficiary,balance
            2026-10-01,DE89370400440532013000,100.00,Salary,1100.00
            2026-10-02,DE89370400440532013000,-30.00,Rent,1070.00

            """)
        _ = try ledger.controller().importFiles(at: [file])
        // The ledger as format 4 wrote it: no balances, no totals, no balance state.
        let storage = StorageController(folder: ledger.state)
        try storage.lockForWriting()
        var manifest = try storage.loadManifest()
        for (accountID, entry) in manifest.accounts {
            manifest.accounts[accountID]!.assertions = []
            for month in entry.months.keys {
                manifest.accounts[accountID]!.months[month]!.total = nil
            }
        }
        try storage.commit(&manifest, changed: Set(manifest.accounts.keys))
        storage.unlock()
        let path = ledger.state + "/manifest"
        let lines = try StorageController(folder: ledger.state).loadManifest(months: false)
            .format6Lines.map { line in
                guard line.hasPrefix("account\t") else { return String(line) }
                var fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                fields.remove(at: 7)
                return fields.joined(separator: "\t")
            }
        let body = (["statements-ledger 4"] + lines.dropFirst()).joined(separator: "\n") + "\n"
        try Data(LedgerManifest.sealed(Array(body.utf8), version: 4)).write(
            to: URL(fileURLWithPath: path))
        #expect(try ledger.account("DE89370400440532013000").bankBalance == nil)
        // The next run reads the file again: nothing new, its balances become assertions.
        let report = try ledger.controller().importFiles(at: [file])
        #expect(report.files.map(\.outcome) == [.alreadyPresent(2)])
        #expect(report.files.map(\.isUnchanged) == [false])
        let account = try ledger.account("DE89370400440532013000")
        // The file's latest day is asserted as the balance before its rows (the file may hold
        // the day's first bookings only): 1,070.00 + 30.00 at the end of 2026-10-01.
        #expect(account.bankBalance?.assertion.balance.minorUnits == 110_000)
        #expect(account.outOfBalance == nil)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8).hasPrefix("statements-ledger 7\n"))
        #expect(try StorageController(folder: ledger.state).check().problems.isEmpty)
    }
}
