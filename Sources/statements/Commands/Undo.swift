import Foundation
import StatementKit

/// `statements undo`: takes back the last run that added transactions to the ledger.
enum Undo: Command {
    static let name = "undo"
    static let summary = "take back the last import (or process) that changed the ledger"

    static let usage = """
        USAGE: statements undo [-s DIR] [-o DIR] [-n] [-q] [-f text|json] [--wait[=SECONDS]]

        Takes back the last run that changed the ledger's transactions ('statements import',
        'process' or 'forget'): the ledger returns to its state before that run, balances
        and balance assertions included, in one atomic commit (a crash leaves it before or
        after, never between). The run's files are no longer recorded as imported, so
        importing them again adds them again; after a forget, the file's transactions come
        back. Once: the run before it cannot be taken back. The reports of the months it
        changed are written again by the next 'statements process' (the reports follow the
        ledger's generation). Each undo is a line in STATE/history.

        OPTIONS:
          -s, --state DIR            the ledger folder (default: $STATEMENTS_STATE, else
                                     ./ledger)
          -o, --out DIR              also remove the report files of the account-months
                                     the run had made and the ledger no longer holds
          -n, --dry-run              say what would be taken back; change nothing
          -q, --quiet                print errors only
          -f, --format text|json     a summary (default) or one JSON document on stdout
          --color auto|always|never  colour diagnostics (default auto: on a terminal,
                                     unless NO_COLOR is set)
        \(StateFolder.waitHelp)
          -h, --help                 show this help

        EXIT STATUS: 0 the run was taken back (or would be), 1 there is no run to take back,
        2 usage error, 3 the ledger is missing, locked, damaged or cannot be written.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: ["state", "out", "format"],
            flagOptions: ["dry-run", "quiet", "wait"], console: console)
        let format = try options.choice("format", default: Forget.Format.text)
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
            if format == .json {
                let code = refusal == .nothingToUndo ? "NOTHING_TO_UNDO" : "CANNOT_RESTORE"
                print(
                    "{\"code\": \"\(code)\", \"message\": \(jsonString(refusal.description)), \"exitStatus\": 1}",
                    to: &standardOutput)
            }
            return ExitCode.dataError
        case .success(let report) where format == .json:
            var removed: Int?
            if !isDryRun, let folder = options.value("out") {
                removed = removeReports(of: report.vanished, in: folder)
            }
            print(json(report, removedReports: removed), to: &standardOutput)
            return ExitCode.success
        case .success(let report):
            guard !options.has("quiet") else { return ExitCode.success }
            let verb = isDryRun ? "would take back" : "took back"
            let accounts = report.accounts.map { Diagnostic.sanitized($0.text) }
            let count =
                report.transactionCount >= 0
                ? report.transactionCount.counted("transaction")
                : "a forget, bringing back \((-report.transactionCount).counted("transaction"))"
            print(
                "\(verb) generation \(report.undone): \(count) of \(report.accounts.count.counted("account"))"
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

    /// The JSON document of an undo.
    static func json(_ report: UndoReport, removedReports: Int?) -> String {
        let vanished = report.vanished.map {
            "{\"account\": \(jsonString($0.accountID.text)), \"month\": \"\($0.month.isoText)\"}"
        }
        return
            "{\"undone\": \(report.undone), \"generation\": \(report.isDryRun ? report.undone : report.generation), \"transactions\": \(report.transactionCount), \"accounts\": [\(report.accounts.map { jsonString($0.text) }.joined(separator: ", "))], \"files\": [\(report.files.map(jsonString).joined(separator: ", "))], \"vanished\": [\(vanished.joined(separator: ", "))], \"reportsRemoved\": \(removedReports.map(String.init) ?? "null"), \"dryRun\": \(report.isDryRun)}"
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
