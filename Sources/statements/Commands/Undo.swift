import Foundation
import StatementKit

/// `statements undo`: takes back the last run that added transactions to the ledger.
enum Undo: Command {
    static let name = "undo"
    static let summary = "take back the last import (or process) that changed the ledger"

    static let usage = """
        USAGE: statements undo [-s DIR] [-o DIR] [-n] [-q] [--wait[=SECONDS]]

        Takes back the last run that changed the ledger's transactions ('statements import'
        or 'process'): the ledger returns to its state before that run, balances and balance
        assertions included, in one atomic commit (a crash leaves it before or after, never
        between). The run's files are no longer recorded as imported, so importing them again
        adds them again. Once: the run before it cannot be taken back. The reports of the
        months it changed are written again by the next 'statements process' (the reports
        follow the ledger's generation). Each undo is a line in STATE/history.

        OPTIONS:
          -s, --state DIR            the ledger folder (default: $STATEMENTS_STATE, else
                                     ./ledger)
          -o, --out DIR              also remove the report files of the account-months
                                     the run had made and the ledger no longer holds
          -n, --dry-run              say what would be taken back; change nothing
          -q, --quiet                print errors only
        \(StateFolder.waitHelp)
          -h, --help                 show this help

        EXIT STATUS: 0 the run was taken back (or would be), 1 there is no run to take back,
        2 usage error, 3 the ledger is missing, locked, damaged or cannot be written.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: ["state", "out"],
            flagOptions: ["dry-run", "quiet", "wait"], console: console)
        try options.expectNoPaths(name)
        _ = try StateFolder.existing(StateFolder.path(options, console: console))
        let state = StateController(storage: try StateFolder.storage(options, console: console))
        let isDryRun = options.has("dry-run")
        var standardOutput = console.output
        var standardError = console.error
        let result: Result<UndoReport, UndoRefusal>
        do throws(StorageError) {
            result = try state.undoLastRun(dryRun: isDryRun)
        } catch {
            throw .environment("\(error)")
        }
        switch result {
        case .failure(let refusal):
            print("statements undo: error: \(refusal)", to: &standardError)
            return ExitCode.dataError
        case .success(let report):
            guard !options.has("quiet") else { return ExitCode.success }
            let verb = isDryRun ? "would take back" : "took back"
            let accounts = report.accounts.map { Diagnostic.sanitized($0.text) }
            print(
                "\(verb) generation \(report.undone): \(report.transactionCount.counted("transaction")) of \(report.accounts.count.counted("account"))"
                    + (accounts.isEmpty ? "" : " (\(accounts.joined(separator: ", ")))"),
                to: &standardOutput)
            for file in report.files {
                print("  \(Diagnostic.sanitized(file))", to: &standardOutput)
            }
            if !isDryRun, let folder = options.value("out") {
                let removed = removeReports(of: report.vanished, in: folder)
                print(
                    "removed \(removed.counted("report file")) of account-months no longer in the ledger from \(Diagnostic.sanitized(folder))/",
                    to: &standardOutput)
            }
            if !isDryRun {
                print(
                    "the ledger is at generation \(report.generation); the next 'statements process' writes its reports again",
                    to: &standardOutput)
            }
            return ExitCode.success
        }
    }

    /// Removes the report files of account-months the ledger no longer holds; how many.
    static func removeReports(of vanished: [UndoReport.AccountMonthName], in folder: String)
        -> Int
    {
        var removed = 0
        for item in vanished {
            for format in ReportFormat.allCases {
                let path =
                    "\(folder)/\(item.month.isoText)/\(item.accountID.fileName).\(format.fileExtension)"
                if (try? FileManager.default.removeItem(atPath: path)) != nil { removed += 1 }
            }
        }
        return removed
    }
}
