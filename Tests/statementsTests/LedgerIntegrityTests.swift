import Foundation
import Testing

/// End to end: a ledger notices damage and survives misuse (each case once broke `main`).
struct LedgerIntegrityTests {
    static let account = "DE89370400440532013000"

    /// Where the rows of the account in October 2026 lie in the transaction log: the first
    /// extent of its month record, in the account's section of the months log.
    static func extent(_ state: String) throws -> Range<Int> {
        let (log, section) = try section(state)
        let months = try Data(contentsOf: URL(fileURLWithPath: "\(state)/\(log)"))
        let month = try #require(
            String(decoding: months[section[0]..<section[0] + section[1]], as: UTF8.self)
                .split(separator: "\n").first { $0.hasPrefix("2026-10\t") })
        let numbers = try #require(month.split(separator: "\t").last).split(separator: ",")[0]
            .split(separator: ":").compactMap { Int($0) }
        return numbers[0]..<numbers[0] + numbers[1]
    }

    /// The months log, and the offset and length of the account's section in it: from the
    /// account's record, in its page of the months log (the last written).
    static func section(_ state: String) throws -> (log: String, section: [Int]) {
        let manifest = try String(contentsOfFile: state + "/manifest", encoding: .utf8)
        let log = try #require(
            manifest.split(separator: "\n").first { $0.hasPrefix("months\t") }
        ).split(separator: "\t")[1]
        let months = try String(contentsOfFile: "\(state)/\(log)", encoding: .utf8)
        let record = try #require(
            months.split(separator: "\n").last { $0.hasPrefix("account\t\(Self.account)\t") })
        let fields = record.split(separator: "\t", omittingEmptySubsequences: false)
        return (String(log), fields[fields.count - 2].split(separator: ":").compactMap { Int($0) })
    }

    /// A ledger with the sample data, and the bytes of its files.
    static func ledger() throws -> (Workspace, [String: Data]) {
        let workspace = try Workspace()
        let output = try StatementsRunner.run([
            "import", "SampleData/good", "--state", workspace.state,
        ])
        #expect(output.status == 0)
        return (workspace, try snapshot(workspace.state))
    }

    static func snapshot(_ state: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: state)
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: state + "/" + name, isDirectory: &isFolder)
            if exists && !isFolder.boolValue && name != "lock" {
                files[name] = FileManager.default.contents(atPath: state + "/" + name)
            }
        }
        return files
    }

    /// Damages the ledger, then expects every command to refuse it with exit 3 naming the
    /// file, `import` to leave it as it is, and `check` to name the problem.
    static func expectRefused(
        _ damage: (String) throws -> Void, naming file: String,
        readers: [[String]] = [["accounts"], ["report", "--out", "OUT"]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (workspace, _) = try ledger()
        try damage(workspace.state)
        let damaged = try snapshot(workspace.state)
        let extra = try workspace.write(
            "new.csv",
            "date,account_iban,amount,beneficiary\n2026-10-30,DE89370400440532013000,-1.00,X\n")
        for arguments in readers + [["import", extra], ["check"]] {
            let output = try StatementsRunner.run(
                arguments.map { $0 == "OUT" ? workspace.path + "/out" : $0 }
                    + ["--state", workspace.state])
            #expect(output.status == 3, "\(arguments)", sourceLocation: sourceLocation)
            #expect(
                output.stderr.contains("damaged") && output.stderr.contains(file),
                "\(arguments): \(output.stderr)", sourceLocation: sourceLocation)
        }
        #expect(try snapshot(workspace.state) == damaged, sourceLocation: sourceLocation)
    }

    @Test func `refuses a ledger whose manifest is gone or cut short`() throws {
        try Self.expectRefused(
            { try FileManager.default.removeItem(atPath: $0 + "/manifest") },
            naming: "manifest")
        try Self.expectRefused(
            { state in
                let text = try String(contentsOfFile: state + "/manifest", encoding: .utf8)
                try String(text.dropLast(30)).write(
                    toFile: state + "/manifest", atomically: false, encoding: .utf8)
            }, naming: "manifest")
    }

    @Test func `refuses logs cut short, deleted, zeroed or changed by hand`() throws {
        try Self.expectRefused(
            { state in
                let handle = try FileHandle(
                    forWritingTo: URL(fileURLWithPath: state + "/transactions"))
                try handle.truncate(atOffset: UInt64(try Self.extent(state).lowerBound + 27))
                try handle.close()
            }, naming: "transactions is shorter than its committed length")
        try Self.expectRefused(
            { try FileManager.default.removeItem(atPath: $0 + "/transactions") },
            naming: "transactions is missing")
        // Only writers read the identity index.
        try Self.expectRefused(
            { state in
                let path = state + "/identities"
                let size = try Data(contentsOf: URL(fileURLWithPath: path)).count
                try Data(repeating: 0, count: size).write(to: URL(fileURLWithPath: path))
            }, naming: "identities (the rows of \(Self.account) in 2026-10)", readers: [])
        try Self.expectRefused(
            { state in
                let path = state + "/transactions"
                var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                let digit = try #require(
                    bytes[try Self.extent(state)].firstIndex(of: UInt8(ascii: "5")))
                bytes[digit] = UInt8(ascii: "6")
                try bytes.write(to: URL(fileURLWithPath: path))
            },
            naming:
                "transactions (the rows of \(Self.account) in 2026-10) does not match its checksum",
            // `accounts` reads the month records' summaries, not the rows.
            readers: [["report", "--out", "OUT"]])
        // The account's month records, in its section of the months log.
        try Self.expectRefused(
            { state in
                let path = state + "/months.0"
                var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                let offset = try Self.section(state).section[0]
                bytes[offset + 8] = bytes[offset + 8] == UInt8(ascii: "1") ? 50 : 49
                try bytes.write(to: URL(fileURLWithPath: path))
            }, naming: "months.0 (the months of \(Self.account)) does not match its checksum")
    }

    @Test func `takes a first import stopped before its commit for no ledger, not a damaged one`()
        throws
    {
        // What a first import killed after appending leaves: a journal and logs, no manifest.
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.state, withIntermediateDirectories: true)
        try "2026-10-01\t-100\tKiosk\t\t\t\t\n".write(
            toFile: workspace.state + "/transactions", atomically: false, encoding: .utf8)
        try "statements-journal 4\n".write(
            toFile: workspace.state + "/pending", atomically: false, encoding: .utf8)
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.status == 0, "\(accounts.stderr)")
        let output = try StatementsRunner.run([
            "import", "SampleData/good", "--state", workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("added 25 new transactions"))
        let check = try StatementsRunner.run(["check", "--state", workspace.state])
        #expect(check.status == 0)
        #expect(!FileManager.default.fileExists(atPath: workspace.state + "/pending"))
        // Without the journal, the same logs without a manifest are a lost manifest.
        try FileManager.default.removeItem(atPath: workspace.state + "/manifest")
        let lost = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(lost.status == 3)
        #expect(lost.stderr.contains("manifest is missing while the ledger holds transactions"))
    }

    @Test func `checks a sound ledger`() throws {
        let (workspace, _) = try Self.ledger()
        let output = try StatementsRunner.run(["check", "--state", workspace.state])
        #expect(output.status == 0)
        #expect(output.stdout.contains("is sound (6 account-months checked)"))
    }

    @Test func `keeps the lock when its file is deleted, and never follows a linked lock`()
        throws
    {
        let (workspace, before) = try Self.ledger()
        // A writer holds the folder; its lock file is deleted under it.
        let folder = open(workspace.state, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(flock(folder, LOCK_EX | LOCK_NB) == 0)
        try FileManager.default.removeItem(atPath: workspace.state + "/lock")
        let second = try StatementsRunner.run([
            "import", "SampleData/profiles", "--state", workspace.state,
        ])
        #expect(second.status == 3)
        #expect(second.stderr.contains("is in use by process"))
        flock(folder, LOCK_UN)
        // A lock file linked to another file: the other file is never written.
        let victim = try workspace.write("victim.txt", "keep me\n")
        try FileManager.default.createSymbolicLink(
            atPath: workspace.state + "/lock", withDestinationPath: victim)
        let linked = try StatementsRunner.run([
            "import", "SampleData/profiles", "--state", workspace.state,
        ])
        #expect(linked.status == 3)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        #expect(try Self.snapshot(workspace.state) == before)
    }

    @Test func `never reads or writes a log through a symbolic link`() throws {
        let (workspace, _) = try Self.ledger()
        let log = workspace.state + "/transactions"
        let elsewhere = try workspace.write(
            "elsewhere.tsv", try String(contentsOfFile: log, encoding: .utf8))
        try FileManager.default.removeItem(atPath: log)
        try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: elsewhere)
        let before = try String(contentsOfFile: elsewhere, encoding: .utf8)
        let extra = try workspace.write(
            "new.csv",
            "date,account_iban,amount,beneficiary\n2026-10-30,DE89370400440532013000,-1.00,X\n")
        for arguments in [["accounts"], ["import", extra], ["check"]] {
            let output = try StatementsRunner.run(arguments + ["--state", workspace.state])
            #expect(output.status == 3, "\(arguments)")
            #expect(output.stderr.contains(log), "\(arguments): \(output.stderr)")
        }
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == before)
    }

    @Test func `rejects an amount that would take a balance out of range, at import`() throws {
        let workspace = try Workspace()
        let header = "date,account_iban,amount,beneficiary\n"
        let first = try workspace.write(
            "a.csv", header + "2026-10-01,DE89370400440532013000,92233720368547758.07,Big\n")
        let second = try workspace.write(
            "b.csv", header + "2026-10-02,DE89370400440532013000,1.00,Small\n")
        #expect(
            try StatementsRunner.run(["import", first, "--state", workspace.state]).status == 0)
        let output = try StatementsRunner.run([
            "process", second, "--state", workspace.state, "--out", workspace.path + "/out",
        ])
        #expect(output.status == 1)
        #expect(output.stderr.contains("\(second):2:1: error: [AMOUNT_OVERFLOW]"))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.status == 0)
        #expect(accounts.stdout.contains("92,233,720,368,547,758.07"))
    }

    @Test func `reads only regular files as profiles and statements`() throws {
        let start = Date()
        let validate = try StatementsRunner.run([
            "validate", "--profile", "/dev/zero", "SampleData/good",
        ])
        #expect(validate.status == 2)
        #expect(validate.stderr.contains("not a regular file"))
        let profile = try StatementsRunner.run(["profile", "/dev/zero"])
        #expect(profile.status == 3)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func `escapes file names in GitHub annotations`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "bad\u{1B}[31m\u{202E}.csv", "date,account_iban,amount,beneficiary\n2026-13-01,X,1,Y\n")
        let output = try StatementsRunner.run(["validate", "--format", "github", file])
        #expect(output.status == 1)
        #expect(!output.stdout.contains("\u{1B}"))
        #expect(!output.stdout.contains("\u{202E}"))
        #expect(output.stdout.contains("bad\\u{1B}[31m\\u{202E}.csv"))
    }
}
