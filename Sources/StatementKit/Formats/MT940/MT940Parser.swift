import Foundation

/// Reads SWIFT MT940 customer statements (and MT942 interim reports) into validated
/// transactions, streaming line by line.
///
/// A file holds one statement or many, with or without the `{1:}{2:}{4:` … `-}` envelope,
/// of one account or several. Per statement: `:20:` opens it, `:25:` names the account (an
/// IBAN, with or without a currency after it, or a bank code and account number, kept as
/// `name:`), `:60F:`/`:60M:` the opening balance and its currency, each `:61:` an entry
/// (value date, entry date, `C`/`D`/`RC`/`RD`, the amount with a decimal comma, the type,
/// the customer reference and `//` the bank's reference, which is the transaction id) with
/// its `:86:` information, and `:62F:`/`:62M:` the closing balance, which the opening balance
/// plus the entries must make. `:86:` in the German `?20`–`?63` form and the Dutch `/NAME/`,
/// `/REMI/`, `/IBAN/`, `/CNTP/` form gives the counterparty and the purpose; any other text is
/// the description. Lines that are not valid UTF-8 are read as Windows-1252. An MT942's entries
/// are intraday and not bookings yet: they are checked, counted as not booked, and left out.
///
/// A line is copied once, into the text of its field (a buffer reused from field to field);
/// an entry keeps its references as ranges of that text, and strings are made only for the
/// rows that are built.
package struct MT940Parser: Sendable {
    /// Whether valid rows are built and handed to `onRow`; `validate` checks them only.
    let buildsRows: Bool

    package init(buildsRows: Bool = true) {
        self.buildsRows = buildsRows
    }

    package func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var reader = LineReader(source: source)
        var state = State(diagnostics: DiagnosticCollector(file: ""), buildsRows: buildsRows)
        swap(&state.diagnostics, &diagnostics)
        defer { swap(&state.diagnostics, &diagnostics) }
        do {
            let limit = reader.maximumLength
            while try reader.next({ line, number, wasCut in
                if wasCut {
                    state.diagnostics.report(
                        .mt940Syntax("a line longer than \(limit) bytes; the rest is not read"),
                        line: number, column: 1)
                }
                state.read(line: line, number: number, onRow)
            }) {}
        } catch {
            state.diagnostics.report(
                .unreadable(nil, .pathUnreadable, reason: "\(error)"), line: 0, column: 0)
            return state.summary
        }
        state.flushField(onRow)
        state.endStatement(onRow)
        if state.lineCount == 0 {
            state.diagnostics.report(.fileEmpty(requiring: "a :20: statement"), line: 1, column: 1)
        } else if state.summary.rowCount == 0 && !state.sawStatement {
            state.diagnostics.report(
                .noStatement(format: "MT940", first: ":20:"), line: 1, column: 1)
        }
        return state.summary
    }
}

extension MT940Parser {
    /// A field's tag, such as `61` or `60F`: two digits and up to two more digits or capital
    /// letters, packed into one integer so that telling tags apart compares one word.
    struct Tag: Hashable, CustomStringConvertible {
        private let packed: UInt32

        init(_ bytes: some Collection<UInt8>) {
            var packed: UInt32 = 0
            var shift: UInt32 = 0
            for byte in bytes.prefix(4) {
                packed |= UInt32(byte) << shift
                shift += 8
            }
            self.packed = packed
        }

        /// A tag from its characters' codes, the first in the lowest byte: constants, so
        /// that comparing with one loads nothing (`MT940ParserTests` checks each against its
        /// text).
        private init(packed: UInt32) {
            self.packed = packed
        }

        static var statement: Tag { Tag(packed: 0x3032) }  // 20
        static var account: Tag { Tag(packed: 0x3532) }  // 25
        static var openingFinal: Tag { Tag(packed: 0x46_3036) }  // 60F
        static var openingInterim: Tag { Tag(packed: 0x4D_3036) }  // 60M
        static var closingFinal: Tag { Tag(packed: 0x46_3236) }  // 62F
        static var closingInterim: Tag { Tag(packed: 0x4D_3236) }  // 62M
        static var entry: Tag { Tag(packed: 0x3136) }  // 61
        static var information: Tag { Tag(packed: 0x3638) }  // 86
        static var floorLimit: Tag { Tag(packed: 0x46_3433) }  // 34F
        static var dateTime: Tag { Tag(packed: 0x44_3331) }  // 13D
        static var debitCount: Tag { Tag(packed: 0x44_3039) }  // 90D
        static var creditCount: Tag { Tag(packed: 0x43_3039) }  // 90C

