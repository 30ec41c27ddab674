/// Writes what writing reports did: one summary line, such as `wrote 601 report files
/// (0 unchanged) to reports/2026-10/`, a line per file written when verbose; or JSON.
package struct PublishReportRenderer: Sendable {
    package let verbosity: Verbosity

    /// Creates a renderer.
    package init(verbosity: Verbosity = .normal) {
        self.verbosity = verbosity
    }

    /// Writes the outcome of writing the statements of `months` below `folder`.
    package func render(
        _ files: [PublishedFile], folder: String, months: Set<Month>,
        into out: inout some TextOutputStream
    ) {
        guard verbosity > .quiet else { return }
        if verbosity == .verbose {
            for file in files where file.isWritten {
                out.write("wrote  \(Diagnostic.sanitized(file.path))\n")
            }
        }
        out.write(summary(files, folder: folder, months: months) + "\n")
    }

    /// The summary line.
    package func summary(_ files: [PublishedFile], folder: String, months: Set<Month>) -> String {
        let written = files.count { $0.isWritten }
        let unchanged = files.count - written
        let place = Self.place(folder: folder, months: months)
        guard !files.isEmpty else { return "no report files to write" }
        guard written > 0 else {
            return "reports up to date: \(unchanged.counted("report file")) unchanged in \(place)"
        }
        return
            "wrote \(written.counted("report file")) (\(unchanged.groupedText) unchanged) to \(place)"
    }

    /// `archived 5 files to archive/` (or `would archive`), and verbose a line per file;
    /// nothing when no file was moved.
    package func renderArchived(
        _ files: [ArchivedFile], folder: String, isDryRun: Bool,
        into out: inout some TextOutputStream
    ) {
        guard verbosity > .quiet, !files.isEmpty else { return }
        let verb = isDryRun ? "would archive" : "archived"
        if verbosity == .verbose {
            for file in files {
                out.write(
                    "\(verb)  \(Diagnostic.sanitized(file.from)) -> \(Diagnostic.sanitized(file.to))\n"
                )
            }
        }
        out.write("\(verb) \(files.count.counted("file")) to \(Diagnostic.sanitized(folder))/\n")
    }

    /// The rejected files `process --reject` moved (or would move).
    package func renderQuarantined(
        _ files: [ArchivedFile], folder: String, isDryRun: Bool,
        into out: inout some TextOutputStream
    ) {
        guard verbosity > .quiet, !files.isEmpty || verbosity == .verbose else { return }
        let verb = isDryRun ? "would move" : "moved"
        if verbosity == .verbose {
            for file in files {
                out.write(
                    "\(verb)  \(Diagnostic.sanitized(file.from)) -> \(Diagnostic.sanitized(file.to)) (rejected)\n"
                )
            }
        }
        out.write(
            "\(verb) \(files.count.counted("rejected file")) with \(files.count == 1 ? "its" : "their") diagnostics to \(Diagnostic.sanitized(folder))/\n"
        )
    }

    /// What `process --dry-run` would write.
    package func dryRunSummary(folder: String, months: Set<Month>) -> String {
        guard !months.isEmpty else { return "would write no report files" }
        let list = months.sorted().map(\.isoText).joined(separator: ", ")
        return
            "would write the statements of \(months.count.counted("month")) (\(list)) to \(Diagnostic.sanitized(folder))/"
    }

    /// `reports/ (2026-10)` for one month, `reports/ (2026-09 to 2026-10)` for several.
    private static func place(folder: String, months: Set<Month>) -> String {
        let base = Diagnostic.sanitized(folder)
        guard let first = months.min(), let last = months.max() else { return base + "/" }
        return first == last
            ? "\(base)/ (\(first.isoText))" : "\(base)/ (\(first.isoText) to \(last.isoText))"
    }

    /// What `process -f json` prints: the import's and the reports' JSON objects (as
    /// `json(_:)` of each renderer writes them) and the files archived, in one object.
    package func processJSON(
        imported: String, archived: [ArchivedFile], quarantined: [ArchivedFile]? = nil,
        reports: String
    ) -> String {
        func nested(_ json: String) -> String { json.replacingOccurrences(of: "\n", with: "\n  ") }
        func moves(_ files: [ArchivedFile]) -> String {
            files.map { "{\"from\": \(jsonString($0.from)), \"to\": \(jsonString($0.to))}" }
                .joined(separator: ", ")
        }
        let rejected = quarantined.map { "\n  \"rejectedMoved\": [\(moves($0))]," } ?? ""
        return """
            {
              "import": \(nested(imported)),
              "archived": [\(moves(archived))],\(rejected)
              "reports": \(nested(reports))
            }
            """
    }

    /// The outcome as a JSON object (without a final newline).
    package func json(_ files: [PublishedFile], folder: String, months: Set<Month>) -> String {
        let written = files.filter(\.isWritten).map { "    " + jsonString($0.path) }
        let monthList = months.sorted().map { jsonString($0.isoText) }.joined(separator: ", ")
        var out = "{\n  \"folder\": \(jsonString(folder)), \"months\": [\(monthList)],\n"
        out +=
            "  \"written\": ["
            + (written.isEmpty ? "]" : "\n" + written.joined(separator: ",\n") + "\n  ]")
        out += ",\n  \"unchanged\": \(files.count - written.count)\n}"
        return out
    }
}
