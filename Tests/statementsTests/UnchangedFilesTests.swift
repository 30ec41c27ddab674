import Foundation
import Testing

/// End-to-end tests of the files the ledger records as imported whole: an unchanged file is
/// not read again, any change to it (or to how it is read) is, and nothing is ever skipped
/// that reading would have imported.
struct UnchangedFilesTests {
    static let header = "date,account_iban,amount,currency,beneficiary\n"

    static func rows(_ count: Int, from first: Int = 0) -> String {
        (first..<first + count).map {
            "2026-10-\(String(format: "%02d", $0 % 28 + 1)),DE89370400440532013000,-\($0).50,EUR,Shop \($0)\n"
        }.joined()
    }

    /// The ledger's `file` records: their paths' last components.
    static func recordedFiles(_ workspace: Workspace) throws -> [String] {
        let manifest = try String(contentsOfFile: workspace.state + "/manifest", encoding: .utf8)
        return manifest.split(separator: "\n").filter { $0.hasPrefix("file\t") }.map {
            String($0.split(separator: "\t").last!.split(separator: "/").last!)
        }
    }

    /// Sets a file's modification time, as `touch -d` does.
    static func setModified(_ path: String, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    @Test func `reports unchanged files as present without reading them again`() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path + "/inbox", withIntermediateDirectories: true)
        let a = try workspace.write("inbox/a.csv", Self.header + Self.rows(3))
        _ = try workspace.write("inbox/b.csv", Self.header + Self.rows(2, from: 10))
        let inbox = workspace.path + "/inbox"
        let first = try StatementsRunner.run(["import", inbox, "--state", workspace.state])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "added 5 new transactions from 2 files, 0 already present\n")
        #expect(try Self.recordedFiles(workspace) == ["a.csv", "b.csv"])

        let second = try StatementsRunner.run([
            "import", inbox, "--state", workspace.state, "-v", "--format", "json",
        ])
        #expect(second.status == 0)
        #expect(
            second.stdout.contains(
                "\"outcome\": \"present\", \"new\": 0, \"present\": 3, \"unchanged\": true"))
        #expect(
            second.stdout.contains(
                "\"outcome\": \"present\", \"new\": 0, \"present\": 2, \"unchanged\": true"))

        // Touched: the stamp moved, the bytes did not; still not read.
        try Self.setModified(a, Date(timeIntervalSinceNow: -3600))
        let touched = try StatementsRunner.run(["import", inbox, "--state", workspace.state, "-v"])
        #expect(
            touched.stdout.contains(
                "already present  \(a): 3 transactions (unchanged since imported, not read again)\n"
            ))
        #expect(
            touched.stdout.hasSuffix(
                "nothing new: the 5 transactions of 2 files are in the ledger already\n"))
    }

    @Test func `reads a changed file again, even with its old size and modification time`() throws {
        let workspace = try Workspace()
        let path = try workspace.write("a.csv", Self.header + Self.rows(3))
        let old = Date(timeIntervalSinceNow: -86_400)
        try Self.setModified(path, old)
        // A stamp younger than two seconds is not trusted (the file could change again within
        // the file system's clock tick): wait, so that this one is.
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try StatementsRunner.run(["import", path, "--state", workspace.state]).status == 0)
        #expect(
            try String(contentsOfFile: workspace.state + "/manifest", encoding: .utf8)
                .contains("file\t\((Self.header + Self.rows(3)).utf8.count)\t"))
        // Same length, other digits, the modification time set back: only the status-change
        // time and the bytes tell.
        let changed = (Self.header + Self.rows(3)).replacingOccurrences(of: "-2.50", with: "-7.50")
        try changed.write(toFile: path, atomically: false, encoding: .utf8)
        try Self.setModified(path, old)
        let again = try StatementsRunner.run(["import", path, "--state", workspace.state, "-v"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("imported  \(path): 1 new transaction, 2 already present\n"))
        // Grown by a row: read again, the new row imported.
        try (changed + Self.rows(1, from: 20)).write(
            toFile: path, atomically: false, encoding: .utf8)
        let grown = try StatementsRunner.run(["import", path, "--state", workspace.state, "-v"])
        #expect(grown.stdout.contains("imported  \(path): 1 new transaction, 3 already present\n"))
    }

    @Test func `reads a file again when its profile changed`() throws {
        let workspace = try Workspace()
        let folder = workspace.path + "/chase"
        try FileManager.default.copyItem(atPath: "SampleData/profiles/us-dollar", toPath: folder)
        let run = ["import", folder, "--state", workspace.state, "-v"]
        let first = try StatementsRunner.run(run)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try StatementsRunner.run(run).stdout.contains("not read again"))
        let profile = folder + "/statements-profile.json"
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        try text.replacingOccurrences(of: "Chase checking export", with: "Chase export")
            .write(toFile: profile, atomically: false, encoding: .utf8)
        let other = try StatementsRunner.run(run)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout.contains("already present  \(folder)/Activity.csv: "))
        #expect(!other.stdout.contains("not read again"))
    }

    @Test func `never records a file with warnings or errors, and forgets files gone`() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path + "/inbox", withIntermediateDirectories: true)
        let inbox = workspace.path + "/inbox"
        // An unknown column is a warning: the file is read again every time, and says so.
        let warned = try workspace.write(
            "inbox/warned.csv",
            "date,account_iban,amount,beneficiary,note\n"
                + "2026-10-03,DE89370400440532013000,-1.00,Shop,x\n")
        let bad = try workspace.write(
            "inbox/bad.csv", Self.header + "2026-10-03,DE89370400440532013000,-1.001,EUR,Shop\n")
        let good = try workspace.write("inbox/good.csv", Self.header + Self.rows(2))
        let first = try StatementsRunner.run(["import", inbox, "--state", workspace.state])
        #expect(first.status == 1)
        #expect(try Self.recordedFiles(workspace) == ["good.csv"])
        let second = try StatementsRunner.run(["import", inbox, "--state", workspace.state, "-v"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("COLUMN_UNKNOWN"))
        #expect(second.stderr.contains("AMOUNT_PRECISION"))
        #expect(second.stdout.contains("already present  \(warned): 1 transaction\n"))
        #expect(second.stdout.contains("rejected  \(bad)"))
        // Moved out of the folder: its record goes with the next run over the folder, while
        // an import of another path keeps it.
        try FileManager.default.moveItem(atPath: good, toPath: workspace.path + "/good.csv")
        _ = try StatementsRunner.run(["import", warned, "--state", workspace.state])
        #expect(try Self.recordedFiles(workspace) == ["good.csv"])
        _ = try StatementsRunner.run(["import", inbox, "--state", workspace.state])
        #expect(try Self.recordedFiles(workspace) == [])
    }

    @Test func `records what it learns without a new generation, so no report is rewritten`() throws
    {
        let workspace = try Workspace()
        let path = try workspace.write("a.csv", Self.header + Self.rows(3))
        let run = ["process", path, "--state", workspace.state, "--out", workspace.path + "/r"]
        #expect(try StatementsRunner.run(run).status == 0)
        let manifest = {
            try String(contentsOfFile: workspace.state + "/manifest", encoding: .utf8)
        }
        // Written just now: its stamp is not trusted yet, and kept as one no file has.
        let young = try manifest()
        #expect(young.contains("file\t-1\t"))
        Thread.sleep(forTimeInterval: 2.1)
        let again = try StatementsRunner.run(run)
        #expect(again.stdout.hasSuffix("no report files to write\n"))
        // Recognised by its bytes, its stamp now settled and recorded; the generation stayed.
        let settled = try manifest()
        #expect(!settled.contains("file\t-1\t"))
        #expect(settled.contains("file\t\((Self.header + Self.rows(3)).utf8.count)\t"))
        #expect(settled.contains("generation\t1\n"))
        // From now on a stat is all it costs: nothing to commit.
        #expect(try StatementsRunner.run(run).stdout.hasSuffix("no report files to write\n"))
        #expect(try manifest() == settled)
    }
}
