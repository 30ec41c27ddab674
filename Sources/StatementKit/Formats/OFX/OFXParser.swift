import Foundation

/// Reads OFX bank and credit card statements into validated transactions, streaming: OFX 1.x
/// (an SGML header of `KEY:VALUE` lines, then tags whose values need no closing tag), OFX 2.x
/// (XML) and Quicken's QFX, which is OFX 1.x.
///
/// Per statement (`STMTRS` or `CCSTMTRS`, several per file): the currency `CURDEF`; the
/// account from `BANKACCTFROM` (`BANKID`, `ACCTID`, `ACCTTYPE`: a US routing number and
/// account number become `aba:`, any other `name:`) or `CCACCTFROM` (a card: `card:` with the
/// issuer from `FI/ORG` and the last four digits of `ACCTID`); per `STMTTRN` `DTPOSTED`
/// (`YYYYMMDD`, with or without a time and a zone such as `[-5:EST]`: the day as written),
/// `TRNAMT` (signed, `.` or `,` as decimal mark, digits grouped by spaces in threes allowed;
/// in `CURRENCY/CURSYM` when that aggregate is given, converted to `CURDEF` at its `CURRATE`,
/// see `OFXParser+Currency.swift`), `FITID` as the transaction id, `NAME` or
/// `PAYEE/NAME` as the counterparty, `MEMO` as the description, `CHECKNUM` and `REFNUM` as the
/// reference; `LEDGERBAL/BALAMT` is the balance after the statement, which gives a new
/// account its opening balance. The header's `CHARSET:1252` (or `ISO-8859-1`) is honoured;
/// text that is not valid UTF-8 is read as Windows-1252.
package struct OFXParser: Sendable {
    /// Whether valid rows are built and handed to `onRow`; `validate` checks them only.
    var buildsRows = true
}

extension OFXParser: StatementParser {
    static let formatName = "OFX/QFX"
    static let readsUTF16 = true

    /// The OFX 1 header `OFXHEADER:100`, OFX 2's `<?OFX OFXHEADER="200"?>`, or `<OFX>`, in
    /// any case, within the first kilobyte.
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        let upper = head.prefix(1024).map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }
        return upper.firstRange(of: Array("OFXHEADER".utf8)) != nil
            || upper.firstRange(of: Array("<OFX>".utf8)) != nil
    }
}

extension OFXParser.State {
    /// Hands the reader's events to the state, to the end of the file or its first syntax
    /// error.
    mutating func read<Source: ByteSource>(_ source: Source, _ onRow: (ParsedRow) -> Void) {
        var reader = OFXReader(source: source, names: OFXParser.Tag.names)
        readEvents { (state) throws(XMLSyntaxError) in
            while let event = try reader.next() { state.handle(event, &reader, onRow) }
        }
    }
}

extension OFXParser {
    /// The tags the reader looks for, numbered first in the reader's name table.
    enum Tag: KnownNames {
        case stmtrs, ccstmtrs, stmttrn, payee, curdef, bankacctfrom, ccacctfrom, bankid, acctid
        case accttype, ledgerbal, balamt, dtasof, fi, org, dtposted, trnamt, fitid, name, memo
        case checknum, refnum, trntype, currency, origcurrency, currate, cursym

        /// The tag as OFX spells it: the case's name in capitals.
        var spelling: String { "\(self)".uppercased() }

        static let all = allCases
        static let names = all.map(\.spelling)

        /// Where a transaction keeps the tag's value, if it is one of a transaction's.
        var valueIndex: Int? {
            switch self {
            case .dtposted: 0
            case .trnamt: 1
            case .fitid: 2
            case .name: 3
            case .memo: 4
            case .checknum: 5
            case .refnum: 6
            case .trntype: 7
            case .currate: 8
            case .cursym: 9
            default: nil
            }
        }
    }

    /// The longest value kept for a row (a name, a memo, an id), in UTF-8 bytes: OFX allows
    /// 255 characters at most (`MEMO`), and a ledger keeps no megabytes from one booking.
    static let maximumKeptText = 8192

    struct Statement {
        /// Where its aggregate starts.
        let start: SourcePosition
        let isCard: Bool
        var currency: PlacedText?
        var from = AccountFrom()
        var account: Account? {
            didSet { idPrefix = account.map { TransactionIdentity.transactionIDPrefix($0.id) } }
        }
        /// What the keys of the account's transaction ids start with.
        var idPrefix: StableHasher?
        var accountChecked = false
        var ledgerBalance: PlacedText?
        /// The day of `LEDGERBAL/DTASOF`.
        var ledgerDay: Day?
        var total: Int64 = 0
        var isValid = true
    }

    /// `BANKACCTFROM` or `CCACCTFROM` as the statement gives it.
    struct AccountFrom {
        var bankID: String?
        var accountID: PlacedText?
        var accountType: String?
    }

    /// Where a transaction's value stands in its `text`, and in the file.
    struct PlacedValue {
        let range: Range<Int>
        let line: Int
        let column: Int
    }

    /// The `STMTTRN` being read; one, reused, so that a transaction allocates nothing: its
    /// values are kept as UTF-8 one after another, and made strings only for a row built.
    struct Transaction {
        var line = 0
        var isOpen = false
        /// The value of each tag with a `valueIndex`.
        var values = [PlacedValue?](repeating: nil, count: 10)
        var text: [UInt8] = []
        /// `CURRENCY` or `ORIGCURRENCY`, whichever aggregate the transaction has.
        var currencyKind: Tag?
        /// The errors of the file before the transaction: one reported in it (a value given
        /// twice, one too long) keeps it from being a row.
        var errorsBefore = 0

        subscript(_ tag: Tag) -> PlacedValue? { values[tag.valueIndex!] }

        /// The bytes of a value.
        func bytes(_ value: PlacedValue) -> ArraySlice<UInt8> { text[value.range] }

        /// The tag's value as a string, `nil` when the tag is absent or empty.
        func string(_ tag: Tag) -> String? {
            self[tag].flatMap {
                $0.range.isEmpty ? nil : String(decoding: text[$0.range], as: UTF8.self)
            }
        }

        /// The tag's value as a row's text: `nil` also when it is blank (`<NAME>&nbsp;`), which
        /// says nothing, so that the row falls back as when it is absent.
        func text(_ tag: Tag) -> String? {
            string(tag).flatMap { $0.isBlank ? nil : $0 }
        }

        mutating func open(line: Int) {
            self.line = line
            isOpen = true
            for index in values.indices { values[index] = nil }
            text.removeAll(keepingCapacity: true)
            currencyKind = nil
        }

        /// Keeps the value of the reader's leaf as the tag's; `false` when the tag had one,
        /// which is kept.
        mutating func keep<S>(
            _ index: Int, from reader: borrowing OFXReader<S>, line: Int, column: Int
        )
            -> Bool
        {
            guard values[index] == nil else { return false }
            let start = text.count
            reader.appendValue(to: &text)
            values[index] = PlacedValue(range: start..<text.count, line: line, column: column)
            return true
        }
    }
}
