import Foundation
import Testing

/// A folder's bad `statements-profile.json` rejects that folder's files, at the profile's
/// line and column; the other folders are read, and the run exits 1, not 2.
struct FolderProfileTests {
    /// An inbox of two folders: `a/` with a canonical file, `b/` with a file and `profile`.
    static func inbox(_ workspace: Workspace, profile: String) throws -> String {
        let inbox = workspace.path + "/inbox"
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(
                atPath: inbox + "/" + folder, withIntermediateDirectories: true)
        }
        _ = try workspace.write(
            "inbox/a/oct.csv",
            "date,account_iban,amount,beneficiary\n2026-10-03,DE89370400440532013000,-12.34,Shop\n"
        )
        _ = try workspace.write(
            "inbox/b/oct.csv",
            "Datum;Betrag;Empfänger\n04.10.2026;-5,00;Kiosk\n")
        _ = try workspace.write("inbox/b/statements-profile.json", profile)
        return inbox
    }

    static let goodProfile = """
        {
          "separator": ";",
          "decimalMark": ",",
          "dateFormat": "dd.MM.yyyy",
          "columns": {"date": "Datum", "amount": "Betrag", "beneficiary": "Empfänger"},
          "account": {"iban": "DE02120300000000202051"}
        }
        """

    @Test(arguments: [
        (
            goodProfile.replacingOccurrences(of: #""account""#, with: #""acount""#),
            "6:3", #"acount: unknown key; did you mean "account"?"#
        ),
        (
            goodProfile.replacingOccurrences(
                of: #""decimalMark": ",""#, with: #""decimalMark": ";""#),
            "3:18", "decimalMark: must be one of"
        ),
        (
            goodProfile.replacingOccurrences(of: #""separator": ";","#, with: #""separator": ";""#),
            "3:3", "expected ','"
        ),
        (
            goodProfile.replacingOccurrences(of: "\"iban\": \"DE02", with: "\"iban\": \"DE03"),
            "6:23", #"account.iban "DE03"#
        ),
    ])
    func `a bad folder profile rejects its folder only, at its line and column`(
        profile: String, place: String, problem: String
    ) throws {
        for command in ["validate", "import", "process"] {
            let workspace = try Workspace()
            let inbox = try Self.inbox(workspace, profile: profile)
            let arguments =
                command == "validate"
                ? [command, inbox]
                : [command, inbox, "--state", workspace.state, "--out", workspace.path + "/out"]
            let output = try StatementsRunner.run(
                command == "import" ? arguments.dropLast(2) : arguments)
            #expect(output.status == 1, "\(command): \(output.stderr)")
            let diagnostic =
                "\(inbox)/b/statements-profile.json:\(place): error: [PROFILE_INVALID] "
                + "cannot read '\(inbox)/b/oct.csv' with this folder profile: \(problem)"
            #expect(output.stderr.contains(diagnostic), "\(output.stderr)")
            #expect(!output.stderr.contains("USAGE"))
            if command == "validate" {
                #expect(output.stdout.hasPrefix("1 error in 1 of 2 files (1 row checked)\n"))
                continue
            }
            #expect(output.stdout.contains("rejected  \(inbox)/b/oct.csv: 1 error"))
            #expect(
                output.stdout.contains(
                    "added 1 new transaction from 1 file, 0 already present, 1 file rejected"),
                "\(output.stdout)")
            let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
            #expect(accounts.stdout.contains("DE89"))
            #expect(!accounts.stdout.contains("DE02"))
            if command == "process" {
                #expect(
                    FileManager.default.fileExists(
                        atPath: workspace.path + "/out/2026-10/DE89370400440532013000.txt"))
            }
        }
    }

    @Test func `a fixed folder profile lets its files in on the next run`() throws {
        let workspace = try Workspace()
        let bad = Self.goodProfile.replacingOccurrences(of: #""account""#, with: #""acount""#)
        let inbox = try Self.inbox(workspace, profile: bad)
        let first = try StatementsRunner.run(["import", inbox, "--state", workspace.state])
        #expect(first.status == 1)
        _ = try workspace.write("inbox/b/statements-profile.json", Self.goodProfile)
        let second = try StatementsRunner.run(["import", inbox, "--state", workspace.state])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            second.stdout
                == "added 1 new transaction from 2 files, 1 already present\n")
    }

    @Test func `a bad profile named with --profile is still a usage error`() throws {
        let workspace = try Workspace()
        let bad = Self.goodProfile.replacingOccurrences(of: #""account""#, with: #""acount""#)
        let inbox = try Self.inbox(workspace, profile: Self.goodProfile)
        let profile = try workspace.write("bad.json", bad)
        let output = try StatementsRunner.run(["validate", "--profile", profile, inbox])
        #expect(output.status == 2)
        #expect(
            output.stderr.contains(
                #"line 6, column 3: acount: unknown key; did you mean "account"?"#),
            "\(output.stderr)")
    }
}
