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
