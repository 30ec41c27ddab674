import Foundation
import Testing

@testable import StatementKit

struct StateControllerTests {
    static let header = "date,account_iban,amount,beneficiary,description,transaction_id\n"
    static let de = "DE89370400440532013000"

    static func row(
        _ day: String, _ amount: String, _ name: String = "Kiosk", id: String = "",
        account: String = de
    ) -> String {
        "2026-10-\(day),\(account),\(amount),\(name),,\(id)\n"
    }

    @Test func `imports a file once however often it is delivered`() throws {
        let ledger = try TestLedger()
        let text = Self.header + Self.row("01", "-1.00", id: "A") + Self.row("02", "-2.00")
        let first = try ledger.importText(text)
        #expect(first.files.map(\.outcome) == [.imported(new: 2, present: 0)])
        let before = try ledger.transactionSnapshot()
        let second = try ledger.importText(text, name: "again.csv")
        #expect(second.files.map(\.outcome) == [.alreadyPresent(2)])
        // The same transactions; the ledger now knows the second file too.
        #expect(try ledger.transactionSnapshot() == before)
        #expect(try ledger.account(Self.de).balance.minorUnits == -300)
    }

    @Test func `keeps two identical rows of one file and adds only the third of a later export`()
        throws
    {
        let ledger = try TestLedger()
        let coffee = Self.row("03", "-3.20", "Café")
        try ledger.importText(Self.header + coffee + coffee)
        #expect(try ledger.account(Self.de).transactionCount == 2)
        let later = try ledger.importText(Self.header + coffee + coffee + coffee, name: "later.csv")
        #expect(later.files.map(\.outcome) == [.imported(new: 1, present: 2)])
        #expect(try ledger.account(Self.de).transactionCount == 3)
    }

