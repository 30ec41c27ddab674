import Foundation

/// The `:25:` account and the balances of a statement, and the dates and references in fields.
extension MT940Parser.State {
    mutating func account(_ text: String, _ field: MT940Parser.Field, column: Int) {
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
    mutating func balance(_ field: MT940Parser.Field, _ value: ArraySlice<UInt8>, column: Int) {
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
        let balance = MT940Parser.Balance(
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

}
