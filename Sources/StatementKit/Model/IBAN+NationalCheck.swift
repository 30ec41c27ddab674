extension IBAN {
    /// Tells whether the national check digits inside the BBAN are right.
    ///
    /// An IBAN can carry correct ISO 7064 check digits around a BBAN whose own national check
    /// (the Belgian mod-97, the French RIB key, the Italian CIN, …) is wrong: the number was
    /// mistyped before the IBAN was computed. Countries without a verified national check
    /// always pass.
    package var nationalCheckDigitsAreValid: Bool {
        withBytes { iban in
            let bban = iban.extracting(droppingFirst: 4)
            switch (iban[0], iban[1]) {
            case (UInt8(ascii: "B"), UInt8(ascii: "E")): return NationalCheck.belgium(bban)
            case (UInt8(ascii: "F"), UInt8(ascii: "R")), (UInt8(ascii: "M"), UInt8(ascii: "C")):
                return NationalCheck.france(bban)
            case (UInt8(ascii: "I"), UInt8(ascii: "T")), (UInt8(ascii: "S"), UInt8(ascii: "M")):
                return NationalCheck.italy(bban)
            case (UInt8(ascii: "E"), UInt8(ascii: "S")): return NationalCheck.spain(bban)
            case (UInt8(ascii: "N"), UInt8(ascii: "O")): return NationalCheck.norway(bban)
            case (UInt8(ascii: "F"), UInt8(ascii: "I")): return NationalCheck.finland(bban)
            case (UInt8(ascii: "P"), UInt8(ascii: "L")): return NationalCheck.poland(bban)
            case (UInt8(ascii: "E"), UInt8(ascii: "E")): return NationalCheck.estonia(bban)
            case (UInt8(ascii: "C"), UInt8(ascii: "Z")), (UInt8(ascii: "S"), UInt8(ascii: "K")):
                return NationalCheck.czechia(bban)
            case (UInt8(ascii: "M"), UInt8(ascii: "R")), (UInt8(ascii: "T"), UInt8(ascii: "N")):
                return NationalCheck.mod97(bban) == 0
            case (UInt8(ascii: "B"), UInt8(ascii: "A")), (UInt8(ascii: "M"), UInt8(ascii: "E")),
                (UInt8(ascii: "M"), UInt8(ascii: "K")), (UInt8(ascii: "P"), UInt8(ascii: "T")),
                (UInt8(ascii: "R"), UInt8(ascii: "S")), (UInt8(ascii: "S"), UInt8(ascii: "I")),
                (UInt8(ascii: "T"), UInt8(ascii: "L")):
                return NationalCheck.mod97(bban) == 1
            default: return true
            }
        }
    }
}

/// The national check digit algorithms, each over a BBAN whose structure is already valid.
private enum NationalCheck {
    static func digit(_ bban: Span<UInt8>, _ index: Int) -> Int {
        Int(bban[index] &- UInt8(ascii: "0"))
    }

    static func number(_ bban: Span<UInt8>, _ range: Range<Int>) -> Int {
        var value = 0
        for index in range { value = value * 10 + digit(bban, index) }
        return value
    }

    static func weightedSum(_ bban: Span<UInt8>, _ range: Range<Int>, _ weights: [Int])
        -> Int
    {
        var sum = 0
        for (index, weight) in zip(range, weights) { sum += digit(bban, index) * weight }
        return sum
    }

    /// ISO 7064 mod 97-10 of the BBAN, letters counting 10–35 as in the IBAN itself.
    static func mod97(_ bban: Span<UInt8>) -> Int {
        var remainder = 0
        for index in bban.indices { remainder = IBAN.mod97(remainder, bban[index]) }
        return remainder
    }

    /// Belgium: the first ten digits modulo 97 (97 for 0) are the last two.
    static func belgium(_ bban: Span<UInt8>) -> Bool {
        let remainder = number(bban, 0..<10) % 97
        return (remainder == 0 ? 97 : remainder) == number(bban, 10..<12)
    }

