/// How one bank writes its statement CSV (<doc:Profiles>): the content of a profile.
///
/// The canonical CSV (<doc:Formats#Canonical-CSV>) is the dialect `Dialect()`, with the columns found by their
/// canonical names. A profile changes what differs: encoding, separator, quote, number and
/// date layouts, where the header stands, footer lines, which source columns feed which
/// canonical field, how the sign of an amount is written, and an account that the file names
/// only once (fixed in the profile or read from the preamble).
package struct Dialect: Hashable, Sendable {
    /// A field of a row: the one column vocabulary of canonical CSV and of profiles. Canonical
    /// CSV names its columns by the raw values; a profile maps its own columns to them, and
    /// may split an amount into `debit` and `credit` or give its sign in an `indicator`.
    package enum Field: String, CaseIterable, Hashable, Sendable, Comparable {
        case date
        case account = "account_iban"
        case accountName = "account_name"
        case amount, debit, credit, indicator, currency, beneficiary
        case beneficiaryIBAN = "beneficiary_iban"
        case description, reference, balance
        case transactionID = "transaction_id"
        case accountKind = "account_kind"
        /// Whether a row is booked or not yet (`Pending`, `Vorgemerkt`): see `notBooked`.
        case status
        /// A fee charged with the row, beside its amount (`Fee`): see `feeSign`.
        case fee

        /// The columns a canonical CSV header must name.
        package static let canonicalRequired: [Field] = [
            .date, .account, .amount, .beneficiary,
        ]

        /// Whether several source columns may be joined into this field (with a space).
        package var isJoinable: Bool { self == .beneficiary || self == .description }

        /// Whether canonical CSV has a column of this name (it has no split amounts).
        package var isCanonicalColumn: Bool {
            self != .debit && self != .credit && self != .indicator && self != .status
                && self != .fee
        }

        /// The field's place in `allCases`, for array lookups on the parser's hot path.
        var ordinal: Int {
            switch self {
            case .date: 0
            case .account: 1
            case .accountName: 2
            case .amount: 3
            case .debit: 4
            case .credit: 5
            case .indicator: 6
            case .currency: 7
            case .beneficiary: 8
            case .beneficiaryIBAN: 9
            case .description: 10
            case .reference: 11
            case .balance: 12
            case .transactionID: 13
            case .accountKind: 14
            case .status: 15
            case .fee: 16
            }
        }

        /// Finds the canonical column a header cell names, ignoring case, surrounding spaces
        /// and the choice of space, `-` or `_` between words; `counterparty` and
        /// `counterparty_iban` stand for `beneficiary` and `beneficiary_iban`, `account_id`
        /// for `account_iban` (either holds an IBAN or another account id).
        package init?(canonicalHeader header: String) {
            let key = header.trimmingCharacters(in: .whitespaces).lowercased()
                .replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
            switch key {
            case "counterparty": self = .beneficiary
            case "counterparty_iban": self = .beneficiaryIBAN
            case "account_id": self = .account
            default:
                guard let field = Field(rawValue: key), field.isCanonicalColumn else { return nil }
                self = field
            }
        }

        package static func < (lhs: Field, rhs: Field) -> Bool {
            lhs.ordinal < rhs.ordinal
        }
    }

    /// Whether the dialect maps its own columns: texts are then trimmed and may be joined
    /// from several columns, and a row whose beneficiary is blank takes its description (bank
    /// fees often have none). Canonical CSV keeps each text exactly and requires a
    /// beneficiary.
    package var joinsTexts: Bool { !columns.isEmpty }

    /// A source column, by its header text (compared ignoring case and surrounding spaces)
    /// or by its 1-based position.
    package enum ColumnReference: Hashable, Sendable {
        case name(String)
        case number(Int)
    }

    /// How a `fee` column counts (`feeSign`).
    package enum FeeSign: String, CaseIterable, Sendable {
        case deducted, signed
    }

    /// How the sign of an amount is written.
    package enum Sign: String, CaseIterable, Hashable, Sendable {
        /// One `amount` column with `-` for debits.
        case signed
        /// A `debit` and a `credit` column, one of them filled per row.
        case debitCredit = "debit-credit"
        /// A `debit` and a `credit` column that may both be filled on one row (money in and
        /// out at once, as a currency exchange): the amount is credit less debit.
        case inOut = "in-out"
        /// An unsigned `amount` and an `indicator` column saying debit or credit.
        case indicator
        /// One `amount` column with charges positive and payments `-`, as card statements
        /// write them; a `balance` column is then what is owed, and is negated too.
        case chargesPositive = "charges-positive"
    }

    /// A field of a preamble line: 1-based line of the file and 1-based field of that line.
    package struct PreamblePosition: Hashable, Sendable {
        package var line: Int
        package var field: Int
    }

    /// What a preamble may tell about the account: its IBAN, name and currency, and the
    /// statement's opening and closing balances, which the rows are reconciled with.
    package enum PreambleItem: String, CaseIterable, Hashable, Sendable {
        case iban, name, currency, openingBalance, closingBalance
    }

    package var encoding: TextEncoding = .utf8
    package var separator: UInt8 = UInt8(ascii: ",")
    package var quote: UInt8 = UInt8(ascii: "\"")
    package var amountFormat: AmountFormat = .canonical
    package var dateFormat: DateFormat = .iso
    /// The 1-based line of the header row; lines above it are the preamble.
    package var headerLine = 1

    /// Whether the file has no header row (`headerLine` 0): every line is a row, and the
    /// columns are known only by number.
    package var hasNoHeader: Bool { headerLine == 0 }
    /// How many non-empty lines at the end of the file are not transactions.
    package var footerLines = 0
    /// Whether rows are listed newest first, for the running balance check.
    package var isNewestFirst = false
    /// The source columns of each field; empty for the canonical dialect.
    package var columns: [Field: [ColumnReference]] = [:]
    package var sign: Sign = .signed
    /// How a `fee` column counts: taken from the amount (`deducted`, Revolut's `Fee`: an
    /// amount of -50.00 with a fee of 1.00 is -51.00 to the account), or added with its own
    /// sign (`signed`: a fee of -1.00).
    package var feeSign: FeeSign = .deducted

    /// The texts of an `indicator` column that mark a debit and a credit (compared ignoring
    /// case and surrounding spaces).
    package var debitIndicators: [String] = []
    package var creditIndicators: [String] = []
    /// The texts of a `status` column that mark a row not booked yet (compared ignoring case
    /// and surrounding spaces): such rows are left out, and counted.
    package var notBooked: [String] = []
    /// The accounts of a file that names several in a column (`Checking`, `Savings`): the
    /// id of each, by `accountNameKey` of the column's text.
    package var accountsByName: [String: AccountID] = [:]
    /// An account the profile fixes for files that do not name it in each row.
    package var accountID: AccountID?
    package var accountName: String?
    package var accountCurrency: Currency?
    /// The currencies of an account of several (`account.currencies`): each row goes to the
    /// pocket of its currency (`AccountID(_:pocket:)`); a row in another currency is an error.
    package var accountCurrencies: [Currency] = []
    package var accountKind: Account.Kind?
    /// Where the preamble names the account.
    package var preamble: [PreambleItem: PreamblePosition] = [:]
    /// Where the footer declares the statement's balances: `line` counts the footer's
    /// non-empty lines from the file's last (1) up.
    package var footer: [PreambleItem: PreamblePosition] = [:]
    /// Whether the dialect fixes only the account (a profile with `account` alone, or
    /// `--account`): each file's layout is then sniffed, with this account for files that do
    /// not name theirs.
    package var sniffsLayout = false

    /// The canonical CSV dialect.
    package init() {}

    /// How an account column's text is matched: without surrounding spaces, in lower case.
    package static func accountNameKey(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether this is canonical CSV (<doc:Formats#Canonical-CSV>), read by the streaming fast path.
    package var isCanonical: Bool { self == Dialect() }

    /// Whether a preamble or footer declares the statement's balances.
    var declaresBalances: Bool {
        [PreambleItem.openingBalance, .closingBalance].contains {
            preamble[$0] != nil || footer[$0] != nil
        }
    }

    /// The dialect that fixes only `id` as the account, the layout being sniffed.
    package static func sniffing(account id: AccountID) -> Dialect {
        var dialect = Dialect()
        dialect.accountID = id
        dialect.sniffsLayout = true
        return dialect
    }

    /// Whether a column, the profile or the preamble gives the account of each row.
    package var namesAccount: Bool {
        columns[.account] != nil || accountID != nil || preamble[.iban] != nil
    }
}
