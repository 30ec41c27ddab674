/// Writes a validation report as compiler-style text, one JSON document or GitHub
/// workflow annotations.
package struct ValidationReportRenderer: Sendable {
    /// The output formats of `statements validate`.
    package enum Format: String, CaseIterable, Sendable {
        case text, json, github
    }

    package let format: Format

    /// Creates a renderer for a format.
    package init(format: Format) {
        self.format = format
    }

    /// Writes the report: diagnostics to `diagnostics` (stderr) in text format, everything
    /// else (the summary, JSON, annotations) to `results` (stdout).
    package func render(
        _ report: ValidationReport, diagnostics: inout some TextOutputStream,
        results: inout some TextOutputStream
    ) {
        switch format {
        case .text:
            for file in report.files { Self.writeDiagnostics(of: file, to: &diagnostics) }
            results.write(summary(report) + "\n")
        case .github:
            for file in report.files {
                for diagnostic in file.diagnostics {
                    results.write(diagnostic.githubAnnotation + "\n")
                }
            }
            results.write(summary(report) + "\n")
        case .json:
            results.write(json(report))
        }
    }

    /// Writes a file's diagnostics as compiler-style lines, and a note counting those not
    /// kept: the one way every command prints diagnostics as text.
    package static func writeDiagnostics(
        of file: FileValidation, to out: inout some TextOutputStream
    ) {
        for diagnostic in file.diagnostics { out.write(diagnostic.textLine + "\n") }
        if file.notBookedCount > 0 {
            out.write(
                "\(Diagnostic.sanitized(file.path)): note: \(file.notBookedCount.counted("row")) left out as not booked yet\n"
            )
        }
        if file.omittedCount > 0 {
            out.write(
                "\(Diagnostic.sanitized(file.path)): note: \(file.omittedCount.counted("more diagnostic")) not shown\n"
            )
        }
    }

    /// The closing line, such as `2 errors in 1 of 3 files (41,200 rows checked)`.
    package func summary(_ report: ValidationReport) -> String {
        let notBooked =
            report.notBookedCount > 0 ? ", \(report.notBookedCount.groupedText) not booked yet" : ""
        let rows = "(\(report.rowCount.counted("row")) checked\(notBooked))"
        let warnings = report.warningCount > 0 ? ", \(report.warningCount.counted("warning"))" : ""
        guard report.errorCount > 0 else {
            return "no errors\(warnings) in \(report.files.count.counted("file")) \(rows)"
        }
        return
            "\(report.errorCount.counted("error"))\(warnings) in \(report.failedFileCount.groupedText) of \(report.files.count.counted("file")) \(rows)"
    }

    private func json(_ report: ValidationReport) -> String {
        var out = "{\n  \"files\": ["
        for (index, file) in report.files.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out +=
                "    {\"path\": \(jsonString(file.path)), \"rows\": \(file.rowCount), \"errors\": \(file.errorCount), "
            out +=
                "\"warnings\": \(file.warningCount), \"omittedDiagnostics\": \(file.omittedCount), "
            out += "\"notBooked\": \(file.notBookedCount)}"
        }
        out += report.files.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"diagnostics\": ["
        let all = report.files.flatMap(\.diagnostics)
        for (index, diagnostic) in all.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += "    {\"file\": \(jsonString(diagnostic.file)), \"line\": \(diagnostic.line), "
            out +=
                "\"column\": \(diagnostic.column), \"severity\": \"\(diagnostic.severity.rawValue)\", "
            out +=
                "\"code\": \"\(diagnostic.code.rawValue)\", \"message\": \(jsonString(diagnostic.message))}"
        }
        out += all.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"summary\": {\"files\": \(report.files.count), \"rows\": \(report.rowCount), "
        out += "\"notBooked\": \(report.notBookedCount), "
        out += "\"errors\": \(report.errorCount), \"warnings\": \(report.warningCount)}\n}\n"
        return out
    }
}

/// Returns text as a JSON string literal, escaping quotes, backslashes and control characters.
package func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

extension Diagnostic {
    /// `FILE:LINE:COL: severity: [CODE] message`, or `FILE: severity: …` for a whole file.
    package var textLine: String {
        let place = line > 0 ? "\(safePath):\(line):\(column)" : safePath
        return "\(place): \(severity.rawValue): [\(code.rawValue)] \(message)"
    }

    /// A GitHub Actions workflow command that annotates the file and line.
    package var githubAnnotation: String {
        func escapeData(_ text: String) -> String {
            text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(
                of: "\r", with: "%0D"
            )
            .replacingOccurrences(of: "\n", with: "%0A")
        }
        func escapeProperty(_ text: String) -> String {
            escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(
                of: ",", with: "%2C")
        }
        // File names can hold control characters and bidi overrides too.
        var properties = "file=\(escapeProperty(safePath))"
        if line > 0 { properties += ",line=\(line),col=\(column)" }
        properties += ",title=\(code.rawValue)"
        return "::\(severity.rawValue) \(properties)::\(escapeData(message))"
    }

    /// The file path with any control characters escaped, as file names can hold them too.
    private var safePath: String { Diagnostic.sanitized(file) }
}
