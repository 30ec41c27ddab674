import Foundation
import StatementKit

/// `statements validate PATH...`: checks files like a compiler and gates CI.
enum Validate: Command {
    static let name = "validate"
    static let summary = "check statement files and folders, like a compiler"

    static let usage = """
        USAGE: statements validate PATH... [--profile FILE] [--account ID]
                                           [--format text|json|github] [--strict] [--jobs N]

        Checks bank statement files (CSV and JSON) and reports every problem as
        FILE:LINE:COLUMN: error|warning: [CODE] message. Folders are searched recursively
        for *.csv and *.json files, in sorted order, skipping hidden files.

        OPTIONS:
          --format text|json|github  text: diagnostics on stderr, summary on stdout (default)
                                     json: one JSON document on stdout
                                     github: GitHub Actions annotations on stdout
          --strict                   treat warnings as errors
          --jobs N                   cores to use (default: all): N files at once, or
                                     a large file in N parts at once; the output is
                                     the same, in the same order
          --profile FILE             read every CSV file in this bank dialect (see
                                     'statements profile'); without it, a folder's
                                     statements-profile.json applies, else the dialect
                                     of a non-canonical file is sniffed
          --account ID               the account of CSV files that do not name their
                                     own (an IBAN or scheme:value, such as
                                     aba:021000021/123456789); the layout is sniffed
          -h, --help                 show this help

        EXIT STATUS: 0 all files valid, 1 data errors, 2 usage error (including an invalid
        profile), 3 unreadable path.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: ["format", "profile", "account", "jobs"],
            flagOptions: ["strict"])
        let files = try options.statementFiles(of: "validate")
        let format = try options.choice(
            "format", default: ValidationReportRenderer.Format.text)
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = options.value("jobs") {
            guard let number = Int(text), number > 0 else {
                throw .usage("--jobs must be a positive number, not '\(text)'")
            }
            jobs = number
        }
        let controller = ValidationController(isStrict: options.has("strict"), jobs: jobs)
        let report = controller.validate(files)
        var standardError = console.error
        var standardOutput = console.output
        ValidationReportRenderer(format: format).render(
            report, diagnostics: &standardError, results: &standardOutput)
        if report.hasEnvironmentError { return ExitCode.environment }
        return report.errorCount > 0 ? ExitCode.dataError : ExitCode.success
    }
}
