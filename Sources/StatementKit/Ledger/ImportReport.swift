/// What an import did with one file.
package struct FileImport: Hashable, Sendable {
    /// The outcome of one file.
    package enum Outcome: Hashable, Sendable {
        /// Some transactions were new; the rest were in the ledger already.
        case imported(new: Int, present: Int)
        /// Every transaction of the file was in the ledger already.
        case alreadyPresent(Int)
        /// The file had errors (or could not be read); nothing of it was imported.
        case rejected
    }

    package let outcome: Outcome
    /// The file's diagnostics, as `validate` reports them.
    package let validation: FileValidation
    /// Whether the file was known as imported whole and unchanged, and so not read again.
    package let isUnchanged: Bool
    /// The rows of accounts of other parts of a split ledger (`--shard`): read and checked,
    /// not kept here.
    package let otherShardRows: Int
    /// The file's stamp while the run read it (`stat` before and after agreed, so the bytes
    /// imported are the bytes it holds); `nil` for standard input and a file that changed
    /// as it was read. Only such a file may be archived, and only while it still has it.
    package var readStamp: FileStamp?

    /// Creates the outcome of one file.
    package init(
        outcome: Outcome, validation: FileValidation, isUnchanged: Bool = false,
        otherShardRows: Int = 0
    ) {
        self.outcome = outcome
        self.validation = validation
        self.isUnchanged = isUnchanged
        self.otherShardRows = otherShardRows
    }
}

/// What one `import` run did.
package struct ImportReport: Hashable, Sendable {
    /// One entry per file, in the order the files were found.
    package let files: [FileImport]
    /// Whether the run only reported what it would do.
    package let isDryRun: Bool
    /// The months whose statements the run changed: every month it added transactions to,
    /// each later month of the same accounts, whose opening balance moved with them, and the
    /// month before an account's new month, whose statement now links to it.
    package let changedMonths: Set<Month>
    /// The ledger's generation before the run and after it, read under the writer lock: the
    /// run changed the ledger from the one to the other and nothing else came between.
    package let generations: (before: Int, after: Int)
    /// The balance check of every account the run touched that has balance assertions.
    package let balances: [AccountBalanceReport]

    /// Creates a report.
    package init(
        files: [FileImport], isDryRun: Bool, changedMonths: Set<Month> = [],
        generations: (before: Int, after: Int) = (0, 0), balances: [AccountBalanceReport] = []
    ) {
        self.files = files
        self.isDryRun = isDryRun
        self.changedMonths = changedMonths
        self.generations = generations
        self.balances = balances
    }

    package static func == (lhs: ImportReport, rhs: ImportReport) -> Bool {
        lhs.files == rhs.files && lhs.isDryRun == rhs.isDryRun
            && lhs.changedMonths == rhs.changedMonths && lhs.generations == rhs.generations
            && lhs.balances == rhs.balances
    }

    /// Whether an account the run touched is out of balance with its bank.
    package var isOutOfBalance: Bool { balances.contains { $0.outOfBalance != nil } }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(files)
        hasher.combine(changedMonths)
        hasher.combine(generations.after)
    }

    /// The transactions added to the ledger (or that would be, in a dry run).
    package var newCount: Int {
        files.reduce(0) {
            switch $1.outcome {
            case .imported(let new, _): $0 + new
            default: $0
            }
        }
    }

    /// The transactions that were in the ledger already.
    package var presentCount: Int {
        files.reduce(0) {
            switch $1.outcome {
            case .imported(_, let present), .alreadyPresent(let present): $0 + present
            case .rejected: $0
            }
        }
    }

    /// The rows of accounts of other parts of a split ledger, in every file.
    package var otherShardRows: Int { files.reduce(0) { $0 + $1.otherShardRows } }

    /// How many files were rejected.
    package var rejectedCount: Int { files.count { $0.outcome == .rejected } }
    /// Whether some path could not be read.
    package var hasEnvironmentError: Bool { files.contains { $0.validation.hasEnvironmentError } }
}

/// Whether an account an import touched agrees with every balance its bank stated.
package struct AccountBalanceReport: Hashable, Sendable {
    package let account: Account
    /// A `BALANCE_ASSERTION` error per failing run of assertions, at the file and line that
    /// state it.
    package let failures: [Diagnostic]
    /// The state after the run, and before it.
    package let outOfBalance: OutOfBalance?
    package let wasOutOfBalance: OutOfBalance?

    /// Creates a report.
    package init(
        account: Account, failures: [Diagnostic], outOfBalance: OutOfBalance?,
        wasOutOfBalance: OutOfBalance?
    ) {
        self.account = account
        self.failures = failures
        self.outOfBalance = outOfBalance
        self.wasOutOfBalance = wasOutOfBalance
    }

    /// Whether the account was out of balance before the run and holds every balance now.
    package var hasCleared: Bool { wasOutOfBalance != nil && outOfBalance == nil }
}

/// One account of the ledger with the figures `statements accounts` shows.
package struct AccountSummary: Hashable, Sendable {
    package let account: Account
    package let transactionCount: Int
    /// Opening balance plus every transaction, computed from the ledger.
    package let balance: Money
    package let firstDate: Day?
    package let lastDate: Day?
    /// When a run last added transactions (ISO 8601, UTC).
    package let lastImport: String?
    /// The latest balance the bank stated, and the ledger's balance at the end of its day.
    package var bankBalance: (assertion: BalanceAssertion, ledger: Money)? = nil
    /// Since when, and by how much, the ledger differs from a balance the bank stated.
    package var outOfBalance: OutOfBalance? = nil

    /// Creates a summary.
    package init(
        account: Account, transactionCount: Int, balance: Money, firstDate: Day?, lastDate: Day?,
        lastImport: String?
    ) {
        self.account = account
        self.transactionCount = transactionCount
        self.balance = balance
        self.firstDate = firstDate
        self.lastDate = lastDate
        self.lastImport = lastImport
    }

    package static func == (lhs: AccountSummary, rhs: AccountSummary) -> Bool {
        lhs.account == rhs.account && lhs.transactionCount == rhs.transactionCount
            && lhs.balance == rhs.balance && lhs.firstDate == rhs.firstDate
            && lhs.lastDate == rhs.lastDate && lhs.lastImport == rhs.lastImport
            && lhs.bankBalance?.assertion == rhs.bankBalance?.assertion
            && lhs.bankBalance?.ledger == rhs.bankBalance?.ledger
            && lhs.outOfBalance == rhs.outOfBalance
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(account)
        hasher.combine(balance)
        hasher.combine(transactionCount)
    }
}
