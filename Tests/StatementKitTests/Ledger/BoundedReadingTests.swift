import Foundation
import Testing

@testable import StatementKit

/// A run reads what it touches: a one-row import reads the manifest (a line per page of
/// account records), the page and section of its account and its month, whatever the number
/// of accounts in the ledger.
struct BoundedReadingTests {
    /// A German IBAN for an account number: its check digits worked out (ISO 7064 mod 97-10).
    static func iban(_ number: Int) -> String {
        let bban = "37040044" + String(format: "%010d", number)
        let digits = bban + "131400"  // D = 13, E = 14, then "00"
        let remainder = digits.reduce(0) { ($0 * 10 + Int(String($1))!) % 97 }
        return "DE" + String(format: "%02d", 98 - remainder) + bban
    }

    /// A ledger of `accounts` accounts with a row each; returns the bytes of the ledger that a
    /// one-row import into its first account reads, and the size of the account records.
    static func oneRowImport(accounts: Int) throws -> (read: Int, records: Int) {
        let ledger = try TestLedger()
        var text = "date,account_iban,amount,beneficiary\n"
        for number in 0..<accounts {
            text += "2026-10-0\(1 + number % 9),\(iban(number)),-1.00,Shop \(number)\n"
        }
        try ledger.importText(text)
        let storage = StorageController(folder: ledger.state)
        let report = try ledger.controller(storage).importFiles(at: [
            try ledger.files.write(
                "night.csv",
                "date,account_iban,amount,beneficiary\n2026-10-20,\(iban(0)),-2.00,Kiosk\n")
        ])
        #expect(report.newCount == 1)
        let manifest = try StorageController(folder: ledger.state).loadManifest(months: false)
        #expect(manifest.accounts.count == accounts)
        return (storage.bytesRead, manifest.pages.reduce(0) { $0 + ($1?.bytes ?? 0) })
    }

    @Test func `reads a bounded number of bytes for one row, however many accounts`() throws {
        let small = try Self.oneRowImport(accounts: 1000)
        let large = try Self.oneRowImport(accounts: 20000)
        // The account records grow with the accounts (20×); what the run reads does not:
        // the manifest's page lines (at most 1,024) and one page of about 20 records.
        #expect(large.records > 15 * small.records)
        #expect(large.read < 100_000, "\(large.read) bytes read")
        #expect(large.read < 2 * small.read, "\(small.read) and \(large.read) bytes read")
        #expect(large.read * 20 < large.records)
    }

    @Test func `decodes only the records a run touches, and writes the others back as they stand`()
        throws
    {
        // 3,000 accounts: about three records a page.
        let ledger = try TestLedger()
        var text = "date,account_iban,amount,beneficiary\n"
        for number in 0..<3000 {
            text += "2026-10-0\(1 + number % 9),\(Self.iban(number)),-1.00,Shop \(number)\n"
        }
        try ledger.importText(text)
        let id = { (number: Int) in AccountID(try! IBAN(parsing: Self.iban(number))) }
        let numbers = Dictionary(grouping: 0..<3000) { LedgerManifest.page(of: id($0)) }
        let (page, onPage) = try #require(numbers.first { $0.value.count >= 3 })
        let (first, second) = (id(onPage[0]), id(onPage[1]))
        let before = try StorageController(folder: ledger.state).loadManifest(months: false)

        let storage = StorageController(folder: ledger.state)
        var manifest = try storage.loadRoot()
        try storage.loadAccounts([first], in: &manifest)
        #expect(Array(manifest.accounts.keys) == [first])
        #expect(manifest.undecoded[page]?.records.count == onPage.count - 1)
        #expect(manifest.isUnread(second) && !manifest.isUnread(first))
        try storage.loadAccounts([second, first], in: &manifest)
        #expect(Set(manifest.accounts.keys) == [first, second])
        #expect(manifest.accounts[second] == before.accounts[second])

        // One run: a file of the page's first account, then one of its second and of a new
        // account of the same page, whose record joins the ones kept undecoded.
        let new = try #require((3000...).lazy.map(id).first { LedgerManifest.page(of: $0) == page })
        let report = try ledger.controller().importFiles(at: [
            try ledger.files.write(
                "a.csv", "date,account_iban,amount,beneficiary\n2026-10-20,\(first),-2.00,Kiosk\n"),
            try ledger.files.write(
                "b.csv",
                "date,account_iban,amount,beneficiary\n2026-10-21,\(second),-3.00,Kiosk\n"
                    + "2026-10-21,\(new),-4.00,Kiosk\n"),
        ])
        #expect(report.newCount == 3)
        let after = try StorageController(folder: ledger.state).loadManifest(months: false)
        #expect(after.accounts.count == 3001)
        for (accountID, entry) in before.accounts where ![first, second].contains(accountID) {
            #expect(after.accounts[accountID] == entry, "\(accountID)")
        }
        for (accountID, amount) in [(first, -300), (second, -400)] {
            #expect(after.accounts[accountID]?.totals?.count == 2)
            #expect(after.accounts[accountID]?.totals?.sum == Int64(amount))
        }
        #expect(after.accounts[new]?.totals?.sum == -400)
        #expect(try StorageController(folder: ledger.state).check().problems.isEmpty)
    }

