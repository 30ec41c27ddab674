import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading an account-month's transactions and identities from the logs, checked.
extension StorageController {
    /// Reads the committed transactions of an account-month.
    package func transactions(
        of account: Account, in month: Month, length: LedgerManifest.MonthLength
    ) throws(StorageError) -> [Transaction] {
        try decodeMonth(of: account, in: month, length: length, LedgerRecord.decode)
    }

    /// The sum of an account-month's amounts: its month record's, or, in a ledger whose
    /// records predate it (format 4), summed from its committed bytes without decoding the
    /// rest.
    func total(of account: Account, in month: Month, length: LedgerManifest.MonthLength)
        throws(StorageError) -> Money
    {
        if let total = length.total { return Money(minorUnits: total, currency: account.currency) }
        return try decodeMonth(of: account, in: month, length: length, LedgerRecord.sum)
    }

    /// Reads the committed bytes of an account-month's transaction lines and decodes them.
    func decodeMonth<T>(
        of account: Account, in month: Month, length: LedgerManifest.MonthLength,
        _ decode: ([UInt8], Currency) throws(LedgerRecord.DecodingError) -> T
    ) throws(StorageError) -> T {
        let bytes = try committedBytes(.data, account.id, month, length)
        do throws(LedgerRecord.DecodingError) {
            return try decode(bytes, account.currency)
        } catch {
            throw damaged(error, account: account, in: month, length: length)
        }
    }

    /// The error of an account-month's transaction lines that cannot be decoded.
    func damaged(
        _ error: LedgerRecord.DecodingError, account: Account, in month: Month,
        length: LedgerManifest.MonthLength
    ) -> StorageError {
        .damaged(
            folder: folder, path: place(.data, account.id, month, length),
            reason: "cannot be read: \(error)")
    }

    /// Where an account-month's bytes are, for messages: the log, with the account-month, or
    /// the month's own file in formats 1 to 3.
    private func place(
        _ part: LogPart, _ accountID: AccountID, _ month: Month,
        _ length: LedgerManifest.MonthLength, version: Int = LedgerManifest.formatVersion
    ) -> String {
        length.extents == nil
            ? monthPath(part, accountID, month, version: version)
            : "\(logPath(part)) (the rows of \(accountID.text) in \(month.isoText))"
    }

    /// Reads the committed bytes of an account-month, from its extents in a log (or its own
    /// file in formats 1 to 3), and checks them against the manifest's checksum (a format 1
    /// manifest has none).
    func committedBytes(
        _ part: LogPart, _ accountID: AccountID, _ month: Month,
        _ length: LedgerManifest.MonthLength, version: Int = LedgerManifest.formatVersion
    ) throws(StorageError) -> [UInt8] {
        let bytes = try uncheckedBytes(part, accountID, month, length, version: version)
        let checksum = part == .data ? length.dataChecksum : length.idChecksum
        if let checksum, Checksum.of(bytes) != checksum {
            throw changed(part, accountID, month, length, version: version)
        }
        return bytes
    }

    /// Reads the committed bytes of an account-month without checking them (see
    /// `committedBytes`).
    private func uncheckedBytes(
        _ part: LogPart, _ accountID: AccountID, _ month: Month,
        _ length: LedgerManifest.MonthLength, version: Int = LedgerManifest.formatVersion
    ) throws(StorageError) -> [UInt8] {
        if let extents = length.extents { return try readExtents(part, extents) }
        return try readFile(
            monthPath(part, accountID, month, version: version),
            upTo: part == .data ? length.dataBytes : length.idBytes, missingIsEmpty: false) ?? []
    }

    /// The error of an account-month's bytes that do not match their checksum.
    private func changed(
        _ part: LogPart, _ accountID: AccountID, _ month: Month,
        _ length: LedgerManifest.MonthLength, version: Int = LedgerManifest.formatVersion
    ) -> StorageError {
        .damaged(
            folder: folder, path: place(part, accountID, month, length, version: version),
            reason: "does not match its checksum: it was changed after it was written")
    }

    /// An account-month's transaction lines as committed, for readers that check them on
    /// other cores (`LedgerManifest.MonthLength.holds(data:)`, else `changed(data:…)`).
    func uncheckedDataBytes(
        of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength
    ) throws(StorageError) -> [UInt8] {
        try uncheckedBytes(.data, accountID, month, length)
    }

    /// The error of an account-month's transaction lines that do not match their checksum.
    func changed(data accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength)
        -> StorageError
    {
        changed(.data, accountID, month, length)
    }

