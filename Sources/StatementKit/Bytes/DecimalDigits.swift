/// The decimal digits of a number, written without making a string first: how the ledger's
/// lines and the reports turn integers into digits, thousands of times a second.
enum DecimalDigits {
    /// Calls `body` with the ASCII digits of `value`, zero-padded to at least `minimumCount`
    /// digits (at most 24).
    static func with<Result>(
        _ value: UInt64, minimumCount: Int = 1, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        var rest = value
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &buffer) { bytes in
            var first = bytes.count
            while rest > 0 || bytes.count - first < minimumCount {
                first -= 1
                bytes[first] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return body(UnsafeRawBufferPointer(rebasing: bytes[first...]))
        }
    }

    /// Appends the digits of `value` with `,` between groups of three in its integer part
    /// and `.` before its last `fractionDigits` digits, such as `41,200` or `1,234.56`.
    static func appendGrouped(_ value: UInt64, fractionDigits: Int = 0, to out: inout [UInt8]) {
        with(value, minimumCount: fractionDigits + 1) { number in
            let integerCount = number.count - fractionDigits
            for index in 0..<integerCount {
                if index > 0 && (integerCount - index) % 3 == 0 { out.append(UInt8(ascii: ",")) }
                out.append(number[index])
            }
            guard fractionDigits > 0 else { return }
            out.append(UInt8(ascii: "."))
            out.append(bytes: UnsafeRawBufferPointer(rebasing: number[integerCount...]))
        }
    }
}
