import Foundation
import Testing

@testable import StatementKit

struct IBANTests {
    @Test(arguments: [
        "DE89370400440532013000", "DE89 3704 0044 0532 0130 00", "de89 3704 0044 0532 0130 00",
        "DE89\u{00A0}3704\u{00A0}0044\u{00A0}0532\u{00A0}0130\u{00A0}00",
        "DE89\u{202F}3704 0044 0532 0130 00",
    ])
    func `accepts print and electronic forms`(text: String) throws {
        #expect(try IBAN(parsing: text).electronic == "DE89370400440532013000")
    }

    @Test func `stores the electronic form and country`() throws {
        let iban = try IBAN(parsing: "fr14 2004 1010 0505 0001 3m02 606")
        #expect(iban.electronic == "FR1420041010050500013M02606")
        #expect(iban.countryCode == "FR")
        #expect(iban.count == 27)
    }

    @Test func `names the expected check digits`() {
        #expect(throws: IBANError.checksumMismatch(actual: "89", expected: "62")) {
            try IBAN(parsing: "DE89 3704 0044 0532 0130 01")
        }
    }

    @Test(arguments: ["DE00370400440532013000", "DE01370400440532013000", "DE99370400440532013000"])
    func `rejects check digits outside 02 to 98`(text: String) {
        #expect(throws: IBANError.self) { try IBAN(parsing: text) }
    }

    @Test func `rejects an unknown country`() {
        #expect(throws: IBANError.unknownCountry("US")) {
            try IBAN(parsing: "US89370400440532013000")
        }
        #expect(throws: IBANError.unknownCountry("")) { try IBAN(parsing: "") }
    }

    @Test func `rejects the wrong length for the country`() {
        #expect(throws: IBANError.wrongLength(country: "DE", expected: 22, actual: 21)) {
            try IBAN(parsing: "DE8937040044053201300")
        }
        #expect(throws: IBANError.wrongLength(country: "DE", expected: 22, actual: 40)) {
            try IBAN(parsing: "DE89370400440532013000" + String(repeating: "0", count: 18))
        }
    }

    @Test func `rejects a letter where the structure needs a digit`() {
        #expect(
            throws: IBANError.invalidStructure(country: "GB", position: 22, expected: "a digit")
        ) {
            try IBAN(parsing: "GB29NWBK6016133192681X")
        }
        #expect(
            throws: IBANError.invalidStructure(country: "GB", position: 5, expected: "a letter")
        ) {
            try IBAN(
                parsing: "GB2911WBK60161331926819".replacingOccurrences(of: "11WBK", with: "1WBK"))
        }
    }

    @Test(arguments: [
        "DE89-3704-0044-0532-0130-00",  // hyphens
        "DE89\u{FF13}70400440532013000",  // a full-width digit
        "DE89370400440532013\u{041E}00",  // a Cyrillic O
        "DE89\t370400440532013000",  // a tab
        "DE89370400440532013000\u{202E}",  // a bidi override
    ])
    func `rejects characters that are not ASCII letters, digits or spaces`(text: String) {
        #expect {
            try IBAN(parsing: text)
        } throws: { error in
            guard case .illegalCharacter = error as? IBANError else { return false }
            return true
        }
    }

    @Test func `describes an illegal character by its code point`() {
        #expect(throws: IBANError.illegalCharacter("\"３\" (U+FF13)", position: 5)) {
            try IBAN(parsing: "DE89\u{FF13}70400440532013000")
        }
    }

    @Test func `registry covers every SWIFT country with consistent lengths`() {
        #expect(IBANRegistry.entries.count == 89)
        for entry in IBANRegistry.entries {
            let bytes = Array(entry.country.utf8)
            let format = IBANFormat.lookup(bytes[0], bytes[1])
            #expect(format?.length == entry.length, "\(entry.country)")
        }
    }

    @Test(
        arguments: [
            ("BE68539007547034", true), ("BE41539007547035", false),
            ("FR1420041010050500013M02606", true), ("FR7630006000011234567890189", true),
            ("FR3330006000011234567890187", false),
            ("IT60X0542811101000000123456", true), ("IT68F0760103200494702713216", false),
            ("ES9121000418450200051332", true), ("NO9386011117947", true),
            ("PL61109010140000071219812874", true), ("DE89370400440532013000", true),
        ] as [(String, Bool)])
    func `checks national check digits`(text: String, isValid: Bool) throws {
        #expect(try IBAN(parsing: text).nationalCheckDigitsAreValid == isValid)
    }
}

/// Compares every verdict with python-stdnum and schwifty on thousands of IBANs from every
/// registry country (see `Scripts/iban-reference`).
struct IBANReferenceTests {
    static func fixture() throws -> [(input: String, verdict: String)] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/iban-reference.tsv")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { line in
                let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
                return (String(parts[0]), String(parts[1]))
            }
    }

    @Test func `agrees with two reference implementations`() throws {
        let rows = try Self.fixture()
        #expect(rows.count > 5000)
        var countries: Set<String> = []
        var disagreements: [String] = []
        for (input, expected) in rows {
            let verdict: String
            do {
                let iban = try IBAN(parsing: input)
                countries.insert(iban.countryCode)
                verdict = iban.nationalCheckDigitsAreValid ? "valid" : "national"
            } catch {
                verdict = "invalid"
            }
            if verdict != expected {
                disagreements.append("\(input): \(verdict), reference \(expected)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        #expect(countries.count == IBANRegistry.entries.count)
        #expect(rows.contains { $0.verdict == "national" })
    }
}
