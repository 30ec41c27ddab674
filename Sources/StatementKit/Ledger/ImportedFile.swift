/// A statement file whose every transaction the ledger holds, as the file was when it was
/// imported: so that a later run finds it unchanged with a `stat` alone (or, when only its
/// times changed, with a hash of its bytes) and does not read it again.
///
/// Only files imported whole without a warning are recorded (reading one again would give
/// "already present" and no diagnostic, which is what a recorded file is then said to be),
/// together with how they were read: the same bytes under another profile may be other rows.
package struct ImportedFile: Hashable, Sendable {
    /// The file's status when it was read.
    package var stamp: FileStamp
    /// The hash of its bytes.
    package var content: ContentHash
    /// The checksum of how it was read: its profile's bytes and the `--account` given.
    package var reading: Checksum
    /// How many transactions the file gave the ledger, new or already there.
    package var transactionCount: Int
    /// How many rows it holds, and how many of them were left out as not booked.
    package var rowCount: Int
    package var notBookedCount: Int

    package init(
        stamp: FileStamp, content: ContentHash, reading: Checksum, transactionCount: Int,
        rowCount: Int, notBookedCount: Int
    ) {
        self.stamp = stamp
        self.content = content
        self.reading = reading
        self.transactionCount = transactionCount
        self.rowCount = rowCount
        self.notBookedCount = notBookedCount
    }
}

/// What `stat(2)` says of a file that changes whenever its content does: size, modification
/// and status-change times in nanoseconds, inode and device. The status-change time cannot be
/// set back by a program, so a file rewritten with its old size and modification time still
/// gets another stamp.
package struct FileStamp: Hashable, Sendable {
    package var size: Int64
    package var modified: Int64
    package var changed: Int64
    package var inode: UInt64
    package var device: UInt64

    package init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
        self.device = device
    }

    /// Whether the stamp is of the same file with the same bytes as `other`: all but the
    /// change time agree (linking a file moves that, and nothing else).
    package func sameBytes(as other: FileStamp) -> Bool {
        (size, modified, inode, device)
            == (other.size, other.modified, other.inode, other.device)
    }

    /// Whether a stamp taken at `now` (nanoseconds) may be trusted later: a file changed
    /// within the same tick of the file system's clock as it was read could change again
    /// without its times moving, so a stamp younger than `racyNanoseconds` is not.
    package func isSettled(at now: Int64) -> Bool {
        max(modified, changed) <= now - Self.racyNanoseconds
    }

    /// How old a stamp must be to be trusted: two seconds, more than any file system's tick.
    package static let racyNanoseconds: Int64 = 2_000_000_000

    /// The stamp kept for a file whose own was too young to trust: no file has it, so the
    /// next run hashes the file instead.
    package static let unsettled = FileStamp(
        size: -1, modified: 0, changed: 0, inode: 0, device: 0)
}

/// A 128-bit hash of a file's bytes (`ContentHasher`), kept to tell a changed file from an
/// unchanged one. Not a cryptographic hash: it tells a changed file from an unchanged one, not
/// a forgery from the original.
package struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    package let first: UInt64
    package let second: UInt64

    package init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    /// The hash of some bytes.
    package static func of(_ bytes: UnsafeRawBufferPointer) -> ContentHash {
        var hasher = ContentHasher()
        hasher.feed(bytes)
        return hasher.finish()
    }

    /// 32 hexadecimal digits.
    package var description: String {
        [first, second].map {
            let digits = String($0, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// Reads the 32 hexadecimal digits of `description`.
    package init?(hexText: some StringProtocol) {
        let bytes = Array(hexText.utf8)
        guard bytes.count == 32, bytes.allSatisfy({ $0 &- 48 < 10 || ($0 | 0x20) &- 97 < 6 }),
            let first = UInt64(String(decoding: bytes[..<16], as: UTF8.self), radix: 16),
            let second = UInt64(String(decoding: bytes[16...], as: UTF8.self), radix: 16)
        else { return nil }
        self.init(first: first, second: second)
    }
}

/// Computes a `ContentHash` over a byte stream fed in pieces of any size: eight bytes at a
/// time in two lanes with different multipliers, several gigabytes a second, so that hashing
/// an imported file costs a small part of parsing it.
package struct ContentHasher: Sendable {
    private var first: UInt64 = 0x243F_6A88_85A3_08D3
    private var second: UInt64 = 0x1319_8A2E_0370_7344
    private var length: UInt64 = 0
    /// Bytes of a word not yet complete, low byte first, and how many.
    private var pending: UInt64 = 0
    private var pendingCount: UInt64 = 0

    package init() {}

    private mutating func mix(_ word: UInt64) {
        first = ((first ^ word) &* 0x9E37_79B9_7F4A_7C15).rotated(by: 31)
        second = ((second ^ word) &* 0xC2B2_AE3D_27D4_EB4F).rotated(by: 29)
    }

    private mutating func take(_ byte: UInt8) {
        pending |= UInt64(byte) << (8 * pendingCount)
        pendingCount += 1
        if pendingCount == 8 {
            mix(pending)
            (pending, pendingCount) = (0, 0)
        }
    }

    /// Continues the hash over more bytes.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var index = 0
        while pendingCount > 0 && index < bytes.count {
            take(bytes[index])
            index += 1
        }
        while index + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        while index < bytes.count {
            take(bytes[index])
            index += 1
        }
    }

    /// The hash of every byte fed, with their count folded in.
    package func finish() -> ContentHash {
        var hasher = self
        hasher.mix(hasher.pending)
        hasher.mix(hasher.length)
        func avalanche(_ value: UInt64) -> UInt64 {
            var value = value
            value ^= value >> 33
            value &*= 0xFF51_AFD7_ED55_8CCD
            value ^= value >> 33
            value &*= 0xC4CE_B9FE_1A85_EC53
            return value ^ value >> 33
        }
        return ContentHash(
            first: avalanche(hasher.first), second: avalanche(hasher.second ^ hasher.first))
    }
}

extension UInt64 {
    fileprivate func rotated(by count: UInt64) -> UInt64 {
        self << count | self >> (64 - count)
    }
}
