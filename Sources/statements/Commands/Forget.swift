import Foundation
import StatementKit

/// `statements forget FILE`: takes one imported file's transactions back out of the ledger.
enum Forget: Command {
    static let name = "forget"
    static let summary = "take one imported file's transactions back out of the ledger"

    static let usage = """
        USAGE: statements forget FILE [-s DIR] [-o DIR] [-n] [-q] [-f text|json] [-p FILE]
                                      [-a ID] [--shard K/N] [--wait[=SECONDS]]

        Takes the transactions of one statement file, and the balances it states, back out
        of the ledger (a test file dropped into the inbox, a file imported under the wrong
        --account), in one atomic commit: a crash leaves the ledger before or after, never
        between. The ledger keeps each transaction's identity, not the file's rows, so FILE
        is read again as it was imported (give the same --profile or --account; a folder's
        statements-profile.json applies as it did): every one of its transactions must be
        in the ledger, else nothing is taken out (exit 1: the file changed since, or was
        never imported). A transaction another file also holds goes too: every file's
        record is forgotten, so that the next run reads the files again and adds back what
        they hold. Move FILE out of the inbox first, or the next run imports it again.
        'statements undo' brings the transactions back. The next 'statements process' writes
        the reports again. Each forget is a line in STATE/history.

        OPTIONS:
          -s, --state DIR            the ledger folder (default: $STATEMENTS_STATE, else
                                     ./ledger)
          -o, --out DIR              also remove the report files of the account-months
                                     that held only the file's transactions
          -n, --dry-run              say what would be taken out; change nothing
          -q, --quiet                print errors only
          -f, --format text|json     a summary (default) or one JSON document on stdout
          -p, --profile FILE         the bank dialect FILE was imported with
          -a, --account ID           the account FILE was imported with (an id, or the
                                     name of an account in the ledger)
          --currency CODE            the currency given with that account
          --color auto|always|never  colour diagnostics (default auto: on a terminal,
                                     unless NO_COLOR is set)
        \(ReadOptions.shardHelp)
        \(StateFolder.waitHelp)
          -h, --help                 show this help

        EXIT STATUS: 0 the file was taken out (or would be), 1 the ledger does not hold the
        file as it is now (never imported, changed since, or with errors), 2 usage error,
        3 FILE or the ledger is missing, locked, damaged or cannot be written.
        """

    enum Format: String, CaseIterable {
        case text, json
    }

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments,
            valueOptions: ["state", "out", "format", "profile", "account", "currency", "shard"],
            flagOptions: ["dry-run", "quiet", "wait"], console: console)
        let format = try options.choice("format", default: Format.text)
        guard options.positionals.count == 1, options.positionals[0] != "-" else {
            throw .usage(
                options.positionals.isEmpty
                    ? "forget needs the FILE to take back"
                    : options.positionals[0] == "-"
                        ? "forget reads a file, not standard input ('-')"
                        : "forget takes one FILE at a time")
        }
        let path = options.positionals[0]
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .environment(
                "cannot read \(Diagnostic.quote(path)): no such file. The ledger keeps a file's identity, not its rows: forget reads the file as it was imported (restore it, or name its copy in the --archive folder)"
            )
        }
        guard !isFolder.boolValue else {
            throw .usage("forget takes one statement file; \(Diagnostic.quote(path)) is a folder")
        }
        let ledger = try StateFolder.existing(StateFolder.path(options, console: console))
        let read = try ReadOptions(options, command: name, ledger: ledger)
        let state = StateController(storage: try StateFolder.storage(options, console: console))
        state.reading = read.settings
        let isDryRun = options.has("dry-run")
        let result: Result<ForgetReport, ForgetRefusal>
        do throws(StorageError) {
            result = try state.forget(read.files, dryRun: isDryRun)
        } catch {
            throw .environment("\(error)")
        }
        var standardOutput = console.output
        var standardError = console.error
        switch result {
        case .failure(let refusal):
            print("statements forget: error: \(refusal)", to: &standardError)
            if format == .json {
                print(
                    "{\"code\": \"\(code(refusal))\", \"message\": \(jsonString(refusal.description)), \"exitStatus\": 1}",
                    to: &standardOutput)
            }
            return ExitCode.dataError
        case .success(let report):
            var removed: Int?
            if !isDryRun, let folder = options.value("out") {
                removed = Undo.removeReports(of: report.vanished, in: folder)
            }
            if format == .json {
                print(json(report, removedReports: removed), to: &standardOutput)
            } else if !options.has("quiet") {
                print(
                    text(report, removedReports: removed, out: options.value("out")),
                    terminator: "", to: &standardOutput)
            }
            return ExitCode.success
        }
    }

    /// The code of a refusal in the JSON error object.
    static func code(_ refusal: ForgetRefusal) -> String {
        switch refusal {
        case .hasErrors: "FILE_HAS_ERRORS"
        case .notImported: "NOT_IMPORTED"
        case .changedSinceImport: "CHANGED_SINCE_IMPORT"
        case .partlyPresent: "PARTLY_PRESENT"
        }
    }

    /// The text summary.
    static func text(_ report: ForgetReport, removedReports: Int?, out: String?) -> String {
        let verb = report.isDryRun ? "would take out" : "took out"
        let accounts = report.accounts.map { Diagnostic.sanitized($0.text) }
        var text =
            "\(verb) \(Diagnostic.sanitized(report.file)): \(report.transactionCount.counted("transaction")) of \(report.accounts.count.counted("account"))"
            + (accounts.isEmpty ? "" : " (\(accounts.joined(separator: ", ")))")
            + (report.assertionCount > 0
                ? ", \(report.assertionCount.counted("balance")) the bank stated" : "") + "\n"
        if !report.wasRecorded {
            text +=
                "note: the ledger had no record of these bytes as imported whole (a file imported with warnings is not recorded); every transaction of the file was in it\n"
        }
        for balance in report.balances {
            if let line = ImportReportRenderer.balanceLine(balance) { text += line + "\n" }
        }
        if let removedReports, let out {
            text +=
                "removed \(removedReports.counted("report file")) of account-months no longer in the ledger from \(Diagnostic.sanitized(out))/\n"
        }
        if !report.isDryRun {
            text +=
                "the ledger is at generation \(report.generations.after); the next 'statements process' writes its reports again\n"
        }
        return text
    }

    /// The JSON document.
    static func json(_ report: ForgetReport, removedReports: Int?) -> String {
        func months(_ names: [UndoReport.AccountMonthName]) -> String {
            "["
                + names.map {
                    "{\"account\": \(jsonString($0.accountID.text)), \"month\": \"\($0.month.isoText)\"}"
                }.joined(separator: ", ") + "]"
        }
        let balances = report.balances.map {
            "{\"account\": \(jsonString($0.account.id.text)), \"outOfBalance\": \(ImportReportRenderer.json($0.outOfBalance)), \"cleared\": \($0.hasCleared)}"
        }
        return
            "{\"file\": \(jsonString(report.file)), \"recorded\": \(report.wasRecorded), \"transactions\": \(report.transactionCount), \"accounts\": [\(report.accounts.map { jsonString($0.text) }.joined(separator: ", "))], \"balancesStated\": \(report.assertionCount), \"months\": \(months(report.changed)), \"vanished\": \(months(report.vanished)), \"generation\": {\"before\": \(report.generations.before), \"after\": \(report.generations.after)}, \"reportsRemoved\": \(removedReports.map(String.init) ?? "null"), \"balances\": [\(balances.joined(separator: ", "))], \"dryRun\": \(report.isDryRun)}"
    }
}
