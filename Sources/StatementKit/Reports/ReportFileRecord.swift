import Foundation

/// What `process` last wrote to an output folder: each report file's size, modification
/// time, inode and a hash of its bytes, kept in `OUT/.statements-files` (for a part of a
/// ledger split by account, `.statements-files.K-of-N`).
///
/// A nightly run that imports nothing compares each file's `stat` with the record: a file
/// that is missing, or whose size differs, or whose times moved and whose bytes no longer
/// hash to the recorded value, puts its month back into the months to write. No file is
/// read while its stamp agrees; a stamp too young to trust when recorded (a file written
/// within the file system's clock tick) is checked by its hash once, then kept.
package struct ReportFileRecord: Sendable {
    /// One report file as written.
    package struct Entry: Hashable, Sendable {
        /// The stamp when recorded; with a modification time of 0 when it was too young to
        /// trust (the size is kept all the same).
        package var stamp: FileStamp
        /// The FNV-1a hash of the file's bytes.
        package var hash: UInt64
    }

    static let header = "statements-report-files 1"

    /// The files, by path relative to the output folder (`2026-10/DE89….html`).
    package var entries: [String: Entry] = [:]

    /// An empty record.
    package init() {}

    /// Reads the record at `path`; `nil` when there is none, or it cannot be read (the run
    /// then writes every month, as for an output folder it never wrote).
    package init?(contentsOf path: String) {
        // Read as bytes: a nightly run reads a line per report file (20,000 for a large
        // ledger), which `String` splitting would make the bulk of its time.
        guard let bytes = try? FileByteSource(path: path).readAll() else { return nil }
        let lines = bytes.split(separator: 0x0A)
        guard let first = lines.first, Array(first) == Array(Self.header.utf8) else {
            return nil
        }
        entries.reserveCapacity(lines.count)
        for line in lines.dropFirst() {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard fields.count == 5, let size = Self.number(fields[1], radix: 10),
                let modified = Self.number(fields[2], radix: 10),
                let inode = Self.number(fields[3], radix: 10),
                let hash = Self.number(fields[4], radix: 16)
            else { return nil }
            let stamp = FileStamp(
                size: Int64(bitPattern: size), modified: Int64(bitPattern: modified),
                changed: 0, inode: inode, device: 0)
            entries[String(decoding: fields[0], as: UTF8.self)] = Entry(
                stamp: stamp, hash: hash)
        }
    }

    /// A whole number written in ASCII digits (and, for radix 16, `a` to `f`), with an
    /// optional `-`, as its bit pattern; `nil` for anything else.
    private static func number(_ bytes: ArraySlice<UInt8>, radix: UInt64) -> UInt64? {
        var digits = bytes[...]
        let isNegative = digits.first == UInt8(ascii: "-")
        if isNegative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 20 else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
                digit = UInt64(byte &- UInt8(ascii: "a")) + 10
            default: return nil
            }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return isNegative ? 0 &- value : value
    }

    /// The record as the text of its file.
    package var text: String {
        var out = Self.header + "\n"
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let stamp = entry.stamp
            out +=
                "\(path)\t\(stamp.size)\t\(stamp.modified)\t\(stamp.inode)\t\(String(entry.hash, radix: 16))\n"
        }
        return out
    }

    /// The month a recorded file belongs to: its folder's, or for a file of the output
    /// folder itself (the index of every month) the latest recorded month.
    package func month(of path: String) -> Month? {
        if let slash = path.firstIndex(of: "/") { return Month(parsing: String(path[..<slash])) }
        return entries.keys.compactMap { key in
            key.firstIndex(of: "/").flatMap { Month(parsing: String(key[..<$0])) }
        }.max()
    }

    /// The entry for a file as it is now, or `nil` when it is not a regular file.
    static func entry(of path: String, hash: UInt64, now: Int64) -> Entry? {
        guard let stamp = POSIXIO.stamp(of: path) else { return nil }
        return Entry(stamp: settled(stamp, now: now), hash: hash)
    }

    /// The stamp to keep: as it is, or, when too young to trust, its size alone.
    private static func settled(_ stamp: FileStamp, now: Int64) -> FileStamp {
        stamp.isSettled(at: now)
            ? stamp : FileStamp(size: stamp.size, modified: 0, changed: 0, inode: 0, device: 0)
    }

    /// The FNV-1a hash of bytes.
    package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }

    /// Compares every recorded file with the folder.
    ///
    /// - Returns: the months with a file missing or changed, and the record with the stamps
    ///   of files whose times moved but whose bytes did not (to keep, so that the next run
    ///   need not read them again); `isRefreshed` says whether any did.
    /// - Complexity: one `stat` per recorded file; a read of a file only when its stamp
    ///   moved without its size.
    package func check(folder: String) -> (damaged: Set<Month>, refreshed: Self, isRefreshed: Bool)
    {
        var damaged: Set<Month> = []
        var refreshed = self
        var isRefreshed = false
        let now = POSIXIO.nanosecondsNow()
        for (path, entry) in entries {
            let full = "\(folder)/\(path)"
            guard let stamp = POSIXIO.stamp(of: full), stamp.size == entry.stamp.size else {
                if let month = month(of: path) { damaged.insert(month) }
                continue
            }
            if entry.stamp.modified != 0, stamp.sameBytes(as: Self.recorded(entry.stamp, stamp)) {
                continue
            }
            guard let data = FileManager.default.contents(atPath: full),
                Self.hash(data) == entry.hash
            else {
                if let month = month(of: path) { damaged.insert(month) }
                continue
            }
            refreshed.entries[path] = Entry(stamp: Self.settled(stamp, now: now), hash: entry.hash)
            isRefreshed = isRefreshed || stamp.isSettled(at: now)
        }
        return (damaged, refreshed, isRefreshed)
    }

    /// A recorded stamp with the fields the record does not keep taken from `current`.
    private static func recorded(_ stamp: FileStamp, _ current: FileStamp) -> FileStamp {
        FileStamp(
            size: stamp.size, modified: stamp.modified, changed: current.changed,
            inode: stamp.inode, device: current.device)
    }

    /// Replaces the entries of `months` (and the index of every month) by the files just
    /// written or confirmed.
    package mutating func replace(
        months: Set<Month>, with files: [PublishedFile], folder: String
    ) {
        entries = entries.filter { path, _ in
            guard path.contains("/") else { return false }
            return month(of: path).map { !months.contains($0) } ?? false
        }
        let now = POSIXIO.nanosecondsNow()
        for file in files where file.path.hasPrefix(folder + "/") {
            let relative = String(file.path.dropFirst(folder.count + 1))
            if let entry = Self.entry(of: file.path, hash: file.hash, now: now) {
                entries[relative] = entry
            }
        }
    }
}
