/// An International Bank Account Number (ISO 13616), valid by construction.
///
/// Stored in its electronic form (upper case, no spaces) inline, without a heap allocation,
/// so that millions of rows can be parsed without allocating per row.
package struct IBAN: Sendable {
    /// The maximum length of any IBAN.
    package static let maximumLength = 34

    private let bytes: InlineBytes
    /// The number of characters of the electronic form.
    package var count: Int { bytes.count }

    /// Creates an IBAN from an electronic form that already passed validation.
    init(validatedBytes bytes: Span<UInt8>) {
        self.bytes = InlineBytes(bytes)
    }

    private init(validated bytes: InlineBytes) {
        self.bytes = bytes
    }

    /// Wraps bytes that look like an electronic form (up to 34 upper-case letters and digits)
    /// without validating them, to look them up among IBANs validated before.
    init?(electronicBytes bytes: Span<UInt8>) {
        guard bytes.count >= 4, bytes.count <= IBAN.maximumLength,
            bytes.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 || $0 &- UInt8(ascii: "A") < 26 })
        else { return nil }
        self.init(validatedBytes: bytes)
    }

    /// Calls `body` with the ASCII bytes of the electronic form.
    package func withBytes<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try bytes.withBytes(body)
    }

    /// The electronic form: upper case, no spaces, such as `DE89370400440532013000`.
    package var electronic: String {
        withBytes { $0.text }
    }

    /// The ISO 3166 country code, such as `DE`.
    package var countryCode: String { String(electronic.prefix(2)) }
}

extension IBAN: Hashable {
    package static func == (lhs: IBAN, rhs: IBAN) -> Bool { lhs.bytes == rhs.bytes }

    package func hash(into hasher: inout Hasher) { bytes.hash(into: &hasher) }
}

extension IBAN: Comparable {
    package static func < (lhs: IBAN, rhs: IBAN) -> Bool {
        lhs.withBytes { l in rhs.withBytes { r in l.lexicographicallyPrecedes(r) } }
    }
}

extension IBAN: CustomStringConvertible {
    package var description: String { electronic }
}

/// Why a text is not a valid IBAN; each case has its own diagnostic code.
package enum IBANError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A character other than an ASCII letter, digit, space or no-break space.
    case illegalCharacter(String, position: Int)
    /// The first two letters are not a country of the IBAN registry.
    case unknownCountry(String)
    /// The length differs from the country's registered length.
    case wrongLength(country: String, expected: Int, actual: Int)
    /// A character of the BBAN is not of the kind the country's structure requires.
    case invalidStructure(country: String, position: Int, expected: String)
    /// The ISO 7064 mod-97-10 check digits are wrong.
    case checksumMismatch(actual: String, expected: String)

    package var description: String {
        switch self {
        case .illegalCharacter(let character, let position):
            "character \(character) at position \(position) is not a letter, digit or space"
        case .unknownCountry(let country):
            "country code \"\(country)\" is not in the IBAN registry"
        case .wrongLength(let country, let expected, let actual):
            "\(country) IBANs have \(expected) characters, this one has \(actual)"
        case .invalidStructure(let country, let position, let expected):
            "character \(position) must be \(expected) in a \(country) IBAN"
        case .checksumMismatch(let actual, let expected):
            "check digits \(actual) do not match (expected \(expected))"
        }
    }
}

