extension MT940Parser.State {
    /// The most characters of an amount, its decimal comma included (SWIFT's `15d`).
    static let maximumAmountLength = 15

    /// An amount in SWIFT's `15d` form, `1000,00` or `12,`, in a currency's minor units.
    ///
    /// Digits and exactly one decimal comma, at least one digit before it, 15 characters at
    /// most: a point, a sign, a space or a letter is reported (`AMOUNT_FORMAT`), never skipped
    /// or read as a decimal mark, so that `12.50` is not taken for 12.
    mutating func amount(
        _ bytes: ArraySlice<UInt8>, _ currency: Currency, _ field: MT940Parser.Field, column: Int
    ) -> Money? {
        func report(_ error: AmountError) {
            self.report(
                .amount(
                    ":\(field.tag): amount", Self.quoted(bytes), error, currency: currency,
                    example: "1234,56"),
                line: field.line, column: column)
        }
        var commas = 0
        for byte in bytes where byte &- 48 >= 10 {
            guard byte == UInt8(ascii: ",") else {
                report(.malformed)
                return nil
            }
            commas += 1
        }
        guard commas == 1, bytes.first != UInt8(ascii: ",") else {
            report(.malformed)
            return nil
        }
        // `12,` is `12`; the comma of `1000,00` is the point `Money(parsing:)` reads.
        let digits = bytes.last == UInt8(ascii: ",") ? bytes.dropLast() : bytes
        let result = Result { () throws(AmountError) in
            try ScratchWriter.lending(
                atMost: digits.count,
                { (dotted: inout ScratchWriter) throws(AmountError) in
                    for byte in digits {
                        dotted.put(byte == UInt8(ascii: ",") ? UInt8(ascii: ".") : byte)
                    }
                },
                { (dotted) throws(AmountError) in try Money(parsing: dotted, currency: currency) })
        }
        switch result {
        case .success where bytes.count > Self.maximumAmountLength:
            report(.malformed)
        case .success(let money):
            return money
        case .failure(let error):
            report(error)
        }
        return nil
    }

    /// Tells whether a byte is an ASCII letter, such as the first of a `:61:` type code.
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    /// Tells whether four bytes are a transaction type identification code (`1!a3!c`): `N`
    /// (a SWIFT code such as `NTRF`), `F` (first advice) or `S` (a SWIFT message type, such as
    /// `S103`), then three capital letters or digits.
    static func isTypeCode(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first,
            first == UInt8(ascii: "N") || first == UInt8(ascii: "F") || first == UInt8(ascii: "S")
        else { return false }
        return bytes.dropFirst().allSatisfy { $0 &- 48 < 10 || $0 &- UInt8(ascii: "A") < 26 }
    }
}
