import Foundation
import Testing

/// End to end: nothing lost at the edges of a run (issue #32): the archive never unlinks the
/// last copy, an emptied inbox is an ordinary night, damage is found before a commit, and
/// output that cannot be written is an error.
struct EdgeCommandTests {
    static let household =
        StatementsRunner.packageRoot.path
        + "/SampleData/good/2026-10-household.csv"
    static let savings = StatementsRunner.packageRoot.path + "/SampleData/good/2026-10-savings.json"

    /// A workspace with `inbox/` holding the household sample.
    private static func inbox() throws -> (Workspace, inbox: String) {
        let workspace = try Workspace()
        let inbox = workspace.path + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: household, toPath: inbox + "/a.csv")
        return (workspace, inbox)
    }

    @Test func `refuses an archive that is the inbox, inside it or linked to it, moving nothing`()
        throws
    {
        let (workspace, inbox) = try Self.inbox()
        try FileManager.default.createSymbolicLink(
            atPath: workspace.path + "/link", withDestinationPath: inbox)
        for archive in [inbox, inbox + "/.", inbox + "/done", workspace.path + "/link"] {
            let output = try StatementsRunner.run([
                "process", inbox, "-s", workspace.state, "-o", workspace.path + "/r",
                "--archive", archive,
            ])
            #expect(output.status == 2)
            #expect(output.stderr.contains("the input folder \(inbox)"))
            #expect(FileManager.default.fileExists(atPath: inbox + "/a.csv"))
            #expect(!FileManager.default.fileExists(atPath: workspace.state))
        }
    }

    @Test func `refuses an archive the inbox reaches into through a link, and an empty one`()
        throws
    {
        let (workspace, inbox) = try Self.inbox()
        let done = workspace.path + "/done"
        try FileManager.default.createDirectory(atPath: done, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: inbox + "/old", withDestinationPath: "../done")
        _ = try workspace.write("done/z.csv", "date,account_iban,amount,beneficiary\n")
        for archive in [done, ""] {
            let output = try StatementsRunner.run([
                "process", inbox, "-s", workspace.state, "-o", workspace.path + "/r", "--archive",
                archive,
            ])
            #expect(output.status == 2)
            #expect(FileManager.default.fileExists(atPath: inbox + "/a.csv"))
        }
    }

    @Test func `reads and archives a file named twice once, exit 0`() throws {
        let (workspace, inbox) = try Self.inbox()
        let output = try StatementsRunner.run([
            "process", inbox + "/a.csv", inbox, inbox + "/a.csv", "-s", workspace.state, "-o",
            workspace.path + "/r", "--archive", workspace.path + "/done",
        ])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("added 11 new transactions from 1 file, 0 already present"))
        #expect(FileManager.default.fileExists(atPath: workspace.path + "/done/a.csv"))
    }

    @Test func `takes a folder without a ledger's files for no ledger`() throws {
        let workspace = try Workspace()
        _ = try workspace.write("notes.txt", "not a ledger\n")
        for command in ["check", "accounts"] {
            let output = try StatementsRunner.run([command, "-s", workspace.path])
            #expect(output.status == 3)
            #expect(output.stderr.contains("no ledger at '\(workspace.path)'"))
        }
    }

    @Test func `refuses --archive with --shard, as the other parts still need the files`() throws {
        let (workspace, inbox) = try Self.inbox()
        let output = try StatementsRunner.run([
            "process", inbox, "-s", workspace.state, "-o", workspace.path + "/r", "--shard", "1/2",
            "--archive", workspace.path + "/done",
        ])
        #expect(output.status == 2)
        #expect(output.stderr.contains("--archive cannot be given with --shard"))
        #expect(FileManager.default.fileExists(atPath: inbox + "/a.csv"))
    }

    @Test func `keeps the only copy when the archive's entry is a link back into the inbox`()
        throws
    {
        let (workspace, inbox) = try Self.inbox()
        let done = workspace.path + "/done"
        try FileManager.default.createDirectory(atPath: done, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: done + "/a.csv", withDestinationPath: "../inbox/a.csv")
        let output = try StatementsRunner.run([
            "process", inbox, "-s", workspace.state, "-o", workspace.path + "/r", "--archive", done,
        ])
        #expect(output.status == 0)
        // The link is not a copy: the file goes beside it, as a regular file.
        let copy = try String(contentsOfFile: done + "/a-2.csv", encoding: .utf8)
        #expect(try copy == String(contentsOfFile: Self.household, encoding: .utf8))
        #expect(!FileManager.default.fileExists(atPath: inbox + "/a.csv"))
    }

    @Test func `archives what an inbox link points to as a file, leaving its target alone`() throws
    {
        let workspace = try Workspace()
        let inbox = workspace.path + "/inbox"
        let done = workspace.path + "/done"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: inbox + "/s.json", withDestinationPath: Self.savings)
        let output = try StatementsRunner.run([
            "process", inbox, "-s", workspace.state, "-o", workspace.path + "/r", "--archive", done,
        ])
        #expect(output.status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: done + "/s.json")
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(
            try String(contentsOfFile: done + "/s.json", encoding: .utf8)
                == String(contentsOfFile: Self.savings, encoding: .utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox).isEmpty)
        #expect(FileManager.default.fileExists(atPath: Self.savings))
    }

    @Test func `runs on the inbox an archive emptied, night after night`() throws {
        let (workspace, inbox) = try Self.inbox()
        let run = [
            "process", inbox, "-s", workspace.state, "-o", workspace.path + "/r", "--archive",
            workspace.path + "/done",
        ]
        #expect(try StatementsRunner.run(run).status == 0)
        for arguments in [run, ["import", inbox, "-s", workspace.state], run] {
            let output = try StatementsRunner.run(arguments)
            #expect(output.status == 0)
            #expect(output.stdout.hasPrefix("no statement files found\n"))
            #expect(output.stderr.isEmpty)
        }
        let check = try StatementsRunner.run(["check", "-s", workspace.state])
        #expect(check.status == 0)
    }

    @Test func `leaves the inbox and the ledger alone when the months to report are damaged`()
        throws
    {
        let (workspace, inbox) = try Self.inbox()
        let reports = workspace.path + "/r"
        let first = try StatementsRunner.run([
            "process", inbox, "-s", workspace.state, "-o", reports,
        ])
        #expect(first.status == 0)
        // One byte of the household account's October changes on disk.
        let log = workspace.state + "/transactions"
        var bytes = try String(contentsOfFile: log, encoding: .utf8)
        bytes = bytes.replacingOccurrences(of: "Capgemini", with: "Capgemjni")
        try bytes.write(toFile: log, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: inbox + "/a.csv")
        try FileManager.default.copyItem(atPath: Self.savings, toPath: inbox + "/s.json")
        // A new output folder: every month would be reported, the damaged one too.
        let done = workspace.path + "/done"
        let process = try StatementsRunner.run([
            "process", inbox, "-s", workspace.state, "-o", workspace.path + "/new", "--archive",
            done,
        ])
        #expect(process.status == 3)
        #expect(process.stderr.contains("does not match its checksum"))
        #expect(FileManager.default.fileExists(atPath: inbox + "/s.json"))
        #expect(!FileManager.default.fileExists(atPath: done))
        // A file adding to the damaged month is refused before anything is committed.
        let late = try workspace.write(
            "late.csv",
            "date,account_iban,amount,beneficiary\n2026-10-31,DE89370400440532013000,-1.00,Late\n")
        let before = try String(contentsOfFile: workspace.state + "/manifest", encoding: .utf8)
        let importing = try StatementsRunner.run(["import", late, "-s", workspace.state])
        #expect(importing.status == 3)
        #expect(importing.stderr.contains("does not match its checksum"))
        #expect(
            try String(contentsOfFile: workspace.state + "/manifest", encoding: .utf8) == before)
    }

    @Test func `says there is no ledger to check at a missing state folder`() throws {
        let output = try StatementsRunner.run(["check", "-s", "/no/such/folder"])
        #expect(output.status == 3)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("no ledger at '/no/such/folder'"))
    }

    @Test func `fails a check of a folder without statement files, unless it may be empty`() throws
    {
        let workspace = try Workspace()
        let output = try StatementsRunner.run(["validate", workspace.path])
        #expect(output.status == 1)
        #expect(output.stdout == "no statement files found\n")
        #expect(
            output.stderr
                == "statements validate: error: no statement files found in \(workspace.path) (--allow-empty accepts that)\n"
        )
        let allowed = try StatementsRunner.run(["validate", "--allow-empty", workspace.path])
        #expect(allowed.status == 0)
        #expect(allowed.stderr.isEmpty)
    }

    @Test(arguments: [["register"], ["accounts"], ["accounts", "-f", "json"]])
    func `fails with exit 3 when standard output cannot be written`(command: [String]) throws {
        let workspace = try Workspace()
        #expect(
            try StatementsRunner.run(["import", Self.household, "-s", workspace.state]).status == 0)
        let full = try Self.run(command + ["-s", workspace.state], output: "/dev/full")
        #expect(full.status == 3)
        #expect(full.stderr.contains("cannot write standard output: No space left on device"))
    }

    @Test func `ends quietly when the reader closes the pipe`() throws {
        let workspace = try Workspace()
        #expect(
            try StatementsRunner.run(["import", Self.household, "-s", workspace.state]).status == 0)
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let closed = try Self.run(["register", "-s", workspace.state], output: pipe)
        #expect(closed.status == 0)
        #expect(closed.stderr.isEmpty)
    }

    @Test func `escapes C1 controls, bidi controls and separators in JSON`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "bidi.csv",
            "date,account_iban,amount,beneficiary,description\n"
                + "2026-10-01,DE89370400440532013000,-1.00,Evil\u{202E}Corp\u{9B}\u{85},x\u{2066}y\u{2028}\n"
        )
        #expect(try StatementsRunner.run(["import", file, "-s", workspace.state]).status == 0)
        let output = try StatementsRunner.run(["register", "-s", workspace.state, "-f", "json"])
        #expect(output.stdout.contains(#""beneficiary": "Evil\u202eCorp\u009b\u0085""#))
        #expect(output.stdout.contains(#""description": "x\u2066y\u2028""#))
        let parsed =
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]]
        #expect(parsed?.first?["beneficiary"] as? String == "Evil\u{202E}Corp\u{9B}\u{85}")
    }

    @Test func `exits 3 when the archive fails beside a rejected file`() throws {
        let (workspace, inbox) = try Self.inbox()
        try FileManager.default.copyItem(
            atPath: StatementsRunner.packageRoot.path + "/SampleData/bad/date-invalid.csv",
            toPath: inbox + "/bad.csv")
        let blocker = try workspace.write("blocker", "a file, not a folder\n")
        let output = try StatementsRunner.run([
            "process", inbox, "-s", workspace.state, "-o", workspace.path + "/r", "--archive",
            blocker + "/done",
        ])
        #expect(output.status == 3)
        #expect(output.stderr.contains("create folder"))
        #expect(FileManager.default.fileExists(atPath: inbox + "/a.csv"))
    }

    @Test func `removes the month files a killed upgrade left behind`() throws {
        let workspace = try Workspace()
        #expect(
            try StatementsRunner.run(["import", Self.household, "-s", workspace.state]).status == 0)
        // What a format 1 upgrade killed after its commit leaves: the old per-month files.
        let old = workspace.state + "/accounts/DE89370400440532013000"
        try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
        _ = try workspace.write("ledger/accounts/DE89370400440532013000/2026-10.tsv", "old\n")
        _ = try workspace.write("ledger/accounts/DE89370400440532013000/2026-10.ids", "old\n")
        let output = try StatementsRunner.run(["import", Self.savings, "-s", workspace.state])
        #expect(output.status == 0)
        #expect(!FileManager.default.fileExists(atPath: workspace.state + "/accounts"))
        #expect(try StatementsRunner.run(["check", "-s", workspace.state]).status == 0)
    }

    /// Runs `statements` with standard output going to a file path or a pipe.
    private static func run(_ arguments: [String], output: Any) throws -> (
        status: Int32, stderr: String
    ) {
        let process = Process()
        process.executableURL = StatementsRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = StatementsRunner.packageRoot
        if let path = output as? String {
            process.standardOutput = FileHandle(forWritingAtPath: path)
        } else {
            process.standardOutput = output
        }
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }
}