    @Test func `refuses a page whose record does not spell its id as it always is`() throws {
        // A record kept undecoded is found by its id's bytes: an id in another spelling (a
        // lower-case IBAN, which parsing would accept) could never be found, and a run would
        // add the account again, so the page is refused whether the record is asked for or not.
        let ledger = try TestLedger()
        try ledger.importText(
            "date,account_iban,amount,beneficiary\n2026-10-01,\(Self.iban(1)),-1.00,Shop\n")
        let manifest = try StorageController(folder: ledger.state).loadRoot()
        let section = try #require(manifest.pages.compactMap { $0 }.first)
        let log = try Data(contentsOf: URL(fileURLWithPath: ledger.state + "/months.0"))
        let page = Array(log[section.offset..<section.offset + section.bytes])
        var read = LedgerManifest()
        #expect(try read.readPage(page, wanted: []).count == 1)
        let respelled = Array(
            String(decoding: page, as: UTF8.self)
                .replacingOccurrences(of: Self.iban(1), with: Self.iban(1).lowercased()).utf8)
        for wanted in [nil, Set<AccountID>()] {
            var reading = LedgerManifest()
            #expect(throws: LedgerManifest.DecodingError.self) {
                try reading.readPage(respelled, wanted: wanted)
            }
        }
    }

    @Test func `lets go of the identities of months left behind, and finds them again`() throws {
        // One file over three months in date order, with identical rows and transaction ids,
        // twice in one run and once more in the next: every copy adds nothing, whether the
        // run holds every month's identities or lets go of all but the latest.
        var text = "date,account_iban,amount,beneficiary,description,reference,transaction_id\n"
        for month in ["09", "10", "11"] {
            for day in 1...20 {
                let row = "2026-\(month)-\(String(format: "%02d", day)),\(Self.iban(day % 3))"
                text += "\(row),-1.00,Kiosk,,,\n\(row),-1.00,Kiosk,,,\n"
                text += "\(row),-\(day).00,Rent,,,T\(month)-\(day)\n"
            }
        }
        var contents: [[String: [UInt8]]] = []
        for limit in [0, 1 << 16] {
            let ledger = try TestLedger()
            let first = try ledger.files.write("a.csv", text)
            let copy = try ledger.files.write("b.csv", text)
            let controller = ledger.controller(stagingLimit: 300)
            controller.identityLimit = limit
            let report = try controller.importFiles(at: [first, copy])
            #expect(
                report.files.map(\.outcome) == [
                    .imported(new: 180, present: 0), .alreadyPresent(180),
                ])
            let again = ledger.controller(stagingLimit: 300)
            again.identityLimit = limit
            let later = try again.importFiles(at: [try ledger.files.write("c.csv", text)])
            #expect(later.files.map(\.outcome) == [.alreadyPresent(180)])
            contents.append(try ledger.contents())
        }
        #expect(contents[0] == contents[1])
    }

    /// Two years of rows of one account, 40 a month: 24 months of about 4 KB each.
    static func twoYears() throws -> TestLedger {
        let ledger = try TestLedger()
        var text = "date,account_iban,amount,beneficiary\n"
        for month in 0..<24 {
            for day in 1...20 {
                let date = String(format: "%04d-%02d-%02d", 2025 + month / 12, month % 12 + 1, day)
                text += "\(date),\(iban(1)),-\(month + day).25,Shop \(day)\n"
                text += "\(date),\(iban(1)),\(day).10,Refund \(day)\n"
            }
        }
        try ledger.importText(text)
        return ledger
    }

    @Test func `reads a month's rows for its statement, and the months before as their sums`()
        throws
    {
        let ledger = try Self.twoYears()
        let storage = StorageController(folder: ledger.state)
        let statements = try ledger.controller(storage).monthlyStatements(months: [
            Month(year: 2026, month: 12)!
        ])
        let statement = try #require(statements.first)
        // The balance before December 2026: every earlier row, -(month + day).25 + day.10.
        var before = 0
        for month in 0..<23 {
            for day in 1...20 { before += -(month + day) * 100 - 25 + day * 100 + 10 }
        }
        #expect(statement.openingBalance.minorUnits == before)
        #expect(statement.entries.count == 40)
        let log = try Data(contentsOf: URL(fileURLWithPath: ledger.state + "/transactions")).count
        // The months log and one month's rows: not the 23 months before (each as big).
        #expect(storage.bytesRead < log / 4, "\(storage.bytesRead) bytes read of \(log)")
    }

    @Test func `reads every account's months once for statements and their links`() throws {
        let ledger = try Self.twoYears()
        let storage = StorageController(folder: ledger.state)
        let controller = ledger.controller(storage)
        let statements = try controller.monthlyStatements(months: [Month(year: 2026, month: 6)!])
        #expect(statements.count == 1)
        let read = storage.bytesRead
        let months = try controller.accountMonths()
        #expect(months.values.first?.count == 24)
        #expect(storage.bytesRead == read, "the months log was read again")
        // A commit makes a new manifest: its months are read, not the ones kept.
        try ledger.importText(
            "date,account_iban,amount,beneficiary\n2027-01-05,\(Self.iban(1)),-3.00,Kiosk\n",
            name: "january.csv")
        #expect(try controller.accountMonths().values.first?.count == 25)
        #expect(storage.bytesRead > read)
    }

    @Test func `finds a month record whose sum or days are not its rows'`() throws {
        // A report carries the balance by the months' recorded sums, so `check` compares
        // each with its rows: a writer that recorded a wrong one (with valid checksums) is
        // found, not trusted.
        let ledger = try Self.twoYears()
        #expect(try StorageController(folder: ledger.state).check().problems.isEmpty)
        let storage = StorageController(folder: ledger.state)
        try storage.lockForWriting()
        var manifest = try storage.loadManifest()
        let accountID = try #require(manifest.accounts.keys.first)
        let (march, may) = (Month(year: 2025, month: 3)!, Month(year: 2025, month: 5)!)
        manifest.accounts[accountID]!.months[march]!.total! += 100
        manifest.accounts[accountID]!.months[may]!.days = 2...20
        try storage.commit(&manifest, changed: [accountID])
        storage.unlock()
        let problems = try StorageController(folder: ledger.state).check().problems
            .map(\.description)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first?.contains("in 2025-03 records a sum of ") == true)
        #expect(problems.first?.contains("but its rows sum to ") == true)
        #expect(
            problems.last?.contains(
                "in 2025-05 records its rows on days 2 to 20, but they are on days 1 to 20")
                == true)
    }
}
