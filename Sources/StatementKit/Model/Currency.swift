/// An ISO 4217 currency with the number of digits of its minor unit.
///
/// The code is packed into an integer so that a currency is two words, compares in one
/// instruction and is looked up from raw bytes without allocating.
package struct Currency: Hashable, Sendable {
    /// The three ASCII letters of the code, packed big-endian into the low 24 bits.
    let packedCode: UInt32
    /// How many decimal digits the minor unit has: 2 for EUR, 0 for JPY, 3 for BHD.
    package let minorUnitDigits: Int

    /// The alphabetic ISO 4217 code, such as `EUR`.
    package var code: String {
        let bytes = [
            UInt8(packedCode >> 16), UInt8((packedCode >> 8) & 0xFF), UInt8(packedCode & 0xFF),
        ]
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The euro.
    package static let eur = Currency(packedCode: pack("EUR"), minorUnitDigits: 2)

    /// Looks up an active ISO 4217 code given as text, such as `"EUR"`.
    ///
    /// - Returns: `nil` when the code is not an active ISO 4217 code (lower case is not accepted).
    package init?(code: String) {
        guard let found = Currency(codeBytes: code.utf8.span) else { return nil }
        self = found
    }

    /// Looks up an active ISO 4217 code from its three ASCII bytes, in either case (`usd`).
    init?(codeBytes bytes: Span<UInt8>) {
        guard bytes.count == 3 else { return nil }
        let upper = { (byte: UInt8) in byte &- UInt8(ascii: "a") < 26 ? byte - 32 : byte }
        let (a, b, c) = (upper(bytes[0]), upper(bytes[1]), upper(bytes[2]))
        guard let index = Currency.tableIndex(a, b, c) else { return nil }
        let digits = Currency.minorDigitsTable[index]
        guard digits != 0 else { return nil }
        packedCode = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        minorUnitDigits = Int(digits) - 1
    }

    private init(packedCode: UInt32, minorUnitDigits: Int) {
        self.packedCode = packedCode
        self.minorUnitDigits = minorUnitDigits
    }

    /// All active currencies, sorted by code.
    package static var all: [Currency] {
        activeCodes.map { Currency(code: $0.code)! }.sorted { $0.packedCode < $1.packedCode }
    }

    private static func pack(_ code: StaticString) -> UInt32 {
        code.withUTF8Buffer { UInt32($0[0]) << 16 | UInt32($0[1]) << 8 | UInt32($0[2]) }
    }

    private static func tableIndex(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        let base = UInt8(ascii: "A")
        let (i, j, k) = (a &- base, b &- base, c &- base)
        guard i < 26, j < 26, k < 26 else { return nil }
        return (Int(i) * 26 + Int(j)) * 26 + Int(k)
    }

    /// Minor-unit digits plus one for each of the 26³ possible codes; 0 marks an unknown code.
    private static let minorDigitsTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 26 * 26 * 26)
        for (code, digits) in activeCodes {
            let bytes = Array(code.utf8)
            table[tableIndex(bytes[0], bytes[1], bytes[2])!] = UInt8(digits + 1)
        }
        return table
    }()

    /// Every active ISO 4217 code (List One) that has a minor unit, with its digits.
    ///
    /// Precious metals, SDR and testing codes have no minor unit and are not money a bank
    /// statement can hold, so they are left out.
    static let activeCodes: [(code: String, digits: Int)] = [
        ("AED", 2), ("AFN", 2), ("ALL", 2), ("AMD", 2), ("ANG", 2), ("AOA", 2), ("ARS", 2),
        ("AUD", 2), ("AWG", 2), ("AZN", 2), ("BAM", 2), ("BBD", 2), ("BDT", 2), ("BGN", 2),
        ("BHD", 3), ("BIF", 0), ("BMD", 2), ("BND", 2), ("BOB", 2), ("BOV", 2), ("BRL", 2),
        ("BSD", 2), ("BTN", 2), ("BWP", 2), ("BYN", 2), ("BZD", 2), ("CAD", 2), ("CDF", 2),
        ("CHE", 2), ("CHF", 2), ("CHW", 2), ("CLF", 4), ("CLP", 0), ("CNY", 2), ("COP", 2),
        ("COU", 2), ("CRC", 2), ("CUP", 2), ("CVE", 2), ("CZK", 2), ("DJF", 0), ("DKK", 2),
        ("DOP", 2), ("DZD", 2), ("EGP", 2), ("ERN", 2), ("ETB", 2), ("EUR", 2), ("FJD", 2),
        ("FKP", 2), ("GBP", 2), ("GEL", 2), ("GHS", 2), ("GIP", 2), ("GMD", 2), ("GNF", 0),
        ("GTQ", 2), ("GYD", 2), ("HKD", 2), ("HNL", 2), ("HTG", 2), ("HUF", 2), ("IDR", 2),
        ("ILS", 2), ("INR", 2), ("IQD", 3), ("IRR", 2), ("ISK", 0), ("JMD", 2), ("JOD", 3),
        ("JPY", 0), ("KES", 2), ("KGS", 2), ("KHR", 2), ("KMF", 0), ("KPW", 2), ("KRW", 0),
        ("KWD", 3), ("KYD", 2), ("KZT", 2), ("LAK", 2), ("LBP", 2), ("LKR", 2), ("LRD", 2),
        ("LSL", 2), ("LYD", 3), ("MAD", 2), ("MDL", 2), ("MGA", 2), ("MKD", 2), ("MMK", 2),
        ("MNT", 2), ("MOP", 2), ("MRU", 2), ("MUR", 2), ("MVR", 2), ("MWK", 2), ("MXN", 2),
        ("MXV", 2), ("MYR", 2), ("MZN", 2), ("NAD", 2), ("NGN", 2), ("NIO", 2), ("NOK", 2),
        ("NPR", 2), ("NZD", 2), ("OMR", 3), ("PAB", 2), ("PEN", 2), ("PGK", 2), ("PHP", 2),
        ("PKR", 2), ("PLN", 2), ("PYG", 0), ("QAR", 2), ("RON", 2), ("RSD", 2), ("RUB", 2),
        ("RWF", 0), ("SAR", 2), ("SBD", 2), ("SCR", 2), ("SDG", 2), ("SEK", 2), ("SGD", 2),
        ("SHP", 2), ("SLE", 2), ("SOS", 2), ("SRD", 2), ("SSP", 2), ("STN", 2), ("SVC", 2),
        ("SYP", 2), ("SZL", 2), ("THB", 2), ("TJS", 2), ("TMT", 2), ("TND", 3), ("TOP", 2),
        ("TRY", 2), ("TTD", 2), ("TWD", 2), ("TZS", 2), ("UAH", 2), ("UGX", 0), ("USD", 2),
        ("USN", 2), ("UYI", 0), ("UYU", 2), ("UYW", 4), ("UZS", 2), ("VED", 2), ("VES", 2),
        ("VND", 0), ("VUV", 0), ("WST", 2), ("XAF", 0), ("XCD", 2), ("XCG", 2), ("XOF", 0),
        ("XPF", 0), ("YER", 2), ("ZAR", 2), ("ZMW", 2), ("ZWG", 2),
    ]
}

extension Currency: CustomStringConvertible {
    package var description: String { code }
}
