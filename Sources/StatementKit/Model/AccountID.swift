import Foundation

/// An account's identity: its IBAN, or, where the bank uses none, another identifier with its
/// scheme, validated where the scheme defines a check.
///
/// The canonical text is an IBAN's electronic form, or `scheme:value`:
///
/// | scheme | value | example | check |
/// |---|---|---|---|
/// | `aba` | US ABA routing number / account number | `aba:021000021/123456789` | routing check digit |
/// | `sort-code` | UK sort code / 8-digit account number | `sort-code:601613/31926819` | form |
/// | `bsb` | Australian BSB / account number | `bsb:062000/12345678` | form |
/// | `card` | issuer / last four digits of a card | `card:amex/1004` | form |
/// | `name` | a name a profile fixes for a file | `name:paypal-eur` | form |
///
/// An account of several currencies (Wise, Revolut, PayPal) is kept as one pocket per
/// currency: the id, `@` and the currency, such as `name:wise@USD` or
/// `CH9300762011623852957@EUR`, each with its own balance and statements.
///
/// IBANs keep exactly the bytes they always had, so ledgers, identities and file names of
/// IBAN accounts are unchanged. Stored inline (40 bytes), as `IBAN` is, so that rows are read
/// without allocating. No id holds `/` or `_` outside the places shown, nor a space, so that
/// `fileName` can never name another folder.
package struct AccountID: Sendable {
    /// The longest canonical text.
    package static let maximumLength = 40

    private let bytes: InlineBytes

    /// Wraps a canonical text already validated.
    private init(canonical bytes: Span<UInt8>) {
        self.bytes = InlineBytes(bytes)
    }

    /// Wraps bytes that may be a canonical text (at most 40 bytes) without validating them,
    /// to look them up among ids validated before.
    init?(knownBytes bytes: Span<UInt8>) {
        guard !bytes.isEmpty, bytes.count <= AccountID.maximumLength else { return nil }
        self.init(canonical: bytes)
    }

    /// The id of an account known by its IBAN.
    package init(_ iban: IBAN) {
        self = iban.withBytes { AccountID(canonical: $0) }
    }

    /// Calls `body` with the bytes of the canonical text.
    package func withBytes<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try bytes.withBytes(body)
    }

    /// The canonical text, such as `DE89370400440532013000` or `aba:021000021/123456789`.
    package var text: String { withBytes { $0.text } }

    /// The IBAN, when the account (or the account a pocket belongs to) is known by one.
    package var iban: IBAN? {
        base.withBytes { bytes in
            bytes.contains(UInt8(ascii: ":")) ? nil : IBAN(electronicBytes: bytes)
        }
    }

    /// The id of one currency's pocket of this account; `nil` when it would be longer than
    /// `maximumLength` (only a name of 32 characters is too long to have pockets).
    package init?(_ base: AccountID, pocket currency: Currency) {
        let text = Array((base.base.text + "@" + currency.code).utf8)
        guard text.count <= Self.maximumLength else { return nil }
        self = AccountID(canonical: text.span)
    }

    /// The currency of a pocket of an account of several currencies; `nil` for an account.
    package var pocket: Currency? {
        let text = text
        return text.lastIndex(of: "@").flatMap { Currency(code: String(text[$0...].dropFirst())) }
    }

    /// The account a pocket belongs to; the id itself for an account.
    package var base: AccountID {
        withBytes { bytes in
            guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return self }
            return AccountID(canonical: bytes.extracting(..<at))
        }
    }

    /// The scheme, such as `aba`; `nil` for an IBAN.
    package var scheme: Scheme? {
        let text = text
        return text.firstIndex(of: ":").flatMap { Scheme(rawValue: String(text[..<$0])) }
    }

    /// The name of the account's files and folders: the text with `:` and `/` as `_`.
    package var fileName: String {
        // A byte at a time (ids are ASCII), not a character at a time: a report names three
        // files after every account.
        String(
            decoding: text.utf8.map {
                $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0
            }, as: UTF8.self)
    }

    /// A cheap, unseeded hash of the stored words, for tables; not for persistence.
    var quickHash: UInt64 { bytes.quickHash }
}

extension AccountID: Hashable {
    package static func == (lhs: AccountID, rhs: AccountID) -> Bool { lhs.bytes == rhs.bytes }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(quickHash)
    }
}

extension AccountID: Comparable {
    package static func < (lhs: AccountID, rhs: AccountID) -> Bool {
        lhs.bytes.precedes(rhs.bytes)
    }
}

extension AccountID: CustomStringConvertible {
    package var description: String { text }
}

extension AccountID {
    /// The identifier schemes other than IBAN.
    package enum Scheme: String, Sendable, CaseIterable {
        case aba
        case sortCode = "sort-code"
        case bsb
        case card
        case name

        /// What a value of the scheme looks like, for messages.
        package var form: String {
            switch self {
            case .aba: "a 9-digit routing number and an account number of up to 17 digits"
            case .sortCode: "a 6-digit sort code and an 8-digit account number"
            case .bsb: "a 6-digit BSB and an account number of 4 to 10 digits"
            case .card: "an issuer (letters and digits) and the card's last 4 digits"
            case .name: "1 to 32 letters, digits, '.' or '-'"
            }
        }

        /// The currency every account of the scheme is kept in: US, UK and Australian bank
        /// accounts; `nil` for cards and names, which may be in any.
        package var currency: Currency? {
            switch self {
            case .aba: Currency(code: "USD")
            case .sortCode: Currency(code: "GBP")
            case .bsb: Currency(code: "AUD")
            case .card, .name: nil
            }
        }
    }
}

