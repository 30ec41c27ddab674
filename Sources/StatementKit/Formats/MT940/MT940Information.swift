import Foundation

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
