import StatementKit

/// `statements profile FILE`: prints the profile that sniffing arrives at, for review.
enum Profile: Command {
    static let name = "profile"
    static let summary = "work out a bank export's dialect and print it as a profile"

    static let usage = """
        USAGE: statements profile FILE [--account ID] [-f text|json]

        Works out how a bank's CSV export is written (encoding, separator, header line,
        columns, decimal mark, date layout, sign convention, footer lines, account) and
        prints it as a profile (JSON) on stdout. Review it, keep it beside the files as
        statements-profile.json or pass it with --profile. What had to be assumed is
        printed on stderr as DIALECT_ASSUMED warnings. A file in a bank's own format
        (MT940, camt.05x, OFX/QFX) or statement JSON needs no profile: profile says which
        format it is.

        OPTIONS:
          --account ID  the account, for a file that does not name its own (an IBAN or
                        scheme:value)
          -f, --format text|json
                        json: stdout is JSON whatever the file: the profile, or for a file
                        that needs none {"file", "format", "profileNeeded": false}
          -h, --help    show this help

        EXIT STATUS: 0 profile printed, 1 the file cannot be understood (the reason is on
        stderr; when all it lacks is the account, the profile is printed with a placeholder
        for account.id to fill in), 2 usage error, 3 unreadable file.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: ["account", "format"], flagOptions: [], console: console)
        let format = try options.choice("format", default: ImportReportRenderer.Format.text)
        let account = try options.value("account").map { (text) throws(CommandError) in
            try Arguments.accountID(text)
        }
        let paths = try options.paths(of: "profile")
        guard paths.count == 1 else {
            throw .usage("profile takes one FILE")
        }
        let path = paths[0]
        var standardError = console.error
        var standardOutput = console.output
        // The banks' own formats and JSON describe themselves: no profile to print.
        if let name = try? ValidationController.formatName(path: path) {
            switch format {
            case .text:
                print(
                    "\(Diagnostic.sanitized(path)): \(name); read as it is, no profile needed",
                    to: &standardOutput)
            case .json:
                print(
                    "{\"file\": \(jsonString(path)), \"format\": \(jsonString(name)), \"profileNeeded\": false}",
                    to: &standardOutput)
            }
            return ExitCode.success
        }
        let result: SniffResult
        do {
            result = try ValidationController.sniff(
                path: path, account: account.map(Dialect.sniffing(account:)))
        } catch {
            throw .environment("cannot read '\(path)': \(error)")
        }
        var diagnostics = DiagnosticCollector(file: path)
        let dialect = result.report(into: &diagnostics, refusingNoHeader: true)
        ValidationReportRenderer.writeDiagnostics(
            of: FileValidation(path: path, rowCount: 0, collector: diagnostics), to: &standardError)
        if case .lacksAccount(let partial, _, _) = result {
            // All but the account was found: print it, for the user to fill in one value.
            print(
                ProfileRenderer().render(partial, lacksAccount: true), terminator: "",
                to: &standardOutput)
            return ExitCode.dataError
        }
        guard let dialect else { return ExitCode.dataError }
        print(ProfileRenderer().render(dialect), terminator: "", to: &standardOutput)
        return ExitCode.success
    }
}
