/// How one bank writes its statement CSV (SPEC 2.3): the content of a profile.
///
/// The canonical CSV of SPEC 2.1 is the dialect `Dialect()`, with the columns found by their
/// canonical names. A profile changes what differs: encoding, separator, quote, number and
/// date layouts, where the header stands, footer lines, which source columns feed which
/// canonical field, how the sign of an amount is written, and an account that the file names
/// only once (fixed in the profile or read from the preamble).
public struct Dialect: Hashable, Sendable {
    /// A canonical field, or one of the fields a bank may split an amount into.
    public enum Field: String, CaseIterable, Hashable, Sendable, Comparable {
        case date
        case accountIBAN = "account_iban"
        case accountName = "account_name"
        case amount, debit, credit, indicator, currency, beneficiary
        case beneficiaryIBAN = "beneficiary_iban"
        case description, reference, balance
        case transactionID = "transaction_id"

        /// Whether several source columns may be joined into this field (with a space).
        public var isJoinable: Bool { self == .beneficiary || self == .description }

        public static func < (lhs: Field, rhs: Field) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// A source column, by its header text (compared ignoring case and surrounding spaces)
    /// or by its 1-based position.
    public enum ColumnReference: Hashable, Sendable {
        case name(String)
        case number(Int)
    }

    /// How the sign of an amount is written.
    public enum Sign: String, CaseIterable, Hashable, Sendable {
        /// One `amount` column with `-` for debits.
        case signed
        /// A `debit` and a `credit` column, one of them filled per row.
        case debitCredit = "debit-credit"
        /// An unsigned `amount` and an `indicator` column saying debit or credit.
        case indicator
    }

    /// A field of a preamble line: 1-based line of the file and 1-based field of that line.
    public struct PreamblePosition: Hashable, Sendable {
        public var line: Int
        public var field: Int

        public init(line: Int, field: Int) {
            self.line = line
            self.field = field
        }
    }

    /// What a preamble may tell about the account.
    public enum PreambleItem: String, CaseIterable, Hashable, Sendable {
        case iban, name, currency
    }

    public var encoding: TextEncoding = .utf8
    public var separator: UInt8 = UInt8(ascii: ",")
    public var quote: UInt8 = UInt8(ascii: "\"")
    public var amountFormat: AmountFormat = .canonical
    public var dateFormat: DateFormat = .iso
    /// The 1-based line of the header row; lines above it are the preamble.
    public var headerLine = 1

    /// Whether the file has no header row (`headerLine` 0): every line is a row, and the
    /// columns are known only by number.
    public var hasNoHeader: Bool { headerLine == 0 }
    /// How many non-empty lines at the end of the file are not transactions.
    public var footerLines = 0
    /// Whether rows are listed newest first, for the running balance check.
    public var isNewestFirst = false
    /// The source columns of each field; empty for the canonical dialect.
    public var columns: [Field: [ColumnReference]] = [:]
    public var sign: Sign = .signed
    /// The texts of an `indicator` column that mark a debit and a credit (compared ignoring
    /// case and surrounding spaces).
    public var debitIndicators: [String] = []
    public var creditIndicators: [String] = []
    /// An account the profile fixes for files that do not name it in each row.
    public var accountIBAN: IBAN?
    public var accountName: String?
    public var accountCurrency: Currency?
    public var accountKind: Account.Kind?
    /// Where the preamble names the account.
    public var preamble: [PreambleItem: PreamblePosition] = [:]

    /// The canonical CSV dialect.
    public init() {}

    /// Whether this is the canonical CSV of SPEC 2.1, read by the streaming fast path.
    public var isCanonical: Bool { self == Dialect() }
}
