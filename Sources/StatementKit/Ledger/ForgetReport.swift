/// What `statements forget FILE` took back (or, in a dry run, would take back): one statement
/// file's transactions and the balances it stated.
package struct ForgetReport: Hashable, Sendable {
    /// The file as named on the command line.
    package let file: String
    /// Whether the ledger recorded these bytes as imported whole (read the same way); when
    /// not, every transaction of the file was found in the ledger all the same (a file
    /// imported with warnings is not recorded, nor one whose stamp was too young to trust).
    package let wasRecorded: Bool
    /// How many transactions were taken out, and of which accounts.
    package let transactionCount: Int
    package let accounts: [AccountID]
    /// How many balance assertions the file stated that were taken out with them.
    package let assertionCount: Int
    /// The account-months that held only the file's transactions, which the ledger no longer
    /// holds (their report files can go), and every account-month whose rows changed.
    package let vanished: [UndoReport.AccountMonthName]
    package let changed: [UndoReport.AccountMonthName]
    /// The generation taken back from, and the generation the ledger is at now.
    package let generations: (before: Int, after: Int)
    /// What the accounts' balances are after it: those still or now out of balance.
    package let balances: [AccountBalanceReport]
    package let isDryRun: Bool

    package static func == (lhs: ForgetReport, rhs: ForgetReport) -> Bool {
        (lhs.file, lhs.wasRecorded, lhs.transactionCount, lhs.accounts, lhs.assertionCount)
            == (rhs.file, rhs.wasRecorded, rhs.transactionCount, rhs.accounts, rhs.assertionCount)
            && (lhs.vanished, lhs.changed, lhs.balances, lhs.isDryRun)
                == (rhs.vanished, rhs.changed, rhs.balances, rhs.isDryRun)
            && lhs.generations == rhs.generations
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(transactionCount)
        hasher.combine(generations.after)
    }
}

/// Why a file cannot be taken back: the ledger does not hold it as the file is now.
package enum ForgetRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file has errors: a file with an error is rejected whole, so it was never imported.
    case hasErrors(file: String, errors: Int, first: String)
    /// None of the file's transactions (nor its balances) are in the ledger.
    case notImported(file: String, rows: Int)
    /// The ledger recorded other bytes under this path, and holds only some of the rows.
    case changedSinceImport(file: String, found: Int, rows: Int)
    /// Only some of the file's transactions are in the ledger.
    case partlyPresent(file: String, found: Int, rows: Int)

    package var description: String {
        switch self {
        case .hasErrors(let file, let errors, let first):
            "\(file) has \(errors.counted("error")) (first: \(first)): a file with an error is rejected whole, so it was never imported"
        case .notImported(let file, let rows):
            "\(file) was never imported: none of its \(rows.counted("transaction")) (nor a balance it states) is in the ledger; check --state, and give the --profile, --account or --shard it was imported with"
        case .changedSinceImport(let file, let found, let rows):
            "\(file) changed since it was imported (the ledger recorded other bytes at this path): \(found.groupedText) of its \(rows.counted("transaction")) are in the ledger; forget needs the file as it was imported (the copy in the --archive folder, or a backup)"
        case .partlyPresent(let file, let found, let rows):
            "only \(found.groupedText) of the \(rows.counted("transaction")) of \(file) are in the ledger: it is not a file as it was imported (changed since, or never imported and its other rows came from another file); nothing was taken back"
        }
    }
}
