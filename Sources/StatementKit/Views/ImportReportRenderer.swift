/// Writes what an import did: one line per file and the totals on stdout, the rejected
/// files' diagnostics on stderr as `validate` writes them.
package struct ImportReportRenderer: Sendable {
    /// Creates a renderer.
    package init() {}

    package func render(
        _ report: ImportReport, diagnostics: inout some TextOutputStream,
        results: inout some TextOutputStream
    ) {
        for file in report.files {
            ValidationReportRenderer.writeDiagnostics(of: file.validation, to: &diagnostics)
            results.write(line(file, isDryRun: report.isDryRun) + "\n")
        }
        results.write(summary(report) + "\n")
    }

    private func line(_ file: FileImport, isDryRun: Bool) -> String {
        let path = Diagnostic.sanitized(file.validation.path)
        switch file.outcome {
        case .imported(let new, let present):
            return
                "\(isDryRun ? "would import" : "imported")  \(path): \(new.counted("new transaction")), \(present.groupedText) already present"
                + notBooked(file)
        case .alreadyPresent(let count):
            return "already present  \(path): \(count.counted("transaction"))" + notBooked(file)
        case .rejected:
            return
                "rejected  \(path): \(file.validation.errorCount.counted("error")), nothing imported"
        }
    }

    private func notBooked(_ file: FileImport) -> String {
        let count = file.validation.notBookedCount
        return count > 0 ? ", \(count.counted("row")) not booked yet left out" : ""
    }

    /// The closing line, such as `25 new transactions from 5 files, 0 already present, 1 file rejected`.
    package func summary(_ report: ImportReport) -> String {
        let accepted = report.files.count - report.rejectedCount
        let verb = report.isDryRun ? "would add" : "added"
        var text =
            "\(verb) \(report.newCount.counted("new transaction")) from \(accepted.counted("file")), \(report.presentCount.groupedText) already present"
        if report.rejectedCount > 0 { text += ", \(report.rejectedCount.counted("file")) rejected" }
        return text
    }
}
