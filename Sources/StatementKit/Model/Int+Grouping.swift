extension Int {
    /// The number with `,` between groups of three digits, such as `41,200`.
    package var groupedText: String {
        var text: [UInt8] = self < 0 ? [UInt8(ascii: "-")] : []
        DecimalDigits.with(UInt64(magnitude)) { text.appendGrouped($0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// "1 error", "2 errors": the number and a noun, plural when it is not one.
    package func counted(_ noun: String) -> String {
        "\(groupedText) \(noun)\(self == 1 ? "" : "s")"
    }
}

extension [UInt8] {
    /// Appends ASCII digits with `,` between groups of three, such as `41,200`.
    mutating func appendGrouped(_ digits: UnsafeRawBufferPointer) {
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { append(UInt8(ascii: ",")) }
            append(digit)
        }
    }
}
