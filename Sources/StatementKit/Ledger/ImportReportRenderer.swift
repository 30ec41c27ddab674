/// Writes what an import did: the rejected files' diagnostics on stderr as `validate` writes
/// them, and on stdout a line per rejected file (verbose: per file) and the totals; or one
/// JSON document.
package struct ImportReportRenderer: Sendable {
    /// The output formats of `import` and `process`.
    package enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    package let verbosity: Verbosity
    package let style: TextStyle

    /// Creates a renderer.
    package init(verbosity: Verbosity = .normal, style: TextStyle = .plain) {
        self.verbosity = verbosity
        self.style = style
    }

    /// Writes the report as text.
    package func render(
        _ report: ImportReport, diagnostics: inout some TextOutputStream,
        results: inout some TextOutputStream
    ) {
        for file in report.files {
            ValidationReportRenderer.writeDiagnostics(
                of: file.validation, to: &diagnostics, style: style, notes: verbosity > .quiet)
            if verbosity == .verbose || (verbosity == .normal && file.outcome == .rejected) {
                results.write(line(file, isDryRun: report.isDryRun) + "\n")
            }
        }
        for balance in report.balances {
            for diagnostic in balance.failures {
                diagnostics.write(diagnostic.textLine(style) + "\n")
            }
        }
        guard verbosity > .quiet else { return }
        results.write(summary(report) + "\n")
        let rejected = report.files.filter { $0.outcome == .rejected }.map(\.validation)
        if let counts = ValidationReportRenderer.codeCounts(
            ValidationReport(files: rejected).codeCounts)
        {
            results.write("  \(counts)\n")
        }
        for balance in report.balances {
            if let line = Self.balanceLine(balance) { results.write(line + "\n") }
        }
    }

    /// What a run changed about an account's agreement with its bank: out of balance, or in
    /// balance again; `nil` when it holds and held.
    package static func balanceLine(_ balance: AccountBalanceReport) -> String? {
        let account = Diagnostic.sanitized(balance.account.id.text)
        if let state = balance.outOfBalance {
            let still = balance.failures.isEmpty && balance.wasOutOfBalance == state
            return
                "\(still ? "still out of balance" : "out of balance")  \(account): since \(state.since.isoText) the ledger has \(state.difference.moreOrLessText) than the bank states"
        }
        guard balance.hasCleared else { return nil }
        return "in balance again  \(account): every balance the bank stated holds"
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
                + (file.isUnchanged ? " (unchanged since imported, not read again)" : "")
        case .rejected:
            return
                "rejected  \(path): \(file.validation.errorCount.counted("error")), nothing imported"
        }
    }

    private func notBooked(_ file: FileImport) -> String {
        let count = file.validation.notBookedCount
        return (count > 0 ? ", \(count.counted("row")) not booked yet left out" : "")
            + Self.otherShards(file.otherShardRows)
    }

    /// The rows kept by other parts of a split ledger, when there are any.
    private static func otherShards(_ count: Int) -> String {
        count > 0 ? "; \(count.counted("row")) of other shards' accounts left to them" : ""
    }

    /// The closing line, such as `added 25 new transactions from 5 files, 0 already present,
    /// 1 file rejected`, or `nothing new: …` when the run added nothing, or `nothing
    /// imported: 2 files rejected` when every file was rejected.
    package func summary(_ report: ImportReport) -> String {
        let accepted = report.files.count - report.rejectedCount
        let rejected =
            (report.rejectedCount > 0 ? ", \(report.rejectedCount.counted("file")) rejected" : "")
            + Self.otherShards(report.otherShardRows)
        guard !report.files.isEmpty else { return "no statement files found" }
        guard accepted > 0 else {
            // Every file was rejected: nothing was compared with the ledger.
            return "nothing imported: \(report.rejectedCount.counted("file")) rejected"
                + Self.otherShards(report.otherShardRows)
        }
        guard report.newCount > 0 else {
            let present = report.presentCount == 1 ? "is" : "are"
            return
                "nothing new: the \(report.presentCount.counted("transaction")) of \(accepted.counted("file")) \(present) in the ledger already"
                + rejected
        }
        let verb = report.isDryRun ? "would add" : "added"
        return
            "\(verb) \(report.newCount.counted("new transaction")) from \(accepted.counted("file")), \(report.presentCount.groupedText) already present"
            + rejected
    }

    /// The report as a JSON object (without a final newline).
    package func json(_ report: ImportReport) -> String {
        var out = "{\n  \"files\": ["
        for (index, file) in report.files.enumerated() {
            let (outcome, new, present) =
                switch file.outcome {
                case .imported(let new, let present): ("imported", new, present)
                case .alreadyPresent(let present): ("present", 0, present)
                case .rejected: ("rejected", 0, 0)
                }
            let validation = file.validation
            out += index == 0 ? "\n" : ",\n"
            out += "    {\"path\": \(jsonString(validation.path)), \"outcome\": \"\(outcome)\", "
            out += "\"new\": \(new), \"present\": \(present), \"unchanged\": \(file.isUnchanged), "
            out += "\"otherShards\": \(file.otherShardRows), "
            out += ValidationReportRenderer.jsonCounts(of: validation) + "}"
        }
        out += report.files.isEmpty ? "],\n" : "\n  ],\n"
        let validations = report.files.map(\.validation)
        out +=
            "  \"diagnostics\": "
            + ValidationReportRenderer.jsonDiagnostics(of: validations) + ",\n"
        out += "  \"summary\": {\"files\": \(report.files.count), \"new\": \(report.newCount), "
        out += "\"present\": \(report.presentCount), \"rejected\": \(report.rejectedCount), "
        out += "\"otherShards\": \(report.otherShardRows), "
        out += "\"dryRun\": \(report.isDryRun), \"codes\": "
        // The balances that do not hold count with the files' diagnostics.
        var codes = ValidationReport(files: validations).codeCounts
        for failure in report.balances.flatMap(\.failures) { codes[failure.code, default: 0] += 1 }
        out += ValidationReportRenderer.jsonCodeCounts(codes)
        out += "},\n  \"balances\": ["
        for (index, balance) in report.balances.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += "    {\"account\": \(jsonString(balance.account.id.text)), "
            out += "\"outOfBalance\": \(Self.json(balance.outOfBalance)), "
            out += "\"cleared\": \(balance.hasCleared), \"diagnostics\": ["
            out += balance.failures.map { diagnostic in
                "{\"file\": \(jsonString(diagnostic.file)), \"line\": \(diagnostic.line), "
                    + "\"column\": \(diagnostic.column), "
                    + "\"code\": \"\(diagnostic.code.rawValue)\", "
                    + "\"message\": \(jsonString(diagnostic.message))}"
            }.joined(separator: ", ")
            out += "]}"
        }
        out += report.balances.isEmpty ? "]" : "\n  ]"
        return out + "\n}"
    }

    /// An account's balance state as JSON: `null`, or since when and by how much.
    package static func json(_ state: OutOfBalance?) -> String {
        guard let state else { return "null" }
        return
            "{\"since\": \"\(state.since.isoText)\", \"difference\": \(state.difference.jsonObject)}"
    }
}