    @Test
    func `numbers identical rows per file when one run reads several, a rejected one among them`()
        throws
    {
        let ledger = try TestLedger()
        let coffee = Self.row("03", "-3.20", "Café")
        let paths = try [
            ledger.files.write("a.csv", Self.header + coffee + coffee),
            ledger.files.write("b.csv", Self.header + coffee + coffee + Self.row("04", "-1.005")),
            ledger.files.write("c.csv", Self.header + coffee + coffee + coffee),
            ledger.files.write("d.csv", Self.header + coffee),
        ]
        let report = try ledger.controller(stagingLimit: 60).importFiles(at: paths)
        #expect(
            report.files.map(\.outcome) == [
                .imported(new: 2, present: 0), .rejected, .imported(new: 1, present: 2),
                .alreadyPresent(1),
            ])
        #expect(try ledger.account(Self.de).transactionCount == 3)
        #expect(try ledger.account(Self.de).balance.minorUnits == -960)
    }

    @Test func `ignores the order of same-day rows in the next export`() throws {
        let ledger = try TestLedger()
        let rows = [
            Self.row("05", "-1.00", "A"), Self.row("05", "-2.00", "B"),
            Self.row("05", "-1.00", "A"), Self.row("05", "-3.00", "C"),
        ]
        try ledger.importText(Self.header + rows.joined())
        let report = try ledger.importText(Self.header + rows.reversed().joined(), name: "next.csv")
        #expect(report.files.map(\.outcome) == [.alreadyPresent(4)])
    }

    @Test func `adds a back-dated card payment once, to its own month`() throws {
        let ledger = try TestLedger()
        try ledger.importText(
            Self.header + Self.row("20", "-5.00", id: "A")
                + Self.row("31", "-5.00", id: "B"))
        let late = "2026-09-28,\(Self.de),-9.99,Late card payment,,C\n"
        let report = try ledger.importText(
            Self.header + Self.row("31", "-5.00", id: "B") + late, name: "november.csv")
        #expect(report.files.map(\.outcome) == [.imported(new: 1, present: 1)])
        let summary = try ledger.account(Self.de)
        #expect(summary.transactionCount == 3)
        #expect(summary.firstDate?.isoText == "2026-09-28")
        #expect(
            try ledger.importText(Self.header + late, name: "again.csv").files.map(\.outcome) == [
                .alreadyPresent(1)
            ])
    }

    @Test func `finds a transaction id the bank re-dated across a month end`() throws {
        let ledger = try TestLedger()
        try ledger.importText(Self.header + Self.row("31", "-5.00", id: "R-77"))
        let moved = "2026-11-02,\(Self.de),-5.00,Kiosk,,R-77\n"
        #expect(
            try ledger.importText(Self.header + moved, name: "b.csv").files.map(\.outcome) == [
                .alreadyPresent(1)
            ])
    }

    @Test func `merges overlapping exports to exactly the whole file`() throws {
        var rows: [String] = []
        var generator = SeededGenerator(seed: 7)
        let accounts = [
            Self.de, "BE68539007547034", "NL91ABNA0417164300", "GB82WEST12345698765432",
        ]
        for index in 0..<20_000 {
            let day = String(format: "%02d", index * 28 / 20_000 + 1)
            let cents = Int.random(in: -50_000...50_000, using: &generator)
            let amount = String(
                format: "%@%d.%02d", cents < 0 ? "-" : "", abs(cents) / 100, abs(cents) % 100)
            let account = accounts[Int.random(in: 0..<4, using: &generator)]
            // A third without reference, some of them identical rows.
            let reference = index % 3 == 0 ? "" : "REF\(index)"
            let name = index % 3 == 0 ? "Shop \(index % 50)" : "Payee \(index)"
            rows.append("2026-10-\(day),\(account),\(amount),\(name),,\(reference)\n")
        }
        let whole = try TestLedger()
        try whole.importText(Self.header + rows.joined())
        let parts = try TestLedger()
        let first = try parts.importText(
            Self.header + rows[0..<12_000].joined(), name: "oct-1-20.csv")
        let second = try parts.importText(
            Self.header + rows[8_000...].joined(), name: "oct-15-31.csv")
        #expect(first.newCount + second.newCount == 20_000)
        #expect(second.presentCount == 4_000)
        let expected = try whole.accounts().map {
            "\($0.account.id) \($0.transactionCount) \($0.balance.minorUnits)"
        }
        #expect(
            try parts.accounts().map {
                "\($0.account.id) \($0.transactionCount) \($0.balance.minorUnits)"
            } == expected)
    }

    @Test func `rejects a file with an error whole and imports the others`() throws {
        let ledger = try TestLedger()
        let good = try ledger.files.write("good.csv", Self.header + Self.row("01", "-1.00"))
        let bad = try ledger.files.write(
            "bad.csv",
            Self.header + Self.row("02", "-2.00", account: "BE68539007547034")
                + Self.row("03", "-1.005"))
        let report = try ledger.controller().importFiles(at: [bad, good])
        #expect(report.files.map(\.outcome) == [.rejected, .imported(new: 1, present: 0)])
        #expect(report.files[0].validation.diagnostics.map(\.code) == [.amountPrecision])
        #expect(try ledger.accounts().map(\.account.id.text) == [Self.de])
    }

    /// 300 rows over two accounts and two months; a third are without reference, and those
    /// repeat every 12 rows (13 identical ones per account-month), far enough apart that a
    /// small staging limit writes them out in different steps.
    static func stagedRows() -> [String] {
        (0..<300).map { index in
            let month = index < 150 ? "10" : "11"
            let day = String(format: "%02d", index % 12 + 1)
            let account = index % 2 == 0 ? de : "BE68539007547034"
            let reference = index % 3 == 0 ? "" : "R\(index)"
            return
                "2026-\(month)-\(day),\(account),-\(index % 4).25,Shop \(index % 6),,\(reference)\n"
        }
    }

    @Test func `writes a file out in steps to the same ledger as at once`() throws {
        let text = Self.header + Self.stagedRows().joined()
        let atOnce = try TestLedger()
        try atOnce.importText(text)
        let inSteps = try TestLedger()
        let path = try inSteps.files.write("in.csv", text)
        let report = try inSteps.controller(stagingLimit: 200).importFiles(at: [path])
        #expect(report.newCount == 300)
        // The same rows, identities and checksums in every account-month; only the extents
        // of the logs differ (one for each step that wrote to a month).
        #expect(try inSteps.contents() == atOnce.contents())
        #expect(try !inSteps.contents().isEmpty)
        let again = try inSteps.controller(stagingLimit: 200).importFiles(at: [path])
        #expect(again.files.map(\.outcome) == [.alreadyPresent(300)])
    }

    @Test func `cuts back what a rejected file wrote in steps, and goes on after it`() throws {
        let ledger = try TestLedger()
        try ledger.importText(Self.header + Self.row("01", "-1.00"))
        let before = try ledger.snapshot()
        let rows = Self.stagedRows()
        let bad = try ledger.files.write(
            "bad.csv", Self.header + rows.joined() + Self.row("28", "-1.005"))
        let rejected = try ledger.controller(stagingLimit: 200).importFiles(at: [bad])
        #expect(rejected.files.map(\.outcome) == [.rejected])
        // The ledger is as it was; only the memory of rejected files has the file.
        var after = try ledger.snapshot()
        #expect(after.removeValue(forKey: "rejected") != nil)
        #expect(after == before)

        let first = try ledger.files.write("first.csv", Self.header + rows[0..<100].joined())
        let rest = try ledger.files.write("rest.csv", Self.header + rows.joined())
        let report = try ledger.controller(stagingLimit: 200).importFiles(at: [first, bad, rest])
        #expect(
            report.files.map(\.outcome) == [
                .imported(new: 100, present: 0), .rejected, .imported(new: 200, present: 100),
            ])
        let whole = try TestLedger()
        try whole.importText(Self.header + Self.row("01", "-1.00"))
        try whole.importText(Self.header + rows.joined())
        #expect(
            try ledger.accounts().map(\.transactionCount)
                == whole.accounts().map(\.transactionCount))
        #expect(try ledger.accounts().map(\.balance) == whole.accounts().map(\.balance))
    }

    @Test func `rejects a file that changes an account's currency`() throws {
        let ledger = try TestLedger()
        try ledger.importText(Self.header + Self.row("01", "-1.00"))
        let report = try ledger.importText(
            "date,account_iban,amount,currency,beneficiary\n2026-10-02,\(Self.de),1,USD,K\n",
            name: "usd.csv")
        #expect(report.files.map(\.outcome) == [.rejected])
        #expect(report.files[0].validation.diagnostics.map(\.code) == [.currencyConflict])
        #expect(try ledger.account(Self.de).transactionCount == 1)
    }

    @Test func `creates accounts with name, kind and an implied opening balance`() throws {
        let ledger = try TestLedger()
        try ledger.importText(
            "date,account_iban,amount,beneficiary,account_name,account_kind,balance\n2026-10-01,\(Self.de),-20.00,K,Rainy day,savings,980.00\n"
        )
        let summary = try ledger.account(Self.de)
        #expect(summary.account.name == "Rainy day")
        #expect(summary.account.kind == .savings)
        #expect(summary.balance.minorUnits == 98_000)
        #expect(summary.lastImport == "2026-11-01T00:00:00Z")
    }

    @Test func `writes nothing in a dry run, however large the file`() throws {
        let ledger = try TestLedger()
        let report = try ledger.importText(Self.header + Self.row("01", "-1.00"), dryRun: true)
        #expect(report.files.map(\.outcome) == [.imported(new: 1, present: 0)])
        #expect(!FileManager.default.fileExists(atPath: ledger.state))

        let rows = Self.stagedRows()
        let first = try ledger.files.write("first.csv", Self.header + rows[0..<100].joined())
        let bad = try ledger.files.write("bad.csv", Self.header + rows.joined() + "x\n")
        let rest = try ledger.files.write("rest.csv", Self.header + rows.joined())
        let steps = try ledger.controller(stagingLimit: 200).importFiles(
            at: [first, bad, rest], dryRun: true)
        #expect(
            steps.files.map(\.outcome) == [
                .imported(new: 100, present: 0), .rejected, .imported(new: 200, present: 100),
            ])
        #expect(!FileManager.default.fileExists(atPath: ledger.state))
    }

    @Test func `reading accounts and statements leaves the state byte-identical`() throws {
        let ledger = try TestLedger()
        try ledger.importText(Self.header + Self.row("01", "-1.00"))
        let before = try ledger.snapshot()
        _ = try ledger.accounts()
        _ = try ledger.controller().monthlyStatements(months: [Month(year: 2026, month: 10)!])
        _ = try ledger.controller().latestMonth()
        #expect(try ledger.snapshot() == before)
    }

    @Test func `refuses a second writer at once, naming the first`() throws {
        let ledger = try TestLedger()
        let first = StorageController(folder: ledger.state)
        try first.lockForWriting()
        #expect(throws: StorageError.inUse(folder: ledger.state, pid: Int(getpid()))) {
            try ledger.importText(Self.header + Self.row("01", "-1.00"))
        }
        first.unlock()
        #expect(try ledger.importText(Self.header + Self.row("01", "-1.00")).newCount == 1)
    }

    @Test(arguments: CommitStep.allCases)
    func `leaves the state as it was when a commit step fails`(step: CommitStep) throws {
        let ledger = try TestLedger()
        try ledger.importText(Self.header + Self.row("01", "-1.00"))
        let before = try ledger.snapshot()
        let storage = StorageController(folder: ledger.state)
        storage.faultInjection = { current throws(StorageError) in
            if current == step {
                throw .io(path: "injected", operation: "write", reason: "No space left on device")
            }
        }
        let path = try ledger.files.write(
            "more.csv",
            Self.header + Self.row("02", "-2.00") + "2026-11-01,BE68539007547034,5,K,,\n")
        #expect(throws: StorageError.self) {
            try ledger.controller(storage, stagingLimit: 30).importFiles(at: [path])
        }
        #expect(try ledger.snapshot() == before)
        #expect(try ledger.controller().importFiles(at: [path]).newCount == 2)
        #expect(try ledger.account(Self.de).balance.minorUnits == -300)
    }

    @Test func `repairs what a killed run left behind`() throws {
        let ledger = try TestLedger()
        try ledger.importText(Self.header + Self.row("01", "-1.00"))
        let before = try ledger.snapshot()
        // A run that died after appending: a journal and both logs grown.
        try "statements-journal 4\n".write(
            toFile: ledger.state + "/pending", atomically: false, encoding: .utf8)
        for log in ["transactions", "identities"] {
            let handle = try #require(FileHandle(forWritingAtPath: ledger.state + "/" + log))
            handle.seekToEndOfFile()
            handle.write(Data("2026-10-09\t-99\tgarbage of sixteen".utf8))
            try handle.close()
        }
        let months = ledger.state + "/months.0"
        let handle = try #require(FileHandle(forWritingAtPath: months))
        handle.seekToEndOfFile()
        handle.write(Data("2026-11\t1\t16\tgarbage\n".utf8))
        try handle.close()
        // A new months log a dead commit was copying the live sections into.
        try "2026-10\t".write(
            toFile: ledger.state + "/months.7", atomically: false, encoding: .utf8)
        try "x".write(toFile: ledger.state + "/manifest.tmp", atomically: false, encoding: .utf8)
        // Readers see only committed bytes.
        #expect(try ledger.account(Self.de).transactionCount == 1)
        try StorageController(folder: ledger.state).lockForWriting()
        #expect(try ledger.snapshot() == before)
    }

    @Test func `copies the live sections into a new months log when most of it is superseded`()
        throws
    {
        let ledger = try TestLedger()
        func months() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: ledger.state)
                .filter { $0.hasPrefix("months.") }
        }
        var sizes: [Int] = []
        for day in 1...6 {
            let storage = StorageController(folder: ledger.state)
            storage.monthsLogSlack = 0
            let text =
                Self.header + Self.row(String(format: "%02d", day), "-1.00")
                + "2026-11-0\(day),BE68539007547034,\(day),K,,\n"
            let report = try ledger.controller(storage).importFiles(
                at: [try ledger.files.write("day\(day).csv", text)])
            #expect(report.newCount == 2)
            let names = try months()
            #expect(names.count == 1, "\(names)")
            let manifest = try StorageController(folder: ledger.state).loadManifest()
            #expect(manifest.monthsLog.name == names.first)
            // Each run supersedes both accounts' sections; a log more than twice its live
            // sections is copied, so it never grows past that.
            // Live: the sections and the pages of account records.
            let live =
                manifest.accounts.values.reduce(0) { $0 + $1.section!.bytes }
                + manifest.pages.reduce(0) { $0 + ($1?.bytes ?? 0) }
            #expect(manifest.liveBytes == live)
            #expect(manifest.monthsLog.bytes <= 2 * live)
            sizes.append(manifest.monthsLog.bytes)
        }
        #expect(try months() != ["months.0"])
        #expect(sizes.count == 6)
        #expect(try ledger.account(Self.de).transactionCount == 6)
        #expect(try ledger.account("BE68539007547034").balance.minorUnits == 2100)
        #expect(try StorageController(folder: ledger.state).check().problems.isEmpty)
    }

    @Test func `reads the manifest again once another run committed`() throws {
        let ledger = try TestLedger()
        try ledger.importText(Self.header + Self.row("01", "-1.00"))
        let reader = StorageController(folder: ledger.state)
        let first = try reader.loadManifest()
        #expect(try reader.loadManifest() == first)
        try ledger.importText(Self.header + Self.row("02", "-2.00"), name: "two.csv")
        let second = try reader.loadManifest()
        #expect(second.generation == first.generation + 1)
        #expect(second.logs.dataBytes > first.logs.dataBytes)
    }

    @Test func `reads the manifest again when a commit replaced the months log meanwhile`()
        throws
    {
        let ledger = try TestLedger()
        try ledger.importText(Self.header + Self.row("01", "-1.00"))
        try ledger.importText(Self.header + Self.row("02", "-2.00"), name: "two.csv")
        let reader = StorageController(folder: ledger.state)
        var commits = 0
        reader.beforeReadingMonths = {
            guard commits == 0 else { return }
            commits += 1
            // Another run commits, copying the live sections into a new months log and
            // removing the one the reader's manifest names.
            let writer = StorageController(folder: ledger.state)
            writer.monthsLogSlack = 0
            _ = try? ledger.controller(writer).importFiles(
                at: [try! ledger.files.write("three.csv", Self.header + Self.row("03", "-3.00"))])
        }
        let manifest = try reader.loadManifest()
        #expect(commits == 1)
        #expect(manifest.monthsLog.name != "months.0")
        #expect(!FileManager.default.fileExists(atPath: ledger.state + "/months.0"))
        #expect(manifest.accounts[AccountID(try IBAN(parsing: Self.de))]!.months.count == 1)
        #expect(try ledger.account(Self.de).transactionCount == 3)
    }

    @Test func `repairs what a killed run of the previous format left behind`() throws {
        // Format 3's journal named month files; the next writer, of format 4, cuts them back
        // before it upgrades the ledger.
        let ledger = try TestLedger()
        try LedgerUpgradeTests.writeFormat3Ledger(at: ledger.state)
        let folder = ledger.state + "/accounts/\(Self.de)"
        let committed = try Data(contentsOf: URL(fileURLWithPath: folder + "/2026-10.tsv"))
        try "\(Self.de)\t2026-10\n\(Self.de)\t2026-12\n".write(
            toFile: ledger.state + "/pending", atomically: false, encoding: .utf8)
        let handle = try #require(FileHandle(forWritingAtPath: folder + "/2026-10.tsv"))
        handle.seekToEndOfFile()
        handle.write(Data("2026-10-09\t-99".utf8))
        try handle.close()
        try "garbage".write(toFile: folder + "/2026-12.tsv", atomically: false, encoding: .utf8)
        try StorageController(folder: ledger.state).lockForWriting()
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/2026-10.tsv")) == committed)
        #expect(!FileManager.default.fileExists(atPath: folder + "/2026-12.tsv"))
        #expect(!FileManager.default.fileExists(atPath: ledger.state + "/pending"))
    }

    @Test func `refuses a ledger of a newer format`() throws {
        let ledger = try TestLedger()
        try FileManager.default.createDirectory(
            atPath: ledger.state, withIntermediateDirectories: true)
        try "statements-ledger 8\n".write(
            toFile: ledger.state + "/manifest", atomically: false, encoding: .utf8)
        #expect(
            throws: StorageError.unreadable(
                folder: ledger.state,
                reason: LedgerManifest.DecodingError.newerVersion(8).description)
        ) {
            try ledger.accounts()
        }
    }

    @Test func `refuses a state path that is a regular file`() throws {
        let ledger = try TestLedger()
        try "not a folder".write(toFile: ledger.state, atomically: false, encoding: .utf8)
        #expect(throws: StorageError.self) {
            try ledger.importText(Self.header + Self.row("01", "-1.00"))
        }
        #expect(throws: StorageError.self) { try ledger.accounts() }
    }
}
