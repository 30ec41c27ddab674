import Foundation

/// The line format of one transaction in the ledger's transaction log.
///
/// `date TAB amount-in-minor-units TAB beneficiary TAB beneficiary-IBAN TAB description TAB
/// reference TAB transaction-id LF`; absent optional fields are empty, and `\`, tab, LF and CR
/// inside text are written `\\`, `\t`, `\n`, `\r`, so a line never breaks. The account and
/// currency are those of the file's account. Lines of ledger format 1 have six fields, no
/// transaction id, and are read as such.
package enum LedgerRecord {
    /// Why a stored line could not be read back.
    package struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Appends the line of a transaction to `bytes`.
    package static func encode(_ transaction: Transaction, into bytes: inout [UInt8]) {
        transaction.withFields { encode($0, into: &bytes) }
    }

    /// Appends the line of a transaction's fields to `bytes`, in one change of the array: an
    /// import encodes every row, and each append of a field was a change of its own.
    static func encode(_ fields: TransactionFields, into bytes: inout [UInt8]) {
        // The most a line takes: a date, an amount's sign and 19 digits, an IBAN's 34
        // characters, six tabs and the newline (72 in all), and each text escaped whole.
        let texts =
            fields.beneficiary.count + (fields.description?.count ?? 0)
            + (fields.reference?.count ?? 0) + (fields.transactionID?.count ?? 0)
        write(into: &bytes, atMost: 72 + 2 * texts) { line in
            let date = fields.date
            line.decimal(UInt64(date.year), width: 4)
            line.byte(UInt8(ascii: "-"))
            line.decimal(UInt64(date.month), width: 2)
            line.byte(UInt8(ascii: "-"))
            line.decimal(UInt64(date.day), width: 2)
            line.byte(9)
            let minorUnits = fields.amount.minorUnits
            if minorUnits < 0 { line.byte(UInt8(ascii: "-")) }
            line.decimal(minorUnits.magnitude, width: 1)
            line.byte(9)
            line.escaped(fields.beneficiary)
            line.byte(9)
            fields.beneficiaryIBAN?.withBytes { $0.withUnsafeBytes { line.copy($0) } }
            line.byte(9)
            if let description = fields.description { line.escaped(description) }
            line.byte(9)
            if let reference = fields.reference { line.escaped(reference) }
            line.byte(9)
            if let transactionID = fields.transactionID { line.escaped(transactionID) }
            line.byte(10)
        }
    }

    /// Calls `body` with a writer into room for `count` bytes at the end of `bytes`, which
    /// keep what it wrote.
    private static func write(
        into bytes: inout [UInt8], atMost count: Int, _ body: (inout LineWriter) -> Void
    ) {
        guard count > 0 else { return }
        bytes.append(addingCapacity: count) { output in
            output.withUnsafeMutableBufferPointer { buffer, initialized in
                var writer = LineWriter(base: buffer.baseAddress!, end: initialized)
                body(&writer)
                initialized = writer.end
            }
        }
    }

    /// Writes a line, or an escaped text, into room an array made for it.
    private struct LineWriter {
        let base: UnsafeMutablePointer<UInt8>
        var end: Int

        mutating func byte(_ byte: UInt8) {
            base[end] = byte
            end += 1
        }

        mutating func copy(_ bytes: UnsafeRawBufferPointer) {
            guard let source = bytes.baseAddress else { return }
            UnsafeMutableRawPointer(base + end).copyMemory(from: source, byteCount: bytes.count)
            end += bytes.count
        }

        /// A number in decimal, zero-padded to `width` digits (a date's as `Day.isoText`
        /// writes them).
        mutating func decimal(_ value: UInt64, width: Int) {
            DecimalDigits.with(value, minimumCount: width) { copy($0) }
        }

        /// Text with `\\`, tab, LF and CR escaped (`LedgerRecord.escape(_:into:)`); most
        /// texts hold none of them, and are copied whole.
        mutating func escaped(_ utf8: UnsafeRawBufferPointer) {
            guard LedgerRecord.mayNeedEscaping(utf8) else { return copy(utf8) }
            for value in utf8 {
                switch value {
                case UInt8(ascii: "\\"): escape(92)
                case 9: escape(UInt8(ascii: "t"))
                case 10: escape(UInt8(ascii: "n"))
                case 13: escape(UInt8(ascii: "r"))
                default: byte(value)
                }
            }
        }

        /// A `\` and the byte that follows it.
        private mutating func escape(_ letter: UInt8) {
            byte(92)
            byte(letter)
        }
    }

    /// Appends text with `\`, tab, LF and CR written `\\`, `\t`, `\n`, `\r`: the one escaping of
    /// text in the ledger's files (month lines and the manifest).
    static func escape(_ text: String, into bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { escape(UnsafeRawBufferPointer($0), into: &bytes) }
    }

    /// Appends UTF-8 text escaped as `escape(_:into:)` does.
    static func escape(_ utf8: UnsafeRawBufferPointer, into bytes: inout [UInt8]) {
        write(into: &bytes, atMost: 2 * utf8.count) { $0.escaped(utf8) }
    }

    /// Whether the text may hold a byte to escape (`\`, tab, LF, CR); `false` means it holds
    /// none. Eight bytes at a time: a word holds `\` or a byte below 14 (tab, LF and CR among
    /// them) when a byte of `word ^ 0x5C…` is zero or a byte of `word` is below 14 (the
    /// classic "has zero byte" and "has less" tests, exact for these values).
    static func mayNeedEscaping(_ utf8: UnsafeRawBufferPointer) -> Bool {
        let (ones, highs): (UInt64, UInt64) = (0x0101_0101_0101_0101, 0x8080_8080_8080_8080)
        var offset = 0
        while offset + 8 <= utf8.count {
            let word = utf8.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let backslashes = word ^ (ones &* 92)
            if (backslashes &- ones) & ~backslashes & highs != 0
                || (word &- ones &* 14) & ~word & highs != 0
            {
                return true
            }
            offset += 8
        }
        return utf8[offset...].contains { $0 == 92 || $0 == 9 || $0 == 10 || $0 == 13 }
    }

    /// Text written by `escape(_:into:)`; `nil` for an empty field.
    static func unescape(_ field: ArraySlice<UInt8>) -> String? {
        unescape(field.span)
    }

    /// Text written by `escape(_:into:)`; `nil` for an empty field.
    private static func unescape(_ field: UnsafeRawBufferPointer) -> String? {
        field.withSpan(unescape)
    }

    /// Text written by `escape(_:into:)`; `nil` for an empty field.
    static func unescape(_ field: Span<UInt8>) -> String? {
        guard field.count > 0 else { return nil }
        guard field.contains(92) else { return field.text }
        var out: [UInt8] = []
        var index = 0
        while index < field.count {
            let byte = field[index]
            index += 1
            guard byte == 92, index < field.count else {
                out.append(byte)
                continue
            }
            let next = field[index]
            index += 1
            switch next {
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            default: out.append(next)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads every line of an account-month of an account in `currency`.
    ///
    /// - Complexity: O(n) over the bytes; fields are read in place, text is copied once.
    package static func decode(_ bytes: [UInt8], currency: Currency) throws(DecodingError)
        -> [Transaction]
    {
        var transactions: [Transaction] = []
        // The IBANs read so far, by a hash of their text: a month's counterparties repeat, and
        // each is validated (mod 97 and structure) once.
        var knownIBANs = [IBAN?](repeating: nil, count: 64)
        try forEachRecord(bytes) { (index, fields) throws(DecodingError) in
            func fail(_ reason: String) -> DecodingError {
                DecodingError(description: "record \(index + 1): \(reason)")
            }
            guard fields.count == 6 || fields.count == 7 else {
                throw fail("has \(fields.count) fields, not 7")
            }
            let day: Day
            do throws(DayError) { day = try fields[0].withSpan(Day.init(parsing:)) } catch {
                throw fail("bad date")
            }
            guard let minorUnits = integer(fields[1]), let beneficiary = unescape(fields[2]) else {
                throw fail("bad amount or beneficiary")
            }
            var beneficiaryIBAN: IBAN?
            if fields[3].count > 0 {
                var hash = Checksum.empty
                hash.feed(fields[3])
                let slot = Int(truncatingIfNeeded: hash.value) & 63
                if let known = knownIBANs[slot], known.withBytes({ $0.elementsEqual(fields[3]) }) {
                    beneficiaryIBAN = known
                } else {
                    do throws(IBANError) {
                        beneficiaryIBAN = try fields[3].withSpan(IBAN.init(parsing:))
                    } catch {
                        throw fail("bad beneficiary IBAN")
                    }
                    knownIBANs[slot] = beneficiaryIBAN
                }
            }
            transactions.append(
                Transaction(
                    date: day, amount: Money(minorUnits: minorUnits, currency: currency),
                    beneficiary: beneficiary,
                    beneficiaryIBAN: beneficiaryIBAN, description: unescape(fields[4]),
                    reference: unescape(fields[5]),
                    transactionID: fields.count == 7 ? unescape(fields[6]) : nil))
        }
        return transactions
    }

    /// The sum of the amounts of an account-month, read without decoding the rest of each line.
    package static func sum(_ bytes: [UInt8], currency: Currency) throws(DecodingError) -> Money {
        try summary(bytes, currency: currency).total
    }

    /// The sum of the amounts of an account-month and the first and last day of the month its
    /// lines fall on (`nil` for no line), read without decoding the rest of each line.
    package static func summary(_ bytes: [UInt8], currency: Currency) throws(DecodingError)
        -> (total: Money, days: ClosedRange<Int>?)
    {
        var total = Money.zero(currency)
        var days: ClosedRange<Int>?
        try forEachRecord(bytes) { (index, fields) throws(DecodingError) in
            guard fields.count == 6 || fields.count == 7, let minorUnits = integer(fields[1]) else {
                throw DecodingError(description: "record \(index + 1): bad amount")
            }
            guard let day = fields[0].withSpan(dayOfMonth) else {
                throw DecodingError(description: "record \(index + 1): bad date")
            }
            days = days.map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
            do throws(MoneyError) {
                total = try total.adding(Money(minorUnits: minorUnits, currency: currency))
            } catch {
                throw DecodingError(description: "record \(index + 1): \(error)")
            }
        }
        return (total, days)
    }

    /// The day of the month of a line's date field, `YYYY-MM-DD`: its last two digits.
    static func dayOfMonth(_ date: Span<UInt8>) -> Int? {
        guard date.count >= 10 else { return nil }
        let tens = date[date.count - 2] &- UInt8(ascii: "0")
        let ones = date[date.count - 1] &- UInt8(ascii: "0")
        guard tens < 4, ones < 10, date[date.count - 3] == UInt8(ascii: "-") else { return nil }
        let day = Int(tens) * 10 + Int(ones)
        return day >= 1 ? day : nil
    }

    /// The day of the month of the line that starts at `start` in `bytes` (an encoded row).
    static func dayOfMonth(line bytes: Span<UInt8>, at start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        let line = bytes.extracting(start...)
        guard let end = line.firstIndex(of: 9) else { return nil }
        return dayOfMonth(line.extracting(..<end))
    }

    /// Calls `body` with each line's 0-based index and its tab-separated fields, as byte views.
    private static func forEachRecord(
        _ bytes: [UInt8], _ body: (Int, [UnsafeRawBufferPointer]) throws(DecodingError) -> Void
    ) throws(DecodingError) {
        let failure: DecodingError? = bytes.withUnsafeBytes { all in
            guard let base = all.baseAddress else { return nil }
            var fields: [UnsafeRawBufferPointer] = []
            fields.reserveCapacity(7)
            var index = 0
            var lineStart = 0
            // Each line's end, then its tabs, found by `memchr` (many bytes at a time).
            while lineStart < all.count,
                let newline = memchr(base + lineStart, 10, all.count - lineStart)
            {
                let lineEnd = base.distance(to: UnsafeRawPointer(newline))
                if lineEnd > lineStart {
                    var fieldStart = lineStart
                    while let tab = memchr(base + fieldStart, 9, lineEnd - fieldStart) {
                        let position = base.distance(to: UnsafeRawPointer(tab))
                        fields.append(UnsafeRawBufferPointer(rebasing: all[fieldStart..<position]))
                        fieldStart = position + 1
                    }
                    fields.append(UnsafeRawBufferPointer(rebasing: all[fieldStart..<lineEnd]))
                    do throws(DecodingError) { try body(index, fields) } catch { return error }
                    fields.removeAll(keepingCapacity: true)
                }
                index += 1
                lineStart = lineEnd + 1
            }
            guard lineStart == all.count else {
                return DecodingError(
                    description: "record \(index + 1): the last line is not complete")
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// A decimal integer with an optional `-`, as the amount field holds it.
    private static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard bytes.count > 0 else { return nil }
        let negative = bytes[0] == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in bytes.dropFirst(negative ? 1 : 0) {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = shifted.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = next
        }
        return negative ? -value : value
    }
}
