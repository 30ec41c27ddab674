#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files the ledger's runs rejected, by absolute path, each with the hash of the bytes
/// rejected: a later run that finds the same bytes (read the same way) says "still rejected
/// since" without parsing them again. Kept in `STATE/rejected`, a file of its own beside the
/// manifest, replaced whole (a temporary renamed over it): it is a memory that saves work,
/// not part of the ledger's content, so losing it costs one more read of each rejected file.
struct RejectedFiles: Equatable {
    /// A file rejected, as it was then.
    struct Entry: Equatable {
        /// The hash of the bytes rejected.
        var content: ContentHash
        /// How the file was read (its profile, `--account`, `--strict`).
        var reading: Checksum
        /// When it was first rejected with these bytes.
        var since: String
        /// Its errors then, and the first of them.
        var errorCount: Int
        var code: DiagnosticCode
        var line: Int
        var column: Int
        var message: String
    }

    var entries: [String: Entry] = [:]

    static let fileName = "rejected"

    /// Reads the rejected files of a state folder; none when the file is missing or
    /// unreadable (the next run then reads each file again).
    static func load(from folder: String) -> RejectedFiles {
        var result = RejectedFiles()
        guard let source = try? FileByteSource(path: folder + "/" + fileName),
            let bytes = try? source.readAll()
        else { return result }
        for line in bytes.split(separator: 10) {
            let fields = line.split(separator: 9, omittingEmptySubsequences: false)
            guard fields.count == 9,
                let content = ContentHash(hexText: String(decoding: fields[0], as: UTF8.self)),
                let reading = UInt64(String(decoding: fields[1], as: UTF8.self), radix: 16),
                let errors = Int(String(decoding: fields[3], as: UTF8.self)),
                let code = DiagnosticCode(rawValue: String(decoding: fields[4], as: UTF8.self)),
                let lineNumber = Int(String(decoding: fields[5], as: UTF8.self)),
                let column = Int(String(decoding: fields[6], as: UTF8.self)),
                let message = LedgerRecord.unescape(fields[7]),
                let path = LedgerRecord.unescape(fields[8])
            else { continue }
            result.entries[path] = Entry(
                content: content, reading: Checksum(value: reading),
                since: String(decoding: fields[2], as: UTF8.self), errorCount: errors, code: code,
                line: lineNumber, column: column, message: message)
        }
        return result
    }

    /// Replaces the state folder's record with this one (removes it when empty).
    func save(to folder: String) throws(StorageError) {
        let path = folder + "/" + Self.fileName
        guard !entries.isEmpty else {
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .io(
                    path: path, operation: "remove", reason: POSIXErrno(code: errno).description)
            }
            return
        }
        var bytes: [UInt8] = []
        for path in entries.keys.sorted() {
            let entry = entries[path]!
            let fields = [
                entry.content.description, String(entry.reading.value, radix: 16), entry.since,
                String(entry.errorCount), entry.code.rawValue, String(entry.line),
                String(entry.column),
            ]
            bytes += Array(fields.joined(separator: "\t").utf8) + [9]
            LedgerRecord.escape(entry.message, into: &bytes)
            bytes.append(9)
            LedgerRecord.escape(path, into: &bytes)
            bytes.append(10)
        }
        if let failure = POSIXIO.replaceSynced(path, with: bytes, through: path + ".tmp") {
            throw .io(failure)
        }
    }

    /// Forgets the files at or below `roots` (absolute paths) that a run did not find.
    mutating func forget(below roots: [String], except found: Set<String>) {
        for path in entries.keys where !found.contains(path) {
            if roots.contains(where: {
                path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/")
            }) {
                entries[path] = nil
            }
        }
    }

    /// Notes a file rejected after a full read: its first error is kept, and the time of
    /// the first rejection of the same bytes.
    mutating func note(
        _ path: String, content: ContentHash, reading: Checksum, validation: FileValidation,
        now: String
    ) {
        guard
            let first = validation.diagnostics.first(where: { $0.severity == .error })
                ?? validation.diagnostics.first
        else { return }
        let since = entries[path].flatMap { $0.content == content ? $0.since : nil } ?? now
        entries[path] = Entry(
            content: content, reading: reading, since: since,
            errorCount: validation.errorCount, code: first.code, line: first.line,
            column: first.column, message: first.message)
    }

    /// What a rejected file found again with the same bytes gives: its first error again,
    /// said to be still there, without the file being parsed.
    func stillRejected(
        _ path: String, named name: String, content: ContentHash, reading: Checksum,
        isStrict: Bool, limit: Int
    ) -> FileValidation? {
        guard let entry = entries[path], entry.content == content, entry.reading == reading
        else { return nil }
        var collector = DiagnosticCollector(file: name, isStrict: true, limit: limit)
        collector.report(
            .stillRejected(
                entry.code, since: entry.since, message: entry.message,
                errorCount: entry.errorCount),
            line: entry.line, column: entry.column)
        return FileValidation(path: name, rowCount: 0, collector: collector)
    }
}