    /// France and Monaco: the RIB key, 97 − (89·bank + 15·branch + 3·account) mod 97,
    /// letters of the account number replaced by the digits 1–9 as the RIB defines.
    static func france(_ bban: Span<UInt8>) -> Bool {
        var account = 0
        for index in 10..<21 {
            let byte = bban[index]
            let value: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "I"): value = Int(byte - UInt8(ascii: "A")) + 1
            case UInt8(ascii: "J")...UInt8(ascii: "R"): value = Int(byte - UInt8(ascii: "J")) + 1
            default: value = Int(byte - UInt8(ascii: "S")) + 2
            }
            account = account * 10 + value
        }
        let sum = (89 * number(bban, 0..<5) + 15 * number(bban, 5..<10) + 3 * (account % 97)) % 97
        return 97 - sum == number(bban, 21..<23)
    }

    private static let italianOdd = [
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24,
        23,
    ]

    /// Italy and San Marino: the CIN letter over ABI, CAB and account number.
    static func italy(_ bban: Span<UInt8>) -> Bool {
        var sum = 0
        for index in 1..<23 {
            let byte = bban[index]
            let value =
                byte <= UInt8(ascii: "9")
                ? Int(byte - UInt8(ascii: "0")) : Int(byte - UInt8(ascii: "A"))
            sum += index % 2 == 1 ? italianOdd[value] : value
        }
        return Int(bban[0] - UInt8(ascii: "A")) == sum % 26
    }

    /// Spain: two mod-11 digits, over bank + branch and over the account number.
    static func spain(_ bban: Span<UInt8>) -> Bool {
        let weights = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]
        func control(_ sum: Int) -> Int {
            let value = 11 - sum % 11
            return value == 11 ? 0 : value == 10 ? 1 : value
        }
        return control(weightedSum(bban, 0..<8, Array(weights[2...]))) == digit(bban, 8)
            && control(weightedSum(bban, 10..<20, weights)) == digit(bban, 9)
    }

    /// Norway: mod 11 with weights 5, 4, 3, 2, 7, 6, 5, 4, 3, 2; a remainder of 1 is invalid.
    static func norway(_ bban: Span<UInt8>) -> Bool {
        let value = 11 - weightedSum(bban, 0..<10, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
        return value != 10 && value % 11 == digit(bban, 10)
    }

    /// Finland: a Luhn check over all fourteen digits.
    static func finland(_ bban: Span<UInt8>) -> Bool {
        var sum = 0
        for (position, index) in (0..<14).reversed().enumerated() {
            let value = digit(bban, index) * (position % 2 == 1 ? 2 : 1)
            sum += value > 9 ? value - 9 : value
        }
        return sum % 10 == 0
    }

    /// Poland: the eighth digit of the bank sort code, weights 3, 9, 7, 1, 3, 9, 7.
    static func poland(_ bban: Span<UInt8>) -> Bool {
        let sum = weightedSum(bban, 0..<7, [3, 9, 7, 1, 3, 9, 7]) % 10
        return (sum == 0 ? 0 : 10 - sum) == digit(bban, 7)
    }

    /// Estonia: weights 7, 3, 1 from the right over branch and account number.
    static func estonia(_ bban: Span<UInt8>) -> Bool {
        let weights = [7, 3, 1]
        var sum = 0
        for (position, index) in (2..<15).reversed().enumerated() {
            sum += digit(bban, index) * weights[position % 3]
        }
        let remainder = sum % 10
        return (remainder == 0 ? 0 : 10 - remainder) == digit(bban, 15)
    }

    /// Czechia and Slovakia: prefix and account number each weigh to 0 modulo 11.
    static func czechia(_ bban: Span<UInt8>) -> Bool {
        weightedSum(bban, 4..<10, [10, 5, 8, 4, 2, 1]) % 11 == 0
            && weightedSum(bban, 10..<20, [6, 3, 7, 9, 10, 5, 8, 4, 2, 1]) % 11 == 0
    }
}