    /// Checks that a log is there and holds its committed bytes, without reading them: what
    /// a reader of month records alone can check of the bytes they describe.
    func checkLength(of part: LogPart, committed: Int) throws(StorageError) {
        guard committed > 0 else { return }
        let path = logPath(part)
        var info = stat()
        guard fstat(try reader(path), &info) == 0 else { throw error("read", path) }
        guard Int(info.st_size) >= committed else {
            throw .damaged(
                folder: folder, path: path,
                reason: "is shorter than its committed length (\(committed) bytes)")
        }
    }

    /// A log open for reading, opened once: a missing one is damage.
    private func reader(_ path: String) throws(StorageError) -> Int32 {
        if let descriptor = readers[path] { return descriptor }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .damaged(folder: folder, path: path, reason: "is missing") }
            throw error("read", path)
        }
        readers[path] = descriptor
        return descriptor
    }

    /// Reads extents of a log, one after another.
    private func readExtents(_ part: LogPart, _ extents: [LedgerManifest.Extent])
        throws(StorageError) -> [UInt8]
    {
        try read(
            logPath(part),
            extents.map {
                part == .data ? ($0.dataOffset, $0.dataBytes) : ($0.idOffset, $0.idBytes)
            })
    }

    /// Reads ranges of a committed log, one after another.
    func read(_ path: String, _ ranges: [(offset: Int, count: Int)])
        throws(StorageError) -> [UInt8]
    {
        let descriptor = try reader(path)
        var bytes = [UInt8](repeating: 0, count: ranges.reduce(0) { $0 + $1.1 })
        var start = 0
        for (offset, count) in ranges {
            switch POSIXIO.readFully(descriptor, into: &bytes, start..<start + count, at: offset) {
            case .success(let read) where read < count:
                throw .damaged(
                    folder: folder, path: path,
                    reason: "is shorter than its committed length (\(offset + count) bytes)")
            case .success:
                start += count
                bytesRead += count
            case .failure(let failure):
                throw .io(path: path, operation: "read", reason: failure.description)
            }
        }
        return bytes
    }

    /// Reads the committed transactions of an account-month with its bytes, for an upgrade,
    /// which copies them into the logs.
    func transactionsAndBytes(
        of account: Account, in month: Month, length: LedgerManifest.MonthLength
    ) throws(StorageError) -> ([Transaction], [UInt8]) {
        try decodeMonth(of: account, in: month, length: length) {
            (bytes, currency) throws(LedgerRecord.DecodingError) in
            (try LedgerRecord.decode(bytes, currency: currency), bytes)
        }
    }

    /// An account-month's transaction lines, checked to be as committed, without decoding
    /// them.
    func dataBytes(of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength)
        throws(StorageError) -> [UInt8]
    {
        try committedBytes(.data, accountID, month, length)
    }

    /// The committed identity index of an account-month, as stored.
    func identityBytes(
        of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength
    ) throws(StorageError) -> [UInt8] {
        try committedBytes(.ids, accountID, month, length)
    }

    /// Reads the committed identity entries of an account-month: each identity hash with the
    /// check of the amount it was imported with (0 for an identity without transaction id).
    func identities(of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength)
        throws(StorageError) -> [(hash: UInt64, amountCheck: UInt64)]
    {
        let bytes = try identityBytes(of: accountID, in: month, length: length)
        func word(_ offset: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << UInt64(8 * $1) }
        }
        return stride(from: 0, to: bytes.count - bytes.count % 16, by: 16).map { offset in
            (word(offset), word(offset + 8))
        }
    }

    func readFile(_ path: String, upTo limit: Int?, missingIsEmpty: Bool)
        throws(StorageError) -> [UInt8]?
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT && missingIsEmpty { return nil }
            if errno == ENOENT && limit != nil {
                throw .damaged(folder: folder, path: path, reason: "is missing")
            }
            throw error("read", path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw error("read", path) }
        let size = limit ?? Int(info.st_size)
        guard Int(info.st_size) >= size else {
            throw .damaged(
                folder: folder, path: path,
                reason: "is shorter (\(info.st_size) bytes) than its committed length (\(size))")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        switch POSIXIO.readFully(descriptor, into: &bytes, 0..<size, at: 0) {
        case .success(let count) where count < size:
            throw .damaged(folder: folder, path: path, reason: "ended early")
        case .success: bytesRead += size
        case .failure(let failure):
            throw .io(path: path, operation: "read", reason: failure.description)
        }
        return bytes
    }
}
