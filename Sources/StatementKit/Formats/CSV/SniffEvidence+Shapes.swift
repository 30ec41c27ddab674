/// The commonest shapes of the dates and amounts the sniffing scan looks at, read at once:
/// every row of a file passes through them.
extension SniffEvidence {
    /// The runs of digits of a date (at most three), their values, and the bytes after the
    /// first two.
    struct DateParts {
        private(set) var runs = (0, 0, 0)
        private(set) var values = (0, 0, 0)
        private var separators: (UInt8, UInt8) = (0, 0)
        private(set) var count = 0

        /// `nil` when the bytes are not three runs of digits with one byte between each, or
        /// a single run.
        init?(_ bytes: UnsafeRawBufferPointer) {
            var index = 0
            while index < bytes.count {
                let start = index
                var value = 0
                while index < bytes.count, case let digit = bytes[index] &- 48, digit < 10 {
                    // Runs longer than eight digits fit no layout; stop the value growing.
                    if index - start < 9 { value = value * 10 + Int(digit) }
                    index += 1
                }
                guard index > start else { return nil }
                switch count {
                case 0: (runs.0, values.0) = (index - start, value)
                case 1: (runs.1, values.1) = (index - start, value)
                case 2: (runs.2, values.2) = (index - start, value)
                default: return nil
                }
                count += 1
                if index < bytes.count {
                    switch count {
                    case 1: separators.0 = bytes[index]
                    case 2: separators.1 = bytes[index]
                    default: return nil
                    }
                    index += 1
                }
            }
        }

        /// The layout the runs make, if any.
        var layout: DateLayout? {
            if count == 1 && runs.0 == 8 { return .compact }
            guard count == 3, separators.0 == separators.1 else { return nil }
            if runs.0 == 4 { return .yearFirst(separator: separators.0) }
            guard runs.2 == 4 || runs.2 == 2, runs.0 <= 2, runs.1 <= 2 else { return nil }
            return .yearLast(separator: separators.0, yearDigits: runs.2)
        }
    }

    /// An amount of the commonest shape: an optional `-`, digits, and optionally one mark
    /// (`.` or `,`) and digits after it, as in `-1676,22`.
    struct PlainAmount {
        /// The mark, if any.
        var mark: UInt8?
        var fractionDigits = 0
        /// Whether the digits before the mark are a single zero (`0,500`).
        var isSingleZero = false

        init?(_ bytes: UnsafeRawBufferPointer) {
            var index = bytes.first == UInt8(ascii: "-") ? 1 : 0
            let integerStart = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            guard index > integerStart else { return nil }
            isSingleZero = index == integerStart + 1 && bytes[integerStart] == UInt8(ascii: "0")
            guard index < bytes.count else { return }
            guard bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") else {
                return nil
            }
            mark = bytes[index]
            index += 1
            let fractionStart = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            fractionDigits = index - fractionStart
            guard fractionDigits > 0, index == bytes.count else { return nil }
        }
    }
}
