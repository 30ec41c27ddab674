import Foundation

/// The elements a camt parse looks for, and what it gathers of entries, balances, statements.
extension CamtParser {
    /// The elements the reader looks for, numbered first in the reader's name table.
    enum Element: KnownNames {
        case bkToCstmrStmt, bkToCstmrAcctRpt, bkToCstmrDbtCdtNtfctn, stmt, rpt, ntfctn, bal, ntry
        case txDtls, amt, acct, id, othr, iban, ccy, cd, tp, cdOrPrtry, cdtDbtInd, sts, dt, dtTm
        case bookgDt, acctSvcrRef, addtlNtryInf, txAmt, nm, dbtr, cdtr, pty, dbtrAcct, cdtrAcct
        case ustrd, rmtInf, ref, cdtrRefInf, endToEndId, refs, addtlTxInf, ntryDtls, amtDtls
        case rltdPties

        /// The element as camt spells it: the case's name with a capital first letter, and
        /// `IBAN` in capitals.
        var spelling: String {
            self == .iban ? "IBAN" : "\(self)".prefix(1).uppercased() + "\(self)".dropFirst()
        }

        static let all = allCases
        static let names = all.map(\.spelling)

        static let statements: Set<Element> = [
            .bkToCstmrStmt, .bkToCstmrAcctRpt, .bkToCstmrDbtCdtNtfctn,
        ]

        /// The element whose bit (`1 << number`) is the element's slot in `parent`, when the
        /// schema allows it there once at most: itself, or the first of a choice; `nil` for
        /// one that may repeat, or whose repetition nothing read depends on.
        @inline(__always)
        func slot(in parent: Element) -> Element? {
            // By parent first: most parents have no such child, and each switch is a jump.
            switch parent {
            case .stmt, .rpt, .ntfctn: self == .acct ? self : nil
            case .acct: self == .id || self == .ccy ? self : nil
            // A choice: an account is an IBAN or another id.
            case .id: self == .iban || self == .othr ? .iban : nil
            case .othr, .dbtrAcct, .cdtrAcct: self == .id ? self : nil
            case .bal: self == .tp || self == .amt || self == .cdtDbtInd ? self : nil
            case .tp: self == .cdOrPrtry ? self : nil
            case .cdOrPrtry, .sts: self == .cd ? self : nil
            case .ntry:
                switch self {
                case .amt, .cdtDbtInd, .sts, .bookgDt, .acctSvcrRef, .addtlNtryInf: self
                default: nil
                }
            // A choice: a day is a date, or a date and time.
            case .bookgDt: self == .dt || self == .dtTm ? .dt : nil
            case .txDtls:
                switch self {
                case .amt, .cdtDbtInd, .refs, .rltdPties, .rmtInf, .amtDtls, .addtlTxInf: self
                default: nil
                }
            case .amtDtls: self == .txAmt ? self : nil
            case .txAmt: self == .amt ? self : nil
            case .refs: self == .acctSvcrRef || self == .endToEndId ? self : nil
            case .rltdPties:
                self == .dbtr || self == .cdtr || self == .dbtrAcct || self == .cdtrAcct
                    ? self : nil
            case .dbtr, .cdtr: self == .nm || self == .pty ? self : nil
            case .pty: self == .nm ? self : nil
            case .cdtrRefInf: self == .ref ? self : nil
            default: nil
            }
        }

        /// The bits of the choices' first elements, `iban` and `dt`.
        static let choiceBits = (
            iban: UInt64(1) << all.firstIndex(of: .iban)!, dt: UInt64(1) << all.firstIndex(of: .dt)!
        )
    }

    /// The longest value kept for a row (a name, the description, a reference), in UTF-8
    /// bytes: a bank's text fields are far shorter (`Ustrd` 140 characters, `AddtlNtryInf`
    /// 500), and a ledger keeps no megabytes of text from one booking.
    static let maximumKeptText = 8192

    /// An amount as camt states it: `Amt`, its `Ccy` attribute, and the `CdtDbtInd` beside
    /// it that gives its sign (an entry's, a balance's, a `TxDtls`'s).
    struct StatedAmount {
        var text: PlacedText?
        var currency: String?
        var indicator: String?
    }

    /// One `TxDtls` of an entry.
    struct Details {
        var amount = StatedAmount()
        /// How many bytes the `Ustrd` lines hold together.
        var unstructuredLength = 0
        var debtorName: String?
        var creditorName: String?
        var debtorIBAN: PlacedText?
        var creditorIBAN: PlacedText?
        var unstructured: [String] = []
        var creditorReference: String?
        var endToEndID: String?
        var reference: String?
        var additional: String?
    }

    struct Entry {
        let line: Int
        /// The errors of the file before the entry: one reported in it (an element given
        /// twice or misplaced, a text too long) keeps it from being a row.
        var errorsBefore = 0
        var amount = StatedAmount()
        var status: String?
        var bookingDate: PlacedText?
        var serviceReference: String?
        var additional: String?
    }

    struct Balance {
        var type: String?
        var amount = StatedAmount()
        /// `Dt/Dt`, or the day of `Dt/DtTm`.
        var date: String?
        let line: Int
    }

    struct Statement {
        /// Where its element starts.
        let start: SourcePosition
        let isInterim: Bool
        var stated = StatedAccount()
        var account: Account?
        var accountChecked = false
        var balances: [Balance] = []
        var total: Int64 = 0
        var isValid = true
    }

    /// `Acct` as the statement gives it: `Id/IBAN` or `Id/Othr/Id`, and `Ccy`.
    struct StatedAccount {
        var iban: PlacedText?
        var otherID: PlacedText?
        var currency: PlacedText?
    }
}