/// Why a text is not an account id.
package enum AccountIDError: Error, Hashable, Sendable {
    /// The text before `:` names no scheme.
    case unknownScheme(String)
    /// The value does not have the scheme's form.
    case malformed(AccountID.Scheme)
    /// A US routing number whose check digit is wrong.
    case routingCheckDigit
    /// What follows `@` is not a currency code.
    case pocket
}

extension AccountID {
    /// The `name:` id of an account a bank's own format numbers without an IBAN (MT940's
    /// `76050101/123456789`, camt's `Othr/Id`, OFX's bank and account ids): its letters and
    /// digits in lower case, anything else as `-`.
    package init(accountNumber text: String) throws(AccountIDParseError) {
        let name = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        try self.init(parsing: "name:" + String(name))
    }

    /// Reads an account id: `scheme:value` (the scheme in any case), or else an IBAN.
    ///
    /// Values may separate their two parts with `/`, `-` or a space, and write digits in
    /// groups (`60-16-13`); names are lower-cased, with spaces as `-`.
    ///
    /// - Throws: `.iban(IBANError)` for a text without scheme that is not a valid IBAN.
    package init(parsing text: String) throws(AccountIDParseError) {
        if let at = text.lastIndex(of: "@") {
            let base = try AccountID(parsing: String(text[..<at]))
            let code = text[at...].dropFirst().trimmingCharacters(in: .whitespaces).uppercased()
            guard base.pocket == nil, let currency = Currency(code: code),
                let pocket = AccountID(base, pocket: currency)
            else {
                throw .accountID(.pocket)
            }
            self = pocket
            return
        }
        guard let colon = text.firstIndex(of: ":") else {
            do throws(IBANError) {
                self.init(try IBAN(parsing: text))
                return
            } catch { throw .iban(error) }
        }
        let schemeText = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        guard let scheme = Scheme(rawValue: schemeText) else {
            throw .accountID(.unknownScheme(String(text[..<colon])))
        }
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        do throws(AccountIDError) {
            let canonical = "\(scheme.rawValue):" + (try Self.canonicalValue(value, scheme))
            self = AccountID(canonical: Array(canonical.utf8).span)
        } catch { throw .accountID(error) }
    }

    /// Reads and validates an account id from its UTF-8 (see `init(parsing:)`): an IBAN
    /// without making a string, as a ledger's account records hold 100,000 of them.
    package init(parsing bytes: Span<UInt8>) throws(AccountIDParseError) {
        guard !bytes.contains(UInt8(ascii: ":")), !bytes.contains(UInt8(ascii: "@")) else {
            try self.init(parsing: bytes.text)
            return
        }
        do throws(IBANError) {
            self.init(try IBAN(parsing: bytes))
        } catch { throw .iban(error) }
    }

    private static func canonicalValue(_ value: String, _ scheme: Scheme) throws(AccountIDError)
        -> String
    {
        let isSeparator = { (c: Character) in c == " " || c == "-" || c == "/" }
        switch scheme {
        case .aba, .sortCode, .bsb:
            guard value.allSatisfy({ $0.isASCII && ($0.isNumber || isSeparator($0)) }) else {
                throw .malformed(scheme)
            }
            let firstLength = scheme == .aba ? 9 : 6
            // With a `/`, the parts are as given; else the first digits make the first part.
            let parts = value.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw .malformed(scheme) }
            let digits = value.filter(\.isNumber)
            let (first, rest) =
                parts.count == 2
                ? (parts[0].filter(\.isNumber), parts[1].filter(\.isNumber))
                : (String(digits.prefix(firstLength)), String(digits.dropFirst(firstLength)))
            let restRange = scheme == .aba ? 1...17 : scheme == .sortCode ? 8...8 : 4...10
            guard first.count == firstLength, restRange.contains(rest.count) else {
                throw .malformed(scheme)
            }
            if scheme == .aba {
                let d = first.map { Int($0.asciiValue! - 48) }
                let sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]
                guard sum % 10 == 0 else { throw .routingCheckDigit }
            }
            return "\(first)/\(rest)"
        case .card:
            let last = String(value.reversed().prefix { $0.isASCII && $0.isNumber }.reversed())
            // The issuer, without a mask before the digits: "amex ****1004", "visa x1004".
            let issuer = value.dropLast(last.count)
                .trimmingCharacters(in: .init(charactersIn: " -/*•.")).lowercased()
            let trimmedIssuer = issuer.hasSuffix(" x") ? String(issuer.dropLast(2)) : issuer
            guard last.count == 4, (1...16).contains(trimmedIssuer.count),
                trimmedIssuer.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else { throw .malformed(scheme) }
            return "\(trimmedIssuer)/\(last)"
        case .name:
            let name = value.lowercased().replacingOccurrences(of: " ", with: "-")
            guard (1...32).contains(name.count),
                name.allSatisfy({
                    $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-")
                }), name != ".", name != ".."
            else { throw .malformed(scheme) }
            return name
        }
    }
}

/// Why a text is neither an IBAN nor an account id of another scheme.
package enum AccountIDParseError: Error, Hashable, Sendable {
    case iban(IBANError)
    case accountID(AccountIDError)
}