extension IBAN {
    /// Reads and validates an IBAN given in print or electronic form, in any case.
    ///
    /// Spaces, no-break spaces (U+00A0) and narrow no-break spaces (U+202F) between the
    /// characters are dropped; lower-case letters are upper-cased. Anything else that is not
    /// an ASCII letter or digit is an error, so that full-width digits or Cyrillic look-alikes
    /// cannot pass. Checks, in order: characters, country, length, BBAN structure, check
    /// digits. National check digits are not checked here: see `nationalCheckDigitsAreValid`.
    ///
    /// - Complexity: O(n), no allocation unless it throws.
    package init(parsing bytes: Span<UInt8>) throws(IBANError) {
        var compact = InlineBytes()
        var count = 0
        var index = 0
        var position = 0
        while index < bytes.count {
            let byte = bytes[index]
            position += 1
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if count < IBAN.maximumLength { compact.append(byte) }
                count += 1
                index += 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                if count < IBAN.maximumLength { compact.append(byte - 32) }
                count += 1
                index += 1
            case UInt8(ascii: " "):
                index += 1
            case _ where NoBreakSpace.length(in: bytes, at: index) != nil:
                index += NoBreakSpace.length(in: bytes, at: index)!
            default:
                throw .illegalCharacter(
                    IBAN.describeCharacter(in: bytes, at: index), position: position)
            }
        }
        try compact.withBytes { (iban) throws(IBANError) in try IBAN.validate(iban, count: count) }
        self.init(validated: compact)
    }

    /// Reads and validates an IBAN from text; see `init(parsing:)` for the bytes.
    package init(parsing text: String) throws(IBANError) {
        try self.init(parsing: text.utf8.span)
    }

    private static func validate(_ iban: Span<UInt8>, count: Int) throws(IBANError) {
        guard count >= 2, let format = IBANFormat.lookup(iban[0], iban[1]) else {
            throw .unknownCountry(iban.extracting(first: 2).text)
        }
        guard count == format.length else {
            throw .wrongLength(country: format.country, expected: format.length, actual: count)
        }
        for index in 2..<4 where !IBANFormat.isDigit(iban[index]) {
            throw .invalidStructure(
                country: format.country, position: index + 1, expected: "a digit")
        }
        for (offset, kind) in format.pattern.enumerated() {
            let byte = iban[4 + offset]
            guard kind.accepts(byte) else {
                throw .invalidStructure(
                    country: format.country, position: 5 + offset, expected: kind.name)
            }
        }
        guard IBAN.mod97(iban, checkDigits: nil) != 1 else { return }
        let expected = 98 - IBAN.mod97(iban, checkDigits: (UInt8(ascii: "0"), UInt8(ascii: "0")))
        let actual = iban.extracting(2..<4).text
        throw .checksumMismatch(
            actual: actual, expected: expected < 10 ? "0\(expected)" : "\(expected)")
    }

    /// The ISO 7064 mod-97-10 remainder of the IBAN moved to BBAN + country + check digits,
    /// optionally with the check digits replaced.
    static func mod97(_ iban: Span<UInt8>, checkDigits: (UInt8, UInt8)?) -> Int {
        var remainder = 0
        func feed(_ byte: UInt8) { remainder = mod97(remainder, byte) }
        for index in 4..<iban.count { feed(iban[index]) }
        feed(iban[0])
        feed(iban[1])
        feed(checkDigits?.0 ?? iban[2])
        feed(checkDigits?.1 ?? iban[3])
        return remainder
    }

    /// The ISO 7064 mod-97-10 remainder once `byte` follows `remainder`: a digit, or a
    /// letter counting 10–35.
    static func mod97(_ remainder: Int, _ byte: UInt8) -> Int {
        byte <= UInt8(ascii: "9")
            ? (remainder * 10 + Int(byte &- UInt8(ascii: "0"))) % 97
            : (remainder * 100 + Int(byte &- UInt8(ascii: "A")) + 10) % 97
    }

    private static func describeCharacter(in bytes: Span<UInt8>, at index: Int) -> String {
        let rest = bytes.extracting(index..<min(bytes.count, index + 4))
        guard
            let scalar = rest.validText?.unicodeScalars.first
                ?? rest.text.unicodeScalars.first
        else { return "?" }
        let code = "U+" + String(hex: scalar.value, digits: 4, uppercase: true)
        guard
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || (scalar.isASCII && scalar.value >= 0x21 && scalar.value < 0x7F)
        else { return code }
        return "\"\(Character(scalar))\" (\(code))"
    }
}

/// The compiled registry entry of one country.
struct IBANFormat: Sendable {
    /// What one BBAN position accepts.
    enum Kind: UInt8, Sendable {
        case digit, letter, alphanumeric

        func accepts(_ byte: UInt8) -> Bool {
            switch self {
            case .digit: IBANFormat.isDigit(byte)
            case .letter: byte &- UInt8(ascii: "A") < 26
            case .alphanumeric: true  // the parser already admitted only A–Z and 0–9
            }
        }

        var name: String {
            switch self {
            case .digit: "a digit"
            case .letter: "a letter"
            case .alphanumeric: "a letter or digit"
            }
        }
    }

    let country: String
    let length: Int
    let pattern: [Kind]

    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Returns the format of a country given as two upper-case ASCII letters.
    static func lookup(_ first: UInt8, _ second: UInt8) -> IBANFormat? {
        let (i, j) = (first &- UInt8(ascii: "A"), second &- UInt8(ascii: "A"))
        guard i < 26, j < 26 else { return nil }
        return table[Int(i) * 26 + Int(j)]
    }

    /// The registry indexed by the two letters of the country code.
    private static let table: [IBANFormat?] = {
        var table = [IBANFormat?](repeating: nil, count: 26 * 26)
        for entry in IBANRegistry.entries {
            var pattern: [Kind] = []
            var digits = 0
            for byte in entry.bban.utf8 {
                if isDigit(byte) {
                    digits = digits * 10 + Int(byte - UInt8(ascii: "0"))
                    continue
                }
                let kind: Kind =
                    byte == UInt8(ascii: "n")
                    ? .digit : byte == UInt8(ascii: "a") ? .letter : .alphanumeric
                pattern += repeatElement(kind, count: digits)
                digits = 0
            }
            precondition(pattern.count + 4 == entry.length, "registry entry \(entry.country)")
            let bytes = Array(entry.country.utf8)
            table[Int(bytes[0] - 65) * 26 + Int(bytes[1] - 65)] =
                IBANFormat(country: entry.country, length: entry.length, pattern: pattern)
        }
        return table
    }()
}