        /// The number of characters.
        var count: Int { (32 - packed.leadingZeroBitCount + 7) / 8 }

        var isClosing: Bool { self == .closingFinal || self == .closingInterim }

        var description: String {
            String(
                decoding: (0..<count).map { UInt8(truncatingIfNeeded: packed >> ($0 * 8)) },
                as: UTF8.self)
        }
    }

    /// The text of a field: the bytes of its lines one after another and where each line
    /// ends. One is kept per use and reused, so that reading a line allocates nothing.
    struct FieldText {
        private(set) var bytes: [UInt8] = []
        private var lineEnds: [Int] = []

        var lineCount: Int { lineEnds.count }

        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            lineEnds.removeAll(keepingCapacity: true)
        }

        mutating func append(_ line: UnsafeRawBufferPointer) {
            bytes.append(contentsOf: line)
            lineEnds.append(bytes.count)
        }

        /// The line at `index`; the first one starts at 0.
        func line(_ index: Int) -> ArraySlice<UInt8> {
            bytes[(index == 0 ? 0 : lineEnds[index - 1])..<lineEnds[index]]
        }

        /// The lines from `first` on joined: without a break where the text is cut at a
        /// fixed width (structured `?20` and `/NAME/` forms), with a space otherwise.
        func joined(from first: Int = 0) -> [UInt8] {
            guard first < lineCount else { return [] }
            let head = line(first)
            let structured = head.contains(UInt8(ascii: "?")) || head.first == UInt8(ascii: "/")
            var result: [UInt8] = []
            for index in first..<lineCount {
                if index > first && !structured { result.append(UInt8(ascii: " ")) }
                result += line(index)
            }
            return result
        }
    }

    /// A field being read: its tag and where it starts (its text is the state's `fieldText`).
    struct Field {
        let tag: Tag
        let line: Int
        /// Whether lines past `maximumFieldLines` were left out (and reported).
        var isCut = false
    }

    /// A `:61:` entry waiting for its `:86:`. Its text is the state's `entryText`, whose first
    /// line holds the references.
    struct Entry {
        let line: Int
        let date: Day
        let amount: Money
        /// The customer's reference, without spaces; `nil` when absent or `NONREF`.
        let customerReference: Range<Int>?
        /// The bank's reference, the transaction id, likewise.
        let bankReference: Range<Int>?
        let typeCode: Range<Int>
        /// Whether an `:86:` (the state's `informationText`) belongs to the entry.
        var hasInformation = false
    }

    /// A balance field: `:60F:`, `:62F:` and the like.
    struct Balance {
        let line: Int
        let money: Money
        /// The date the field gives.
        var day: Day? = nil
        /// Whether it is a final balance (`:60F:`, `:62F:`), not an intermediate one.
        var isFinal = true
    }

    /// The statement being read.
    struct Statement {
        let line: Int
        var account: Account? {
            didSet { idPrefix = account.map { TransactionIdentity.transactionIDPrefix($0.id) } }
        }
        /// What the keys of the account's transaction ids start with.
        var idPrefix: StableHasher?
        /// Whether a `:25:` was read, valid or not.
        var hasAccountField = false
        var opening: Balance?
        var closing: Balance?
        /// The currency of the entries: the opening balance's, or an MT942's floor limit's.
        var currency: Currency?
        var total: Int64 = 0
        var isValid = true
        var isInterim = false
    }

    struct State {
        var diagnostics: DiagnosticCollector
        var summary = ParseSummary()
        var field: Field?
        var statement: Statement?
        /// The entry of the statement waiting for its `:86:`.
        var entry: Entry?
        var fieldText = FieldText()
        var entryText = FieldText()
        var informationText = FieldText()
        var sawStatement = false
        var lineCount = 0
        /// The ids of the statement being read, to find one given to two of its bookings.
        /// Per statement, so that memory follows the largest statement, not the file; the
        /// same id in two statements of a file is the import's to judge (the ledger finds an
        /// id already there with another amount).
        var transactionIDs = TransactionIDChecker()
        /// The closing balance of each account's last statement, for the next one's opening.
        var lastClosing: [AccountID: Money] = [:]

        let buildsRows: Bool
        /// The most lines a field keeps (`:86:` has at most 6 of 65 characters).
        static let maximumFieldLines = 1000

        init(diagnostics: DiagnosticCollector, buildsRows: Bool) {
            self.diagnostics = diagnostics
            self.buildsRows = buildsRows
        }

        /// Reads a line: as it is when it is ASCII, else as UTF-8, or as Windows-1252 when it
        /// is not valid UTF-8.
        mutating func read(
            line raw: UnsafeRawBufferPointer, number: Int, _ onRow: (ParsedRow) -> Void
        ) {
            lineCount += 1
            var high: UInt8 = 0
            for byte in raw { high |= byte }
            if high < 0x80 || String(validating: raw, as: UTF8.self) != nil {
                read(text: raw, number: number, onRow)
            } else {
                TextEncoding.windows1252.utf8(from: Array(raw)).withUnsafeBytes {
                    read(text: $0, number: number, onRow)
                }
            }
        }

        /// Reads a line of UTF-8 text.
        mutating func read(
            text: UnsafeRawBufferPointer, number: Int, _ onRow: (ParsedRow) -> Void
        ) {
            var line = text[...]
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            // The envelope: `{1:…}{2:…}{4:` before the fields, `-}` after them.
            if line.first == UInt8(ascii: "{") {
                guard
                    let block4 = line.indices.first(where: {
                        line[$0...].starts(with: "{4:".utf8)
                    })
                else { return }
                line = line[(block4 + 3)...]
                if line.isEmpty { return }
            }
            let start = line.startIndex
            // `-` ends a statement; `-}` ends the envelope, a trailer `{5:…}` may follow.
            if line.first == UInt8(ascii: "-"),
                line.count == 1 || line[start + 1] == UInt8(ascii: "}")
                    || line[start + 1] == UInt8(ascii: " ")
            {
                flushField(onRow)
                endStatement(onRow)
                return
            }
            if line.first == UInt8(ascii: ":") {
                guard let (tag, valueStart) = Self.tag(line) else {
                    flushField(onRow)
                    diagnostics.report(
                        .mt940Syntax(
                            "\(Self.quoted(line.prefix(8))) is not a field tag such as :61:"),
                        line: number, column: 1)
                    if statement != nil { statement!.isValid = false }
                    return
                }
                flushField(onRow)
                field = Field(tag: tag, line: number)
                fieldText.removeAll()
                fieldText.append(UnsafeRawBufferPointer(rebasing: line[valueStart...]))
                return
            }
            // A line of the field before (the supplementary details of a :61:, :86: text),
            // or, outside a field, a header line of the bank's (`ABNANL2A`, `940`). A field
            // keeps at most `maximumFieldLines` lines, so that memory stays bounded.
            guard let current = field else { return }
            if fieldText.lineCount == Self.maximumFieldLines && !current.isCut {
                field!.isCut = true
                diagnostics.report(
                    .mt940Syntax(
                        ":\(current.tag): more than \(Self.maximumFieldLines) lines; the rest is not read"
                    ), line: number, column: 1)
                if statement != nil { statement!.isValid = false }
            }
            if fieldText.lineCount < Self.maximumFieldLines {
                fieldText.append(UnsafeRawBufferPointer(rebasing: line))
            }
        }

        /// Input bytes quoted for a message.
        static func quoted(_ bytes: some Collection<UInt8>) -> String {
            Array(bytes).withUnsafeBytes { Diagnostic.quote(bytes: $0) }
        }

        /// The tag of a field line `:61:…` and where its value starts.
        static func tag(_ line: Slice<UnsafeRawBufferPointer>) -> (Tag, Int)? {
            let start = line.startIndex
            var index = start + 1
            while index < line.endIndex, index <= start + 4,
                line[index] &- 48 < 10 || (line[index] >= 0x41 && line[index] <= 0x5A)
            {
                index += 1
            }
            guard index >= start + 3, index < line.endIndex, line[index] == UInt8(ascii: ":"),
                line[start + 1] &- 48 < 10, line[start + 2] &- 48 < 10
            else { return nil }
            return (Tag(line[(start + 1)..<index]), index + 1)
        }

        mutating func flushField(_ onRow: (ParsedRow) -> Void) {
            guard let field else { return }
            self.field = nil
            let value = fieldText.line(0)
            let valueColumn = field.tag.count + 3
            switch field.tag {
            case .statement:
                endStatement(onRow)
                statement = Statement(line: field.line)
                transactionIDs = TransactionIDChecker()
                sawStatement = true
            case .account:
                openStatement(field)
                // One account per statement: a second `:25:` would move the entries after it
                // to another account without a word.
                guard !statement!.hasAccountField else {
                    return report(
                        .mt940Syntax(
                            ":25: a second account in the statement of line \(statement!.line)"),
                        line: field.line, column: 1)
                }
                statement!.hasAccountField = true
                account(String(decoding: value, as: UTF8.self), field, column: valueColumn)
            case .openingFinal, .openingInterim, .closingFinal, .closingInterim:
                openStatement(field)
                if field.tag.isClosing { flushEntry(onRow) }
                balance(field, value, column: valueColumn)
            case .entry:
                openStatement(field)
                flushEntry(onRow)
                entry(field, column: valueColumn)
            case .information:
                guard entry != nil else { return }  // a statement's own information
                swap(&informationText, &fieldText)
                entry!.hasInformation = true
            case .floorLimit:
                // An MT942's floor limit, `EUR0,`: the currency of its entries.
                openStatement(field)
                statement!.isInterim = true
                statement!.currency = Currency(
                    code: String(decoding: value.prefix(3), as: UTF8.self))
            case .dateTime, .debitCount, .creditCount:
                statement?.isInterim = true
            default:
                break  // :21:, :28C:, :64:, :65: carry no transactions
            }
        }

        /// Opens a statement for a field before any `:20:`.
        mutating func openStatement(_ field: Field) {
            if statement == nil {
                statement = Statement(line: field.line)
                transactionIDs = TransactionIDChecker()
                sawStatement = true
            }
        }

        mutating func report(_ message: DiagnosticMessage, line: Int, column: Int) {
            diagnostics.report(message, line: line, column: column)
            if message.code.defaultSeverity == .error { statement?.isValid = false }
        }
        mutating func account(_ text: String, _ field: Field, column: Int) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            var candidates = [trimmed]
            // Some banks write the currency after the IBAN: `DE89…3000EUR`.
            if trimmed.count > 3, trimmed.suffix(3).allSatisfy({ $0.isLetter }) {
                candidates.append(String(trimmed.dropLast(3)).trimmingCharacters(in: .whitespaces))
            }
            var defect: (candidate: String, error: IBANError)?
            for candidate in candidates {
                do throws(IBANError) {
                    let iban = try IBAN(parsing: candidate)
                    statement!.account = Account(
                        id: AccountID(iban), name: nil, kind: .checking, currency: .eur)
                    return
                } catch {
                    switch error {
                    case .invalidStructure, .checksumMismatch: defect = defect ?? (candidate, error)
                    case .illegalCharacter, .unknownCountry, .wrongLength: break
                    }
                }
            }
            // A registered country and exactly its length, but wrong inside: an IBAN mistyped
            // or damaged, never taken for another kind of account number (that would be
            // another account, silently).
            if let defect {
                report(
                    .iban(":25:", Diagnostic.quote(defect.candidate), defect.error),
                    line: field.line, column: column)
                return
            }
            // A bank code and an account number, `37040044/0532013000`, kept as a name.
            do throws(AccountIDParseError) {
                let id = try AccountID(accountNumber: trimmed)
                statement!.account = Account(id: id, name: nil, kind: .checking, currency: .eur)
            } catch {
                report(
                    .accountID(":25:", Diagnostic.quote(trimmed), error), line: field.line,
                    column: column)
            }
        }

        /// Reads `C261001EUR1000,00`: the mark, the date, the currency and the amount.
        mutating func balance(_ field: Field, _ value: ArraySlice<UInt8>, column: Int) {
            let text = String(decoding: value, as: UTF8.self).trimmingCharacters(
                in: .whitespaces)
            let bytes = Array(text.utf8)
            guard bytes.count >= 11, bytes[0] == UInt8(ascii: "C") || bytes[0] == UInt8(ascii: "D")
            else {
                report(
                    .mt940Syntax(
                        ":\(field.tag): \(Diagnostic.quote(text)) is not a balance such as C261001EUR1000,00"
                    ), line: field.line, column: column)
                return
            }
            guard Self.day(bytes[1..<7]) != nil else {
                report(
                    .mt940Syntax(
                        ":\(field.tag): \(Diagnostic.quote(String(text.dropFirst().prefix(6)))) is not a date YYMMDD"
                    ),
                    line: field.line, column: column + 1)
                return
            }
            let code = String(decoding: bytes[7..<10], as: UTF8.self)
            guard let currency = Currency(code: code) else {
                report(
                    .currency(":\(field.tag): currency", Diagnostic.quote(code)), line: field.line,
                    column: column + 7)
                return
            }
            guard var money = amount(bytes[10...], currency, field, column: column + 10) else {
                return
            }
            if bytes[0] == UInt8(ascii: "D") { money = money.negated }
            let balance = Balance(
                line: field.line, money: money, day: Self.day(bytes[1..<7]),
                isFinal: field.tag != .openingInterim && field.tag != .closingInterim)
            // One opening and one closing balance per statement: a second is not taken to
            // replace the first.
            if let first = field.tag.isClosing ? statement!.closing : statement!.opening {
                report(
                    .mt940Syntax(
                        ":\(field.tag): a second \(field.tag.isClosing ? "closing" : "opening") balance in the statement (the first is on line \(first.line))"
                    ), line: field.line, column: 1)
                return
            }
            if !field.tag.isClosing {
                statement!.opening = balance
                statement!.currency = currency
                // The opening balance gives the account its currency.
                if let account = statement!.account {
                    statement!.account = Account(
                        id: account.id, name: nil, kind: .checking, currency: currency)
                }
            } else {
                statement!.closing = balance
            }
        }

        /// The number of two ASCII digits at `index`.
        static func twoDigits(_ bytes: ArraySlice<UInt8>, at index: Int) -> Int {
            Int(bytes[index] &- 48) * 10 + Int(bytes[index + 1] &- 48)
        }

        /// A date `YYMMDD`: years 80–99 are 1980–1999, the others 2000–2079.
        static func day(_ bytes: ArraySlice<UInt8>) -> Day? {
            guard bytes.count == 6, bytes.allSatisfy({ $0 &- 48 < 10 }) else { return nil }
            let start = bytes.startIndex
            let year = twoDigits(bytes, at: start)
            return try? Day(
                year: year >= 80 ? 1900 + year : 2000 + year,
                month: twoDigits(bytes, at: start + 2), day: twoDigits(bytes, at: start + 4))
        }

        /// A reference within `range` of an entry's line, without surrounding spaces; `nil`
        /// when nothing is left or it is `NONREF` in any case (compared over bytes: ASCII
        /// letters differ by 0x20).
        static func reference(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>) -> Range<Int>? {
            var (start, end) = (range.lowerBound, range.upperBound)
            while start < end && bytes[start] == UInt8(ascii: " ") { start += 1 }
            while end > start && bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            guard start < end else { return nil }
            guard end - start == 6 else { return start..<end }
            let none: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (78, 79, 78, 82, 69, 70)
            let isNone =
                bytes[start] & 0xDF == none.0 && bytes[start + 1] & 0xDF == none.1
                && bytes[start + 2] & 0xDF == none.2 && bytes[start + 3] & 0xDF == none.3
                && bytes[start + 4] & 0xDF == none.4 && bytes[start + 5] & 0xDF == none.5
            return isNone ? nil : start..<end
        }

        /// Reads a `:61:` line: `2610031003DR12,50NMSCNONREF//BANKREF123`.
        mutating func entry(_ field: Field, column: Int) {
            summary.rowCount += 1
            let bytes = fieldText.line(0)
            func fail(_ what: String, at offset: Int) {
                report(
                    .mt940Syntax(":61: \(what) in \(Self.quoted(bytes))"),
                    line: field.line, column: column + offset)
            }
            guard let currency = statement!.currency else {
                let needed = statement!.isInterim ? ":34F:" : ":60F:"
                report(.elementMissing(needed, before: ":61:"), line: field.line, column: 1)
                return
            }
            guard bytes.count >= 6, let valueDate = Self.day(bytes[0..<6]) else {
                return fail("the value date (YYMMDD) is missing or not a day", at: 0)
            }
            var index = 6
            var date = valueDate
            // The entry date MMDD, in the value date's year or the one next to it.
            if bytes.count >= 10, bytes[6..<10].allSatisfy({ $0 &- 48 < 10 }) {
                let (month, day) = (Self.twoDigits(bytes, at: 6), Self.twoDigits(bytes, at: 8))
                var year = valueDate.year
                if month == 12 && valueDate.month == 1 { year -= 1 }
                if month == 1 && valueDate.month == 12 { year += 1 }
                guard let entryDate = try? Day(year: year, month: month, day: day) else {
                    return fail("the entry date (MMDD) is not a day", at: 6)
                }
                date = entryDate
                index = 10
            }
            var isReversal = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "R") {
                isReversal = true
                index += 1
            }
            guard index < bytes.count,
                bytes[index] == UInt8(ascii: "C") || bytes[index] == UInt8(ascii: "D")
            else {
                return fail("the mark C, D, RC or RD is missing", at: index)
            }
            let isDebit = bytes[index] == UInt8(ascii: "D")
            index += 1
            // An optional funds code: the third letter of the currency code.
            if index < bytes.count, bytes[index] >= 0x41, bytes[index] <= 0x5A { index += 1 }
            // The amount (15d) runs to the first letter, where the type code (1!a3!c) starts:
            // a point, a sign or a space stays in it and is reported, never taken for the type.
            let amountStart = index
            while index < bytes.count, !Self.isLetter(bytes[index]) { index += 1 }
            guard index > amountStart else { return fail("the amount is missing", at: amountStart) }
            guard
                var money = amount(
                    bytes[amountStart..<index], currency, field, column: column + amountStart)
            else { return }
            // Money out: a debit, or the reversal of a credit.
            if isDebit != isReversal { money = money.negated }
            guard index + 4 <= bytes.count else {
                return fail("the transaction type (such as NTRF) is missing", at: index)
            }
            let typeCode = index..<index + 4
            guard Self.isTypeCode(bytes[typeCode]) else {
                report(
                    .mt940TypeCode(Self.quoted(bytes[typeCode])), line: field.line,
                    column: column + index)
                return
            }
            index += 4
            // The customer's reference, `//` and the bank's.
            var split = index
            while split + 1 < bytes.count
                && !(bytes[split] == UInt8(ascii: "/") && bytes[split + 1] == UInt8(ascii: "/"))
            {
                split += 1
            }
            let hasBankReference = split + 1 < bytes.count
            entry = Entry(
                line: field.line, date: date, amount: money,
                customerReference: Self.reference(
                    bytes, index..<(hasBankReference ? split : bytes.count)),
                bankReference: hasBankReference
                    ? Self.reference(bytes, split + 2..<bytes.count) : nil,
                typeCode: typeCode)
            swap(&entryText, &fieldText)
        }

        /// Builds the transaction of the waiting entry and hands it on.
        mutating func flushEntry(_ onRow: (ParsedRow) -> Void) {
            guard let entry else { return }
            self.entry = nil
            if statement!.isInterim {
                summary.notBookedCount += 1
                return
            }
            guard let account = statement!.account else {
                statement!.isValid = false
                return
            }
            let (total, overflow) = statement!.total.addingReportingOverflow(
                entry.amount.minorUnits)
            guard !overflow else {
                report(.sumOverflow, line: entry.line, column: 1)
                return
            }
            statement!.total = total
            let line = entryText.line(0)
            func text(_ range: Range<Int>?) -> String? {
                range.map { String(decoding: line[$0], as: UTF8.self) }
            }
            // The key of the bank's reference, hashed from its bytes: most rows never need
            // it as a string.
            let key = entry.bankReference.map { range in
                line[range].withUnsafeBytes {
                    TransactionIdentity(prefix: statement!.idPrefix!, transactionID: $0).hash
                }
            }
            guard buildsRows else {
                // Checked, not built: only a transaction id given to two bookings can be wrong.
                if let key,
                    let conflict = transactionIDs.check(
                        key: key, id: text(entry.bankReference)!, amount: entry.amount,
                        date: entry.date, line: entry.line)
                {
                    report(conflict, line: entry.line, column: 1)
                }
                return
            }
            let information = entry.hasInformation ? informationText.joined() : nil
            let details = Information(information ?? [])
            let customerReference = text(entry.customerReference)
            let description =
                details.purpose ?? information.flatMap { $0.trimmedText }
                ?? entryText.joined(from: 1).trimmedText
            let beneficiary =
                details.name ?? description ?? customerReference ?? text(entry.typeCode)!
            let transaction = Transaction(
                date: entry.date, amount: entry.amount, beneficiary: beneficiary,
                beneficiaryIBAN: details.iban, description: description,
                reference: details.reference ?? customerReference,
                transactionID: text(entry.bankReference))
            if let key,
                let conflict = transactionIDs.check(
                    key: key, id: transaction.transactionID!, amount: entry.amount,
                    date: entry.date, line: entry.line)
            {
                report(conflict, line: entry.line, column: 1)
                return
            }
            onRow(ParsedRow(account: account, transaction: transaction, line: entry.line))
        }

        /// Ends the open statement: its last entry, and its balances reconciled.
        mutating func endStatement(_ onRow: (ParsedRow) -> Void) {
            guard var statement else { return }
            flushEntry(onRow)
            statement = self.statement!
            self.statement = nil
            summary.statementLines.append(statement.line)
            if statement.account == nil {
                // A `:25:` that was there is reported where it stands, as what is wrong with it.
                if !statement.hasAccountField {
                    diagnostics.report(.elementMissing(":25:"), line: statement.line, column: 1)
                }
                return
            }
            if statement.opening == nil && !statement.isInterim {
                diagnostics.report(
                    .elementMissing(":60F:"), line: statement.line, column: 1)
                return
            }
            guard let account = statement.account, let opening = statement.opening,
                statement.isValid
            else { return }
            if let previous = lastClosing[account.id], previous != opening.money {
                diagnostics.report(
                    .openingAfterClosing(opening.money, previous: previous), line: opening.line,
                    column: 1)
            }
            if summary.openingBalances[account.id] == nil {
                summary.openingBalances[account.id] = opening.money
            }
            // Final balances only: an intermediate one (`:60M:`, `:62M:`) may fall within a day.
            let stated: [(Balance?, StatedBalance.Point)] = [
                (opening, .opening), (statement.closing, .closing),
            ]
            for case (let balance?, let point) in stated where balance.isFinal {
                summary.statedBalances.append(
                    StatedBalance(
                        account: account, point: point, balance: balance.money,
                        line: balance.line, statementLine: statement.line, statedDay: balance.day))
            }
            guard let closing = statement.closing else {
                diagnostics.report(
                    .elementMissing(":62F:"), line: statement.line, column: 1)
                return
            }
            lastClosing[account.id] = closing.money
            let computed = Money(
                minorUnits: opening.money.minorUnits &+ statement.total,
                currency: opening.money.currency)
            if computed != closing.money {
                diagnostics.report(
                    .balance(
                        ":62F:",
                        .closingBalanceMismatch(declared: closing.money, computed: computed)),
                    line: closing.line, column: 1)
            }
        }
    }
}

