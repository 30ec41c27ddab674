import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A month of nights of `process` from cron over a shared inbox, as an operator runs it:
/// files late and out of order, an overlapping export, a bad file, a bad folder profile, an
/// overlapping run, and a test file imported by mistake and taken back. Every night's exit
/// status and summary are what the operator expects, and after night 31 the ledger and the
/// reports equal one clean run over the good files.
struct NightlySimulationTests {
    static let bankA = "DE89370400440532013000"
    static let bankB = "DE02120300000000202051"
    static let profile = """
        {"separator": ";", "decimalMark": ",", "dateFormat": "dd.MM.yyyy",
         "columns": {"date": "Datum", "amount": "Betrag", "beneficiary": "Empfänger"},
         "account": {"iban": "\(bankB)"}}
        """

    /// Bank A's export of some days (canonical CSV), `bad` with an amount of three decimals.
    static func exportA(days: [Int], bad: Bool = false) -> String {
        "date,account_iban,amount,beneficiary\n"
            + days.map { day in
                let cents = bad && day == days.last ? "123" : "00"
                return
                    "2026-10-\(String(day + 100).dropFirst()),\(bankA),-\(day).\(cents),Shop \(day)\n"
                    + "2026-10-\(String(day + 100).dropFirst()),\(bankA),\(day * 10).00,Refund \(day)\n"
            }.joined()
    }

    /// Bank B's export of one day (its own dialect, read by the folder profile).
    static func exportB(day: Int) -> String {
        "Datum;Betrag;Empfänger\n\(String(day + 100).dropFirst()).10.2026;-\(day),50;Kiosk \(day)\n"
    }

    final class Inbox {
        let workspace: Workspace
        var inbox: String { workspace.path + "/inbox" }
        /// Every good file delivered, for the clean run at the end.
        var good: [String: String] = [:]

        init() throws {
            workspace = try Workspace()
            for folder in ["inbox/a", "inbox/b", "clean/a", "clean/b"] {
                try FileManager.default.createDirectory(
                    atPath: workspace.path + "/" + folder, withIntermediateDirectories: true)
            }
            _ = try workspace.write("inbox/b/statements-profile.json", profile)
            _ = try workspace.write("clean/b/statements-profile.json", profile)
        }

        func deliver(_ name: String, _ text: String, isGood: Bool = true) throws {
            _ = try workspace.write("inbox/" + name, text)
            if isGood { good[name] = text }
        }

        func process(_ extra: [String] = []) throws -> StatementsRunner.Output {
            try StatementsRunner.run(
                [
                    "process", inbox, "--state", workspace.state, "--out",
                    workspace.path + "/reports", "--archive", workspace.path + "/done",
                    "--reject", workspace.path + "/rejected", "--wait=60",
                ] + extra)
        }
    }

    /// What bank A and bank B deliver on a night; bank A's day 5 comes on night 7, days 10
    /// and 11 both on night 11 (newest named first), day 20 repeats day 19, and day 12 is
    /// bad, delivered again corrected on night 13.
    static func deliveries(night: Int) -> [(name: String, text: String, isGood: Bool)] {
        var files: [(String, String, Bool)] = [("b/b-\(night).csv", exportB(day: night), true)]
        switch night {
        case 5, 10: break
        case 7:
            files += [
                ("a/a-7.csv", exportA(days: [7]), true), ("a/a-5.csv", exportA(days: [5]), true),
            ]
        case 11:
            files += [
                ("a/a-11.csv", exportA(days: [11]), true),
                ("a/a-10.csv", exportA(days: [10]), true),
            ]
        case 12: files += [("a/a-12.csv", exportA(days: [12], bad: true), false)]
        case 13: files += [("a/a-13.csv", exportA(days: [12, 13]), true)]
        case 20: files += [("a/a-20.csv", exportA(days: [19, 20]), true)]
        default: files += [("a/a-\(night).csv", exportA(days: [night]), true)]
        }
        return files
    }

