extension Int {
    /// The number with `,` between groups of three digits, such as `41,200`.
    package var groupedText: String {
        let digits = String(magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }

    /// "1 error", "2 errors": the number and a noun, plural when it is not one.
    package func counted(_ noun: String) -> String {
        "\(groupedText) \(noun)\(self == 1 ? "" : "s")"
    }
}