/// The counterparty and purpose an `:86:` field gives in a structured form, read over bytes
/// (the reader's hot path: no Foundation string searches).
struct Information {
    var name: String?
    var purpose: String?
    var iban: IBAN?
    var reference: String?

    init(_ text: [UInt8]) {
        if text.contains(UInt8(ascii: "?")), text.count > 3 {
            german(text)
        } else if text.first == UInt8(ascii: "/") {
            dutch(text)
        }
    }

    /// The German form: `166?00SEPA-UEBERWEISUNG?20EREF+1?21SVWZ+Miete?31DE44…?32Name`.
    mutating func german(_ text: [UInt8]) {
        var fields: [Int: [UInt8]] = [:]
        for part in text.split(separator: UInt8(ascii: "?")).dropFirst() {
            guard part.count >= 2, part.first! &- 48 < 10, part.dropFirst().first! &- 48 < 10
            else { continue }
            let key = Int(part.first! - 48) * 10 + Int(part.dropFirst().first! - 48)
            fields[key, default: []] += part.dropFirst(2)
        }
        func join(_ keys: ClosedRange<Int>) -> [UInt8] {
            keys.reduce(into: []) { $0 += fields[$1] ?? [] }
        }
        name = join(32...33).trimmedText
        var purposeBytes = join(20...29) + join(60...63)
        iban = fields[31].flatMap { $0.trimmedText }.flatMap { try? IBAN(parsing: $0) }
        // SEPA purposes are keyed: `EREF+ref SVWZ+text`; the text is the description.
        let keyed = Self.sepaKeys(purposeBytes)
        reference = keyed["EREF"].flatMap { $0.uppercased() == "NOTPROVIDED" ? nil : $0 }
        if let text = keyed["SVWZ"] { purposeBytes = Array(text.utf8) }
        purpose = purposeBytes.trimmedText
    }

