import StatementKit

/// `statements validate PATH...`: checks files like a compiler and gates CI.
enum Validate: Command {
    static let name = "validate"
    static let summary = "check statement files and folders, like a compiler"

    static let usage = """
        USAGE: statements validate PATH... [-f text|json|github] [--strict] [-j N] [-q|-v]
                                           [-p FILE] [-a ID] [--max-diagnostics N]
                                           [--shard K/N] [--allow-empty]

        Checks bank statement files and reports every problem as
        FILE:LINE:COLUMN: error|warning: [CODE] message. Folders are searched recursively
        for statement files (*.csv, *.json, camt .xml, MT940 .sta/.940/.txt, .ofx/.qfx), in
        sorted order, skipping hidden files; '-' reads standard input.

        OPTIONS:
          -f, --format FORMAT        text: diagnostics on stderr, summary on stdout (default)
                                     json: one JSON document on stdout
                                     github: GitHub Actions annotations on stdout
          -q, --quiet                print the diagnostics only, no summary
          -v, --verbose              print a line per file as well
        \(ReadOptions.help)
          --shard K/N                check only part K of N of the files (by a stable hash
                                     of each file's name as found), for a check split over
                                     several machines: every file is in exactly one part
          --allow-empty              succeed when the paths hold no statement file (without
                                     it, finding none is an error: a mistyped path in CI
                                     must not pass)
          -h, --help                 show this help

        EXIT STATUS: 0 all files valid, 1 data errors or no statement file found, 2 usage
        error (including an invalid profile), 3 unreadable path.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments,
            valueOptions: ReadOptions.valueOptions.union(Output.valueOptions)
                .union(["format", "shard"]),
            flagOptions: ReadOptions.flagOptions.union(Output.flagOptions).union(["allow-empty"]),
            console: console)
        let format = try options.choice(
            "format", default: ValidationReportRenderer.Format.text)
        let output = try Output(options, console: console)
        var read = try ReadOptions(options, command: name)
        let progress = format == .text ? output.progress(console) : nil
        read.settings.progress = progress?.handler
        // Validate splits by file: a file must be read whole to know its accounts.
        let files = read.settings.shard.map { read.files.part($0) } ?? read.files
        let report = ValidationController(read.settings).validate(files)
        progress?.finish()
        var standardError = console.error
        var standardOutput = console.output
        ValidationReportRenderer(format: format, verbosity: output.verbosity, style: output.style)
            .render(report, diagnostics: &standardError, results: &standardOutput)
        if report.hasEnvironmentError { return ExitCode.environment }
        if read.files.isEmpty && !options.has("allow-empty") {
            print(
                "statements validate: error: no statement files found in \(options.positionals.map(Diagnostic.sanitized).joined(separator: ", ")) (--allow-empty accepts that)",
                to: &standardError)
            return ExitCode.dataError
        }
        return report.errorCount > 0 ? ExitCode.dataError : ExitCode.success
    }
}