    @Test func `thirty-one nights end as one clean run over the good files`() throws {
        let run = try Inbox()
        for night in 1...31 {
            for file in Self.deliveries(night: night) {
                try run.deliver(file.name, file.text, isGood: file.isGood)
            }
            if night == 15 {
                // A colleague mistypes a key of bank B's profile: bank B waits, bank A goes on.
                _ = try run.workspace.write(
                    "inbox/b/statements-profile.json",
                    Self.profile.replacingOccurrences(of: #""account""#, with: #""acount""#))
            }
            if night == 17 {
                _ = try run.workspace.write("inbox/b/statements-profile.json", Self.profile)
            }
            var holder: Thread?
            if night == 22 {
                // Last night's run still holds the ledger for a second.
                let lock = open(run.workspace.state, O_RDONLY | O_DIRECTORY)
                #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
                holder = Thread {
                    Thread.sleep(forTimeInterval: 1)
                    flock(lock, LOCK_UN)
                    close(lock)
                }
                holder?.start()
            }
            let output = try run.process()
            try expectNight(night, output)
            if night == 25 {
                // In the morning a test export is dropped into the inbox and processed by hand:
                // it was not for this ledger. It is taken back, and removed.
                try run.deliver(
                    "a/test-export.csv",
                    Self.exportA(days: [1, 2, 3]).replacingOccurrences(
                        of: Self.bankA, with: "GB29NWBK60161331926819"), isGood: false)
                let mistake = try run.process()
                #expect(mistake.status == 0, "\(mistake.stderr)")
                #expect(mistake.stdout.hasPrefix("added 6 new transactions from 1 file"))
                let undo = try StatementsRunner.run([
                    "undo", "--state", run.workspace.state, "--out",
                    run.workspace.path + "/reports",
                ])
                #expect(undo.status == 0, "\(undo.stderr)")
                #expect(undo.stdout.hasPrefix("took back generation "))
                #expect(
                    undo.stdout.contains("6 transactions of 1 account (GB29NWBK60161331926819)"))
                try FileManager.default.removeItem(
                    atPath: run.workspace.path + "/done/a/test-export.csv")
            }
        }
        // The clean run: every good file at once, into a new ledger.
        for (name, text) in run.good { _ = try run.workspace.write("clean/" + name, text) }
        let clean = try StatementsRunner.run([
            "process", run.workspace.path + "/clean", "--state",
            run.workspace.path + "/clean-ledger",
            "--out", run.workspace.path + "/clean-reports",
        ])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(
            try Self.accounts(run.workspace.state)
                == Self.accounts(run.workspace.path + "/clean-ledger"))
        #expect(
            try UndoCommandTests.files(below: run.workspace.path + "/reports")
                .filter { $0.key != ".statements-generation" }
                == UndoCommandTests.files(below: run.workspace.path + "/clean-reports")
                .filter { $0.key != ".statements-generation" })
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: run.inbox + "/a").isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: run.workspace.path + "/rejected/a")
                .sorted() == ["a-12.csv", "a-12.csv.diagnostics.txt"])
    }

    /// The accounts without the time of their last import.
    static func accounts(_ state: String) throws -> String {
        try UndoCommandTests.accounts(state).replacingOccurrences(
            of: #""lastImport": "[^"]*", "#, with: "", options: .regularExpression)
    }

    /// What the operator reads in the morning.
    func expectNight(_ night: Int, _ output: StatementsRunner.Output) throws {
        let summary = output.stdout.split(separator: "\n").first.map(String.init) ?? ""
        switch night {
        case 5, 10:
            #expect(output.status == 0, "night \(night): \(output.stderr)")
            #expect(summary == "added 1 new transaction from 1 file, 0 already present")
        case 7, 11:
            #expect(output.status == 0, "night \(night): \(output.stderr)")
            #expect(summary == "added 5 new transactions from 3 files, 0 already present")
        case 12:
            #expect(output.status == 1)
            #expect(output.stderr.contains("[AMOUNT_PRECISION]"))
            #expect(output.stdout.contains("moved 1 rejected file with its diagnostics to "))
        case 15, 16:
            #expect(output.status == 1, "night \(night)")
            #expect(output.stderr.contains(#"[PROFILE_INVALID] cannot read"#))
            #expect(output.stderr.contains(#"acount: unknown key; did you mean "account"?"#))
            #expect(
                output.stdout.contains("added 2 new transactions from 1 file"), "\(output.stdout)")
            #expect(!output.stdout.contains("moved "))
        case 17:
            #expect(output.status == 0, "night 17: \(output.stderr)")
            #expect(summary == "added 5 new transactions from 4 files, 0 already present")
        case 20:
            #expect(output.status == 0, "night 20: \(output.stderr)")
            #expect(summary == "added 3 new transactions from 2 files, 2 already present")
        default:
            #expect(output.status == 0, "night \(night): \(output.stderr)")
            let files = night == 13 ? 2 : 2
            let new = night == 13 ? 5 : 3
            #expect(
                summary == "added \(new) new transactions from \(files) files, 0 already present",
                "night \(night)")
        }
    }
}
