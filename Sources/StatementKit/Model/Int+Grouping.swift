extension Int {
    /// The number with `,` between groups of three digits, such as `41,200`.
    package var groupedText: String {
        var text: [UInt8] = self < 0 ? [UInt8(ascii: "-")] : []
        DecimalDigits.appendGrouped(UInt64(magnitude), to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// "1 error", "2 errors": the number and a noun, plural when it is not one.
    package func counted(_ noun: String) -> String {
        "\(groupedText) \(noun)\(self == 1 ? "" : "s")"
    }
}