    static let sepaKeyNames: [[UInt8]] = [
        "EREF", "KREF", "MREF", "CRED", "DEBT", "SVWZ", "ABWA", "ABWE", "IBAN", "BIC ",
    ].map { Array($0.utf8) }

    /// The values of the SEPA keys in a purpose (`EREF+`, `SVWZ+`, `MREF+` …), each running to
    /// the next key.
    static func sepaKeys(_ text: [UInt8]) -> [String: String] {
        var starts: [(key: String, start: Int, valueStart: Int)] = []
        var index = 0
        while index + 4 < text.count {
            if text[index + 4] == UInt8(ascii: "+"),
                let key = sepaKeyNames.first(where: { text[index..<index + 4].elementsEqual($0) })
            {
                starts.append((String(decoding: key, as: UTF8.self), index, index + 5))
                index += 5
                continue
            }
            if text[index + 3] == UInt8(ascii: "+"),
                text[index..<index + 3].elementsEqual("BIC".utf8)
            {
                starts.append(("BIC", index, index + 4))
                index += 4
                continue
            }
            index += 1
        }
        var values: [String: String] = [:]
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1].start : text.count
            if values[start.key] == nil, let value = text[start.valueStart..<end].trimmedText {
                values[start.key] = value
            }
        }
        return values
    }

    static let dutchKeys: Set<[UInt8]> = Set(
        [
            "TRTP", "IBAN", "BIC", "NAME", "REMI", "EREF", "CNTP", "MARF", "CSID", "ORDP",
            "BENM", "ULTC", "ULTD", "ULTB", "PURP", "RTRN", "ADDR", "ISDT", "FX", "ID",
        ].map { Array($0.utf8) })

    /// The Dutch form: `/TRTP/SEPA OVERBOEKING/IBAN/NL91…/BIC/…/NAME/J DOE/REMI/…/EREF/…`.
    mutating func dutch(_ text: [UInt8]) {
        // Every token that is a key starts its value; the others belong to the value.
        var values: [String: [UInt8]] = [:]
        var current: String?
        for token in text.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .dropFirst()
        {
            if Self.dutchKeys.contains(Array(token)) {
                current = String(decoding: token, as: UTF8.self)
                values[current!] = []
            } else if let key = current {
                if !values[key]!.isEmpty || token.isEmpty { values[key]!.append(UInt8(ascii: "/")) }
                values[key]! += token
            }
        }
        let clean = { (bytes: [UInt8]?) -> String? in
            guard let bytes else { return nil }
            var slice = bytes[...]
            while slice.first == UInt8(ascii: "/") || slice.first == UInt8(ascii: " ") {
                slice = slice.dropFirst()
            }
            while slice.last == UInt8(ascii: "/") || slice.last == UInt8(ascii: " ") {
                slice = slice.dropLast()
            }
            return slice.isEmpty ? nil : String(decoding: slice, as: UTF8.self)
        }
        if let counterparty = values["CNTP"] ?? values["BENM"] ?? values["ORDP"] {
            // `/CNTP/IBAN/BIC/NAME/CITY/`
            let fields = counterparty.split(
                separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            if fields.count > 0 {
                iban = clean(Array(fields[0])).flatMap { try? IBAN(parsing: $0) }
            }
            if fields.count > 2 { name = clean(Array(fields[2])) }
        }
        name = name ?? clean(values["NAME"])
        iban = iban ?? clean(values["IBAN"]).flatMap { try? IBAN(parsing: $0) }
        if var remittance = values["REMI"] {
            // `USTD//text` or `STRD/CUR/reference`: the text after the kind.
            for prefix in ["/USTD//", "USTD//", "USTD/", "STRD/CUR/", "STRD/ISO/", "STRD//"]
            where remittance.starts(with: prefix.utf8) {
                remittance.removeFirst(prefix.utf8.count)
                break
            }
            purpose = clean(remittance)
        }
        reference = clean(values["EREF"]).flatMap { $0.uppercased() == "NOTPROVIDED" ? nil : $0 }
    }
}

extension BidirectionalCollection<UInt8> {
    /// The bytes without surrounding spaces, as UTF-8 text; `nil` when nothing is left.
    var trimmedText: String? {
        var slice = self[...]
        while slice.first == UInt8(ascii: " ") { slice = slice.dropFirst() }
        while slice.last == UInt8(ascii: " ") { slice = slice.dropLast() }
        return slice.isEmpty ? nil : String(decoding: slice, as: UTF8.self)
    }
}

extension MT940Parser: StatementReader {
    static let formatName = "SWIFT MT940/MT942"

    /// One of the first ten lines starts with `{1:`, `:20:` or `:25:` (banks put lines such as
    /// `ABNANL2A` and `940` before them), whatever the file's name (`.sta`, `.940`, `.mt940`,
    /// `.swi`, `.txt` all occur).
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        let lines = head.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }
        ).prefix(10)
        return lines.contains { line in
            [":20:", ":25:", "{1:"].contains { line.starts(with: Array($0.utf8)) }
        }
    }
}
