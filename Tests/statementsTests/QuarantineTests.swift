import Foundation
import Testing

/// A rejected file leaves the inbox with `process --reject DIR`, its diagnostics beside it;
/// without it, a later run that finds the same bytes says since when it is rejected.
struct QuarantineTests {
    static let good =
        "date,account_iban,amount,beneficiary\n2026-10-03,DE89370400440532013000,-12.34,Shop\n"
    static let bad =
        "date,account_iban,amount,beneficiary\n2026-10-04,DE89370400440532013000,-1.234,Kiosk\n"

    /// An inbox with a good file and a bad one in a subfolder.
    static func inbox(_ workspace: Workspace) throws -> String {
        try FileManager.default.createDirectory(
            atPath: workspace.path + "/inbox/bank", withIntermediateDirectories: true)
        _ = try workspace.write("inbox/good.csv", good)
        _ = try workspace.write("inbox/bank/bad.csv", bad)
        return workspace.path + "/inbox"
    }

    @Test func `moves a rejected file out of the inbox with its diagnostics`() throws {
        let workspace = try Workspace()
        let inbox = try Self.inbox(workspace)
        let (out, quarantine) = (workspace.path + "/out", workspace.path + "/rejected")
        let run = try StatementsRunner.run([
            "process", inbox, "--state", workspace.state, "--out", out, "--reject", quarantine,
        ])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("rejected  \(inbox)/bank/bad.csv: 1 error, nothing imported"))
        #expect(
            run.stdout.contains("moved 1 rejected file with its diagnostics to \(quarantine)/\n"),
            "\(run.stdout)")
        let manager = FileManager.default
        #expect(!manager.fileExists(atPath: inbox + "/bank/bad.csv"))
        #expect(manager.fileExists(atPath: inbox + "/good.csv"))
        #expect(
            try String(contentsOfFile: quarantine + "/bank/bad.csv", encoding: .utf8) == Self.bad)
        let diagnostics = try String(
            contentsOfFile: quarantine + "/bank/bad.csv.diagnostics.txt", encoding: .utf8)
        #expect(
            diagnostics == """
                statements: \(inbox)/bank/bad.csv was rejected and moved here; its diagnostics:
                \(inbox)/bank/bad.csv:2:35: error: [AMOUNT_PRECISION] amount "-1.234": EUR has 2 decimal places

                """)
        #expect(manager.fileExists(atPath: out + "/2026-10/DE89370400440532013000.txt"))
        // The next night finds the inbox clean.
        let next = try StatementsRunner.run([
            "process", inbox, "--state", workspace.state, "--out", out, "--reject", quarantine,
        ])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.isEmpty)
        // A second bad file of the same name goes beside the first, never over it.
        _ = try workspace.write("inbox/bank/bad.csv", Self.bad + "x\n")
        let again = try StatementsRunner.run([
            "process", inbox, "--state", workspace.state, "--out", out, "--reject", quarantine,
            "-f", "json",
        ])
        #expect(again.status == 1)
        #expect(again.stdout.contains(#""rejectedMoved": [{"from": "\#(inbox)/bank/bad.csv""#))
        #expect(manager.fileExists(atPath: quarantine + "/bank/bad-2.csv.diagnostics.txt"))
        #expect(
            try String(contentsOfFile: quarantine + "/bank/bad.csv", encoding: .utf8) == Self.bad)
    }

    @Test func `a dry run says what it would move and moves nothing`() throws {
        let workspace = try Workspace()
        let inbox = try Self.inbox(workspace)
        let quarantine = workspace.path + "/rejected"
        let run = try StatementsRunner.run([
            "process", inbox, "--state", workspace.state, "--out", workspace.path + "/out",
            "--reject", quarantine, "--dry-run",
        ])
        #expect(run.status == 1)
        #expect(run.stdout.contains("would move 1 rejected file with its diagnostics"))
        #expect(FileManager.default.fileExists(atPath: inbox + "/bank/bad.csv"))
        #expect(!FileManager.default.fileExists(atPath: quarantine))
    }

    @Test(arguments: [
        (["--reject", "INBOX/rejected"], "--reject INBOX/rejected is inside the input folder"),
        (["--reject", "INBOX"], "--reject INBOX is the input folder"),
        (
            ["--reject", "WS/done/rejected", "--archive", "WS/done"],
            "--reject WS/done/rejected and --archive WS/done overlap"
        ),
        (["--reject", "WS/rejected", "--shard", "1/2"], "--reject cannot be given with --shard"),
    ])
    func `refuses a quarantine folder that would keep files in the inbox`(
        options: [String], message: String
    ) throws {
        let workspace = try Workspace()
        let inbox = try Self.inbox(workspace)
        func expand(_ text: String) -> String {
            text.replacingOccurrences(of: "INBOX", with: inbox)
                .replacingOccurrences(of: "WS", with: workspace.path)
        }
        let run = try StatementsRunner.run(
            ["process", inbox, "--state", workspace.state, "--out", workspace.path + "/out"]
                + options.map(expand))
        #expect(run.status == 2)
        #expect(run.stderr.contains(expand(message)), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: inbox + "/bank/bad.csv"))
        #expect(!FileManager.default.fileExists(atPath: workspace.state))
    }

    @Test func `remembers a rejected file and says since when until it changes`() throws {
        let workspace = try Workspace()
        let inbox = try Self.inbox(workspace)
        let arguments = ["import", inbox, "--state", workspace.state]
        let first = try StatementsRunner.run(arguments)
        #expect(first.status == 1)
        #expect(!first.stderr.contains("still rejected"))
        let since = try #require(
            try String(contentsOfFile: workspace.state + "/rejected", encoding: .utf8)
                .split(separator: "\t").dropFirst(2).first)
        for _ in 0..<2 {
            let again = try StatementsRunner.run(arguments)
            #expect(again.status == 1)
            #expect(
                again.stderr
                    == "\(inbox)/bank/bad.csv:2:35: error: [AMOUNT_PRECISION] still rejected since \(since) (1 error, not read again until the file changes): amount \"-1.234\": EUR has 2 decimal places\n"
            )
            #expect(again.stdout.contains("rejected  \(inbox)/bank/bad.csv: 1 error"))
        }
        // Changed, it is read again; read under --strict, it is not the same rejection.
        _ = try workspace.write("inbox/bank/bad.csv", Self.bad + "2026-10-05,DE89,1,X\n")
        let changed = try StatementsRunner.run(arguments)
        #expect(changed.status == 1)
        #expect(!changed.stderr.contains("still rejected"))
        #expect(changed.stderr.contains("[IBAN_LENGTH]"))
        let strict = try StatementsRunner.run(arguments + ["--strict"])
        #expect(!strict.stderr.contains("still rejected"))
        // Mended, it is imported, and forgotten as rejected.
        _ = try workspace.write(
            "inbox/bank/bad.csv", Self.bad.replacingOccurrences(of: "-1.234", with: "-1.23"))
        let mended = try StatementsRunner.run(arguments)
        #expect(mended.status == 0, "\(mended.stderr)")
        #expect(mended.stdout.contains("added 1 new transaction from 2 files"))
        #expect(!FileManager.default.fileExists(atPath: workspace.state + "/rejected"))
    }
}
