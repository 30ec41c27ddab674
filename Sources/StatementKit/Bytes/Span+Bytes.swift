import Foundation

/// Bytes lent as a `Span<UInt8>`: the view the domain values read (amounts, dates, IBANs,
/// account ids, currency codes), bounds-checked and unable to outlive its owner, so that the
/// model does no pointer work. The readers' cursors and buffers, which do, lend their bytes
/// through `withSpan`.
extension UnsafeRawBufferPointer {
    /// Calls `body` with these bytes as a span.
    @inline(__always)
    func withSpan<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(assumingMemoryBound(to: UInt8.self).span)
    }
}

extension Slice<UnsafeRawBufferPointer> {
    /// Calls `body` with these bytes as a span.
    @inline(__always)
    func withSpan<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try UnsafeRawBufferPointer(rebasing: self).withSpan(body)
    }
}

extension Span<UInt8> {
    /// The bytes as text, with invalid UTF-8 repaired.
    @inline(__always)
    var text: String { withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }

    /// The bytes as text, or `nil` when they are not valid UTF-8.
    @inline(__always)
    var validText: String? {
        withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) }
    }

    /// Whether the bytes are valid UTF-8, made no string of.
    var isValidUTF8: Bool {
        withUnsafeBufferPointer { TextEncoding.firstInvalidUTF8($0) == nil }
    }

    /// Whether `byte` is among the bytes.
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool { firstIndex(of: byte) != nil }

    /// The first index of `byte`.
    @inline(__always)
    func firstIndex(of byte: UInt8) -> Int? {
        withUnsafeBufferPointer { $0.firstIndex(of: byte) }
    }

    /// The last index of `byte`.
    @inline(__always)
    func lastIndex(of byte: UInt8) -> Int? {
        withUnsafeBufferPointer { $0.lastIndex(of: byte) }
    }

    /// Whether every byte satisfies `predicate`.
    @inline(__always)
    func allSatisfy(_ predicate: (UInt8) -> Bool) -> Bool {
        withUnsafeBufferPointer { $0.allSatisfy(predicate) }
    }

    /// Whether these bytes are `other`'s.
    @inline(__always)
    func elementsEqual(_ other: some Sequence<UInt8>) -> Bool {
        withUnsafeBufferPointer { $0.elementsEqual(other) }
    }

    /// The first byte, if any.
    @inline(__always)
    var first: UInt8? { isEmpty ? nil : self[0] }

    /// Whether the bytes from `offset` on start with `prefix`.
    @inline(__always)
    func starts(with prefix: some Sequence<UInt8>, at offset: Int = 0) -> Bool {
        withUnsafeBufferPointer { offset <= $0.count && $0[offset...].starts(with: prefix) }
    }

    /// Whether every byte is ASCII.
    @inline(__always)
    var isASCII: Bool {
        withUnsafeBufferPointer { bytes in
            var high: UInt8 = 0
            for byte in bytes { high |= byte }
            return high < 0x80
        }
    }

    /// A copy of the bytes.
    var array: [UInt8] { withUnsafeBufferPointer { Array($0) } }

    /// Whether these bytes sort before `other`'s, byte by byte.
    @inline(__always)
    func lexicographicallyPrecedes(_ other: Span<UInt8>) -> Bool {
        withUnsafeBufferPointer { left in
            other.withUnsafeBufferPointer { left.lexicographicallyPrecedes($0) }
        }
    }
}
