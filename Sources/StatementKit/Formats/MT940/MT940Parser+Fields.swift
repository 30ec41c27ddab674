import Foundation

/// The pieces of an MT940 statement: field tags and text, entries, balances, statements.
extension MT940Parser {
    /// A field's tag, such as `61` or `60F`: two digits and up to two more digits or capital
    /// letters, packed into one integer so that telling tags apart compares one word.
    struct Tag: Hashable, CustomStringConvertible {
        private let packed: UInt32

        /// The tag of the bytes (at most four are read).
        init(_ bytes: Span<UInt8>) {
            var packed: UInt32 = 0
            for index in 0..<min(bytes.count, 4) {
                packed |= UInt32(bytes[index]) << UInt32(8 * index)
            }
            self.packed = packed
        }

        /// A tag from its characters' codes, the first in the lowest byte: constants, so
        /// that comparing with one loads nothing (`MT940ParserTests` checks each against its
        /// text).
        private init(packed: UInt32) {
            self.packed = packed
        }

        static var statement: Tag { Tag(packed: 0x3032) }  // 20
        static var account: Tag { Tag(packed: 0x3532) }  // 25
        static var openingFinal: Tag { Tag(packed: 0x46_3036) }  // 60F
        static var openingInterim: Tag { Tag(packed: 0x4D_3036) }  // 60M
        static var closingFinal: Tag { Tag(packed: 0x46_3236) }  // 62F
        static var closingInterim: Tag { Tag(packed: 0x4D_3236) }  // 62M
        static var entry: Tag { Tag(packed: 0x3136) }  // 61
        static var information: Tag { Tag(packed: 0x3638) }  // 86
        static var floorLimit: Tag { Tag(packed: 0x46_3433) }  // 34F
        static var dateTime: Tag { Tag(packed: 0x44_3331) }  // 13D
        static var debitCount: Tag { Tag(packed: 0x44_3039) }  // 90D
        static var creditCount: Tag { Tag(packed: 0x43_3039) }  // 90C

        /// The number of characters.
        var count: Int { (32 - packed.leadingZeroBitCount + 7) / 8 }

        var isClosing: Bool { self == .closingFinal || self == .closingInterim }

        var description: String {
            String(
                decoding: (0..<count).map { UInt8(truncatingIfNeeded: packed >> ($0 * 8)) },
                as: UTF8.self)
        }
    }

    /// The text of a field: the bytes of its lines one after another and where each line
    /// ends. One is kept per use and reused, so that reading a line allocates nothing.
    struct FieldText {
        /// The lines' bytes one after another: the first `byteCount` of `storage`. The
        /// storage and `lineEnds` keep their contents from one field to the next, only the
        /// counts start again (emptying an array each time costs more than the line).
        private var storage: [UInt8] = []
        private var byteCount = 0
        private var lineEnds: [Int] = []
        private(set) var lineCount = 0

        mutating func removeAll() {
            byteCount = 0
            lineCount = 0
        }

        mutating func append(_ line: Span<UInt8>) {
            let end = byteCount + line.count
            if storage.count < end {
                storage.append(contentsOf: repeatElement(0, count: end - storage.count))
            }
            if !line.isEmpty {
                storage.withUnsafeMutableBufferPointer { bytes in
                    line.withUnsafeBufferPointer {
                        (bytes.baseAddress! + byteCount).update(
                            from: $0.baseAddress!, count: $0.count)
                    }
                }
            }
            byteCount = end
            if lineCount < lineEnds.count {
                lineEnds[lineCount] = end
            } else {
                lineEnds.append(end)
            }
            lineCount += 1
        }

        /// The line at `index`; the first one starts at 0.
        func line(_ index: Int) -> ArraySlice<UInt8> {
            storage[(index == 0 ? 0 : lineEnds[index - 1])..<lineEnds[index]]
        }

        /// The lines from `first` on joined: without a break where the text is cut at a
        /// fixed width (structured `?20` and `/NAME/` forms), with a space otherwise.
        func joined(from first: Int = 0) -> [UInt8] {
            guard first < lineCount else { return [] }
            let head = line(first)
            let structured = head.contains(UInt8(ascii: "?")) || head.first == UInt8(ascii: "/")
            var result: [UInt8] = []
            for index in first..<lineCount {
                if index > first && !structured { result.append(UInt8(ascii: " ")) }
                result += line(index)
            }
            return result
        }
    }

    /// A field being read: its tag and where it starts (its text is the state's `fieldText`).
    struct Field {
        let tag: Tag
        let line: Int
        /// Whether lines past `maximumFieldLines` were left out (and reported).
        var isCut = false
    }

    /// A `:61:` entry waiting for its `:86:`. Its text is the state's `entryText`, whose first
    /// line holds the references.
    struct Entry {
        let line: Int
        let date: Day
        let amount: Money
        /// The customer's reference, without spaces; `nil` when absent or `NONREF`.
        let customerReference: Range<Int>?
        /// The bank's reference, the transaction id, likewise.
        let bankReference: Range<Int>?
        let typeCode: Range<Int>
        /// Whether an `:86:` (the state's `informationText`) belongs to the entry.
        var hasInformation = false
    }

    /// A balance field: `:60F:`, `:62F:` and the like.
    struct Balance {
        let line: Int
        let money: Money
        /// The date the field gives.
        var day: Day? = nil
        /// Whether it is a final balance (`:60F:`, `:62F:`), not an intermediate one.
        var isFinal = true
    }

    /// The statement being read.
    struct Statement {
        let line: Int
        var account: Account? {
            didSet { idPrefix = account.map { TransactionIdentity.transactionIDPrefix($0.id) } }
        }
        /// What the keys of the account's transaction ids start with.
        var idPrefix: StableHasher?
        /// Whether a `:25:` was read, valid or not.
        var hasAccountField = false
        var opening: Balance?
        var closing: Balance?
        /// The currency of the entries: the opening balance's, or an MT942's floor limit's.
        var currency: Currency?
        var total: Int64 = 0
        var isValid = true
        var isInterim = false
    }
}
