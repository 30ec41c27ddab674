extension String {
    /// A number in hexadecimal, with zeros before it up to `digits` digits: `00e9` for
    /// 0xE9 in four, as a checksum, a `\u` escape or a `U+` code point is written.
    package init(hex value: some BinaryInteger, digits: Int, uppercase: Bool = false) {
        let text = String(value, radix: 16, uppercase: uppercase)
        self = String(repeating: "0", count: Swift.max(0, digits - text.count)) + text
    }
}
