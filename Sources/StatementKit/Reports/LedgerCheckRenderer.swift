/// What `statements check` found: the ledger's damage, or the accounts out of balance with
/// their banks; as text (problems on stderr, a summary on stdout) or one JSON document.
package struct LedgerCheckRenderer: Sendable {
    /// The output formats of `statements check`.
    package enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    /// The outcome of a check.
    package struct Outcome: Sendable {
        /// The state folder checked.
        package var folder: String
        /// What is damaged, each naming the file it is in.
        package var problems: [String] = []
        /// How many account-months were checked.
        package var monthsChecked = 0
        /// The accounts that disagree with what their bank stated (checked only when the
        /// ledger is not damaged).
        package var outOfBalance: [(account: Account, state: OutOfBalance)] = []

        /// Creates the outcome of checking `folder`.
        package init(folder: String) {
            self.folder = folder
        }
    }

    package let format: Format

    /// Creates a renderer for a format.
    package init(format: Format) {
        self.format = format
    }

    /// Writes the outcome.
    package func render(
        _ outcome: Outcome, exitStatus: Int32, diagnostics: inout some TextOutputStream,
        results: inout some TextOutputStream
    ) {
        switch format {
        case .text: text(outcome, diagnostics: &diagnostics, results: &results)
        case .json: results.write(json(outcome, exitStatus: exitStatus) + "\n")
        }
    }

    private func text(
        _ outcome: Outcome, diagnostics: inout some TextOutputStream,
        results: inout some TextOutputStream
    ) {
        for problem in outcome.problems {
            diagnostics.write("statements check: error: \(problem)\n")
        }
        guard outcome.problems.isEmpty else {
            results.write(
                "\(outcome.problems.count.counted("problem")) in the ledger at \(outcome.folder)\n")
            return
        }
        results.write(
            "the ledger at \(outcome.folder) is sound (\(outcome.monthsChecked.counted("account-month")) checked)\n"
        )
        for (account, state) in outcome.outOfBalance {
            diagnostics.write(
                "statements check: error: [BALANCE_ASSERTION] \(account.id.text) is out of balance with its bank since \(state.since.isoText): the ledger has \(state.difference.moreOrLessText) than the bank states\n"
            )
        }
        if !outcome.outOfBalance.isEmpty {
            results.write(
                "\(outcome.outOfBalance.count.counted("account")) out of balance with the bank\n")
        }
    }

    /// The outcome as one JSON object (without a final newline).
    package func json(_ outcome: Outcome, exitStatus: Int32) -> String {
        let problems = outcome.problems.map { "    " + jsonString($0) }
        let accounts = outcome.outOfBalance.map { account, state in
            "    {\"account\": \(jsonString(account.id.text)), \"outOfBalance\": "
                + ImportReportRenderer.json(state) + "}"
        }
        func list(_ items: [String]) -> String {
            items.isEmpty ? "[]" : "[\n" + items.joined(separator: ",\n") + "\n  ]"
        }
        return """
            {
              "ledger": \(jsonString(outcome.folder)),
              "sound": \(outcome.problems.isEmpty),
              "accountMonthsChecked": \(outcome.monthsChecked),
              "problems": \(list(problems)),
              "outOfBalance": \(list(accounts)),
              "exitStatus": \(exitStatus)
            }
            """
    }
}
