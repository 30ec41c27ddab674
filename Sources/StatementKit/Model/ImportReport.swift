/// What an import did with one file.
public struct FileImport: Hashable, Sendable {
    /// The outcome of one file.
    public enum Outcome: Hashable, Sendable {
        /// Some transactions were new; the rest were in the ledger already.
        case imported(new: Int, present: Int)
        /// Every transaction of the file was in the ledger already.
        case alreadyPresent(Int)
        /// The file had errors (or could not be read); nothing of it was imported.
        case rejected
    }

    public let outcome: Outcome
    /// The file's diagnostics, as `validate` reports them.
    public let validation: FileValidation

    /// Creates the outcome of one file.
    public init(outcome: Outcome, validation: FileValidation) {
        self.outcome = outcome
        self.validation = validation
    }
}

/// What one `import` run did.
public struct ImportReport: Hashable, Sendable {
    /// One entry per file, in the order the files were found.
    public let files: [FileImport]
    /// Whether the run only reported what it would do.
    public let isDryRun: Bool
    /// The months whose statements the run changed: every month it added transactions to, and
    /// each later month of the same accounts, whose opening balance moved with them.
    public let changedMonths: Set<Month>
    /// The ledger's generation before the run and after it, read under the writer lock: the
    /// run changed the ledger from the one to the other and nothing else came between.
    public let generations: (before: Int, after: Int)

    /// Creates a report.
    public init(
        files: [FileImport], isDryRun: Bool, changedMonths: Set<Month> = [],
        generations: (before: Int, after: Int) = (0, 0)
    ) {
        self.files = files
        self.isDryRun = isDryRun
        self.changedMonths = changedMonths
        self.generations = generations
    }

    public static func == (lhs: ImportReport, rhs: ImportReport) -> Bool {
        lhs.files == rhs.files && lhs.isDryRun == rhs.isDryRun
            && lhs.changedMonths == rhs.changedMonths && lhs.generations == rhs.generations
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(files)
        hasher.combine(changedMonths)
        hasher.combine(generations.after)
    }

    /// The transactions added to the ledger (or that would be, in a dry run).
    public var newCount: Int {
        files.reduce(0) {
            switch $1.outcome {
            case .imported(let new, _): $0 + new
            default: $0
            }
        }
    }

    /// The transactions that were in the ledger already.
    public var presentCount: Int {
        files.reduce(0) {
            switch $1.outcome {
            case .imported(_, let present), .alreadyPresent(let present): $0 + present
            case .rejected: $0
            }
        }
    }

    /// How many files were rejected.
    public var rejectedCount: Int { files.count { $0.outcome == .rejected } }
    /// Whether some path could not be read.
    public var hasEnvironmentError: Bool { files.contains { $0.validation.hasEnvironmentError } }
}

/// One account of the ledger with the figures `statements accounts` shows.
public struct AccountSummary: Hashable, Sendable {
    public let account: Account
    public let transactionCount: Int
    /// Opening balance plus every transaction, computed from the ledger.
    public let balance: Money
    public let firstDate: Day?
    public let lastDate: Day?
    /// When a run last added transactions (ISO 8601, UTC).
    public let lastImport: String?

    /// Creates a summary.
    public init(
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
}
