/// Writes a validation report as compiler-style text, one JSON document or GitHub
/// workflow annotations.
package struct ValidationReportRenderer: Sendable {
    /// The output formats of `statements validate`.
    package enum Format: String, CaseIterable, Sendable {
        case text, json, github
    }

    package let format: Format
    package let verbosity: Verbosity
    package let style: TextStyle

    /// Creates a renderer for a format.
    package init(format: Format, verbosity: Verbosity = .normal, style: TextStyle = .plain) {
        self.format = format
        self.verbosity = verbosity
        self.style = style
    }

    /// Writes the report: diagnostics to `diagnostics` (stderr) in text format, everything
    /// else (the summary, JSON, annotations) to `results` (stdout). Quiet, only the
    /// diagnostics are written; verbose, a line per file as well.
    package func render(
        _ report: ValidationReport, diagnostics: inout some TextOutputStream,
        results: inout some TextOutputStream
    ) {
        switch format {
        case .text:
            for file in report.files {
                Self.writeDiagnostics(
                    of: file, to: &diagnostics, style: style, notes: verbosity > .quiet)
                if verbosity == .verbose {
                    results.write("checked  \(Diagnostic.sanitized(file.path)): \(tally(file))\n")
                }
            }
            if verbosity > .quiet { writeSummary(report, to: &results) }
        case .github:
            for file in report.files {
                for diagnostic in file.diagnostics {
                    results.write(diagnostic.githubAnnotation + "\n")
                }
            }
            if verbosity > .quiet { writeSummary(report, to: &results) }
        case .json:
            results.write(json(report))
        }
    }

    /// A file's rows and problems, such as `120 rows, 2 errors`.
    private func tally(_ file: FileValidation) -> String {
        var parts = [file.rowCount.counted("row")]
        if file.errorCount > 0 { parts.append(file.errorCount.counted("error")) }
        if file.warningCount > 0 { parts.append(file.warningCount.counted("warning")) }
        return parts.joined(separator: ", ")
    }

    /// The summary line, then the counts per code when there were diagnostics.
    package func writeSummary(_ report: ValidationReport, to out: inout some TextOutputStream) {
        out.write(summary(report) + "\n")
        if let counts = Self.codeCounts(report.codeCounts) { out.write("  \(counts)\n") }
    }

    /// How many diagnostics of each code, commonest first, such as
    /// `1,907 × AMOUNT_FORMAT, 100 × DATE_INVALID`; `nil` when there are none.
    package static func codeCounts(_ counts: [DiagnosticCode: Int]) -> String? {
        guard !counts.isEmpty else { return nil }
        return counts.sorted { ($1.value, $0.key.rawValue) < ($0.value, $1.key.rawValue) }
            .map { "\($0.value.groupedText) × \($0.key.rawValue)" }
            .joined(separator: ", ")
    }

    /// Writes a file's diagnostics as compiler-style lines, and notes counting the rows left
    /// out as not booked yet (unless `notes` is false: quiet) and the diagnostics not kept:
    /// the one way every command prints diagnostics as text.
    package static func writeDiagnostics(
        of file: FileValidation, to out: inout some TextOutputStream, style: TextStyle = .plain,
        notes: Bool = true
    ) {
        for diagnostic in file.diagnostics { out.write(diagnostic.textLine(style) + "\n") }
        let path = style.bold(Diagnostic.sanitized(file.path) + ":")
        if file.notBookedCount > 0 && notes {
            out.write(
                "\(path) \(style.code("note:")) \(file.notBookedCount.counted("row")) left out as not booked yet\n"
            )
        }
        if file.omittedCount > 0 {
            out.write(
                "\(path) \(style.code("note:")) \(file.omittedCount.counted("more diagnostic")) not shown (--max-diagnostics 0 shows all)\n"
            )
        }
    }

    /// The closing line, such as `2 errors in 1 of 3 files (41,200 rows checked)`.
    package func summary(_ report: ValidationReport) -> String {
        guard !report.files.isEmpty else { return "no statement files found" }
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
            out += "    {\"path\": \(jsonString(file.path)), \(Self.jsonCounts(of: file))}"
        }
        out += report.files.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"diagnostics\": " + Self.jsonDiagnostics(of: report.files) + ",\n"
        out += "  \"summary\": {\"files\": \(report.files.count), \"rows\": \(report.rowCount), "
        out += "\"notBooked\": \(report.notBookedCount), "
        out += "\"errors\": \(report.errorCount), \"warnings\": \(report.warningCount), "
        out += "\"codes\": " + Self.jsonCodeCounts(report.codeCounts) + "}\n}\n"
        return out
    }

    /// A file's counts as JSON members: `"rows": 3, "errors": 1, "warnings": 0,
    /// "omittedDiagnostics": 0, "notBooked": 0`.
    package static func jsonCounts(of file: FileValidation) -> String {
        "\"rows\": \(file.rowCount), \"errors\": \(file.errorCount), \"warnings\": \(file.warningCount), "
            + "\"omittedDiagnostics\": \(file.omittedCount), \"notBooked\": \(file.notBookedCount)"
    }

    /// Every kept diagnostic of the files as a JSON array, one per line.
    package static func jsonDiagnostics(of files: [FileValidation]) -> String {
        var out = "["
        let all = files.flatMap(\.diagnostics)
        for (index, diagnostic) in all.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += "    {\"file\": \(jsonString(diagnostic.file)), \"line\": \(diagnostic.line), "
            out +=
                "\"column\": \(diagnostic.column), \"severity\": \"\(diagnostic.severity.rawValue)\", "
            out +=
                "\"code\": \"\(diagnostic.code.rawValue)\", \"message\": \(jsonString(diagnostic.message))}"
        }
        return out + (all.isEmpty ? "]" : "\n  ]")
    }

    /// The counts per code as a JSON object, codes in alphabetical order.
    package static func jsonCodeCounts(_ counts: [DiagnosticCode: Int]) -> String {
        "{"
            + counts.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\"\($0.key.rawValue)\": \($0.value)" }.joined(separator: ", ") + "}"
    }
}

/// Returns text as a JSON string literal, escaping quotes, backslashes and control characters.
package func jsonString(_ text: String) -> String {
    let body = text.replacingScalars { scalar in
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F: jsonEscape(UInt16(scalar.value))
        case _ where scalar.value >= 0x80 && isInvisible(scalar):
            // C1 controls (U+0085, U+009B), bidi and other format controls (U+202E, U+2066),
            // line and paragraph separators: escaped, so no reader's terminal or script acts
            // on them.
            String(scalar).utf16.map(jsonEscape).joined()
        default: nil
        }
    }
    return "\"" + body + "\""
}

private func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: true
    default: false
    }
}

private func jsonEscape(_ unit: UInt16) -> String { "\\u" + String(hex: unit, digits: 4) }

extension Diagnostic {
    /// `FILE:LINE:COL: severity: [CODE] message`, or `FILE: severity: …` for a whole file.
    package var textLine: String { textLine(.plain) }

    /// The text line, in colour when the style says so: the place in bold, the severity in
    /// red or yellow, the code in cyan.
    package func textLine(_ style: TextStyle) -> String {
        let place = line > 0 ? "\(safePath):\(line):\(column)" : safePath
        let severityText = severity.rawValue + ":"
        let painted = severity == .error ? style.error(severityText) : style.warning(severityText)
        return
            "\(style.bold(place + ":")) \(painted) \(style.code("[\(code.rawValue)]")) \(message)"
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
