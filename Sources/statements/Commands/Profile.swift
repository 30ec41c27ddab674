import StatementKit

/// `statements profile FILE`: prints the profile that sniffing arrives at, for review.
enum Profile: Command {
    static let name = "profile"
    static let summary = "work out a bank export's dialect and print it as a profile"

    static let usage = """
        USAGE: statements profile FILE [-a ID [--currency CODE]] [-f text|json]

        Works out how a bank's CSV export is written (encoding, separator, header line,
        columns, decimal mark, date layout, sign convention, footer lines, account) and
        prints it as a profile (JSON) on stdout. Review it, keep it beside the files as
        statements-profile.json or pass it with --profile. What had to be assumed is
        printed on stderr as DIALECT_ASSUMED warnings. A file in a bank's own format
        (MT940, camt.05x, OFX/QFX) or statement JSON needs no profile: profile says which
        format it is.

        OPTIONS:
          -a, --account ID           the account, for a file that does not name its own
                                     (an IBAN or scheme:value)
          --currency CODE            the currency of that account, where the file names
                                     none
          -f, --format text|json     json: stdout is JSON whatever the file: the profile,
                                     or for a file that needs none {"file", "format",
                                     "profileNeeded": false}
          -h, --help                 show this help

        EXIT STATUS: 0 profile printed and checked, 1 the file cannot be understood (the
        reason is on stderr; what the file leaves open, such as account.id or the amount
        column, is printed as FILL IN), or the profile printed does not read it (the errors
        are on stderr), 2 usage error, 3 unreadable file.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: ["account", "currency", "format"], flagOptions: [],
            console: console)
        let currency = try options.accountCurrency()
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
        if let status = selfDescribing(path, format, &standardOutput, &standardError) {
            return status
        }
        let result: SniffResult
        do {
            result = try ValidationController.sniff(
                path: path,
                account: account.map {
                    var given = Dialect.sniffing(account: $0)
                    given.accountCurrency = currency
                    return given
                })
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
        if case .open(let partial, let open, _) = result {
            // Recognised but for questions only the user can answer: marked FILL IN.
            print(
                ProfileRenderer().render(partial, lacksAccount: open.isAccountOpen, open: open),
                terminator: "",
                to: &standardOutput)
            return ExitCode.dataError
        }
        guard let dialect else { return ExitCode.dataError }
        let profile = ProfileRenderer().render(dialect)
        print(profile, terminator: "", to: &standardOutput)
        // The profile printed must read the file: checked, as --profile would read it.
        let check: FileValidation
        do {
            check = try ValidationController.check(profile: profile, path: path)
        } catch {
            throw .environment("the profile printed cannot be read back: \(error)")
        }
        guard check.errorCount == 0 else {
            ValidationReportRenderer.writeDiagnostics(of: check, to: &standardError)
            print(
                "\(Diagnostic.sanitized(path)): the profile printed does not read the file (\(check.errorCount.counted("error")))",
                to: &standardError)
            return ExitCode.dataError
        }
        return ExitCode.success
    }

    /// A file in a bank's own format or JSON, which describes itself (no profile to print),
    /// or in a format not supported: the exit status, after saying so; `nil` for a CSV file.
    private static func selfDescribing(
        _ path: String, _ format: ImportReportRenderer.Format,
        _ standardOutput: inout some TextOutputStream, _ standardError: inout some TextOutputStream
    ) -> Int32? {
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
        if let message = try? ValidationController.unsupportedFormat(path: path) {
            var diagnostics = DiagnosticCollector(file: path)
            diagnostics.report(message, line: 1, column: 1)
            ValidationReportRenderer.writeDiagnostics(
                of: FileValidation(path: path, rowCount: 0, collector: diagnostics),
                to: &standardError)
            return ExitCode.dataError
        }
        return nil
    }
}
