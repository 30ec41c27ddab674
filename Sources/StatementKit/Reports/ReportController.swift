import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The report formats.
package enum ReportFormat: String, CaseIterable, Hashable, Sendable {
    case text, csv, html

    /// The file extension of the format.
    package var fileExtension: String { self == .text ? "txt" : rawValue }
}

/// What happened to one report file.
package struct PublishedFile: Hashable, Sendable {
    package let path: String
    /// Whether the file was written; `false` when it already held exactly this content.
    package let isWritten: Bool
    /// The FNV-1a hash of the file's bytes (`ReportFileRecord.hash`).
    package var hash: UInt64 = 0
}

/// Renders monthly statements and writes them as `OUT/YYYY-MM/AccountID.txt|.csv|.html` plus
/// `OUT/YYYY-MM/index.html`, rewriting only files whose content changes.
///
/// The parts of a ledger split by account (`Shard`) may write to one output folder, at once
/// or one after another: each keeps its own record of closing balances in a month and of the
/// generation it reported, and the indexes list every part's accounts, from every part's
/// records.
package final class ReportController {
    /// The output folder.
    package let folder: String
    private let formats: [ReportFormat]
    private let locale: Locale
    private let job: PublishJob
    /// The part of a ledger split by account whose statements this controller writes.
    private let shard: Shard?
    /// Told of each statement's files written, when set.
    package var progress: ProgressHandler?

    /// Creates a controller writing below `folder`, the statements of the accounts of
    /// `shard` (of every account when `nil`).
    ///
    /// - Parameter csvByteOrderMark: whether CSV statements start with a byte order mark.
    package init(
        folder: String, formats: [ReportFormat], locale: Locale, shard: Shard? = nil,
        csvByteOrderMark: Bool = false
    ) {
        self.folder = folder
        self.formats = ReportFormat.allCases.filter(formats.contains)
        self.locale = locale
        self.shard = shard
        job = PublishJob(
            folder: folder, formats: self.formats, text: TextStatementRenderer(locale: locale),
            html: HTMLStatementRenderer(locale: locale),
            csv: CSVStatementRenderer(byteOrderMark: csvByteOrderMark))
    }

    /// Renders one statement in one format.
    package func render(_ statement: MonthlyStatement, as format: ReportFormat) -> String {
        job.render(statement, as: format)
    }

    /// Writes every statement in every format, and each month's index when HTML is written,
    /// then records `generation` as the one the reports reflect.
    ///
    /// A file whose content would not change is left alone, bytes and modification time; a
    /// new one appears whole (written unnamed, then named); a changed one is replaced
    /// atomically (written beside under a name of this process, then renamed). Runs writing
    /// one output folder take turns (`flock` on the folder), so each month's files and index
    /// come from one run; the recorded generation never moves back.
    ///
    /// - Parameters:
    ///   - accountMonths: each account's months with transactions: an HTML statement links
    ///     to the account's statements of the months before and after.
    ///   - record: when given (by `process`), the record of the files written, whose entries
    ///     of the months written are replaced and which is then saved.
    package func publish(
        _ statements: [MonthlyStatement], generation: Int? = nil,
        accountMonths: [AccountID: [Month]] = [:], record: ReportFileRecord? = nil
    ) throws(StorageError) -> [PublishedFile] {
        let lock = try lockFolder()
        defer { close(lock) }
        let byMonth = Dictionary(grouping: statements, by: \.month)
        let newMonths = try makeMonthFolders(byMonth.keys)
        let ordered = byMonth.keys.sorted().flatMap { month in
            byMonth[month]!.sorted(by: { $0.account.id < $1.account.id })
        }
        var published = try publish(
            ordered: ordered, accountMonths: accountMonths, newMonths: newMonths)
        if formats.contains(.html) {
            published += try publishIndexes(byMonth)
            if !statements.isEmpty { published.append(try writeAllMonthsIndex()) }
        }
        if var record, !statements.isEmpty {
            record.replace(months: Set(byMonth.keys), with: published, folder: folder)
            try saveRecord(record)
        }
        if let generation, generation >= reportedGeneration() ?? 0 {
            _ = try Self.write("\(generation)\n", to: markerPath)
        }
        return published
    }

    /// Makes the output folder and takes its lock (`flock`), waiting for another run; returns
    /// the descriptor that holds it, for the caller to close.
    private func lockFolder() throws(StorageError) -> Int32 {
        try Self.makeFolder(folder)
        let lock = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else {
            throw .io(path: folder, operation: "open", reason: String(cString: strerror(errno)))
        }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(lock)
                throw .io(path: folder, operation: "lock", reason: String(cString: strerror(errno)))
            }
        }
        return lock
    }

    /// Makes the months' folders, and removes what a run that died left in them and in the
    /// output folder; returns the months whose folders are new: they hold no file yet, so
    /// none is compared.
    private func makeMonthFolders(_ months: some Sequence<Month>) throws(StorageError)
        -> Set<Month>
    {
        var newMonths: Set<Month> = []
        for month in months {
            let path = "\(folder)/\(month.isoText)"
            if mkdir(path, 0o755) == 0 {
                newMonths.insert(month)
            } else if errno == EEXIST {
                Self.removeStaleTemporaries(in: path)
            } else {
                let reason = String(cString: strerror(errno))
                throw .io(path: path, operation: "create folder", reason: reason)
            }
        }
        Self.removeStaleTemporaries(in: folder)
        return newMonths
    }

    /// Renders and writes the statements on every core; each has files of its own, and the
    /// results are put back in order. The cores take runs of statements from different months
    /// in turn, so that they seldom wait for one another's lock on a folder.
    private func publish(
        ordered: [MonthlyStatement], accountMonths: [AccountID: [Month]], newMonths: Set<Month>
    ) throws(StorageError) -> [PublishedFile] {
        let results = ConcurrentResults<Result<[PublishedFile], StorageError>>(count: ordered.count)
        let runs = Self.runs(of: ordered.map(\.month), length: 16)
        let (job, madeMonths) = (self.job, newMonths)
        let tally = FileTally(
            count: ordered.count * formats.count, phase: .writingReports, progress: progress)
        tally.report(nil)
        DispatchQueue.concurrentPerform(iterations: runs.count) { run in
            for index in runs[run] {
                let statement = ordered[index]
                let neighbours = StatementNeighbours(
                    of: statement.month, among: accountMonths[statement.account.id] ?? [])
                results[index] = Result { () throws(StorageError) in
                    try job.publish(
                        statement, neighbours: neighbours,
                        inNewFolder: madeMonths.contains(statement.month))
                }
                tally.add(files: job.formats.count)
            }
        }
        var published: [PublishedFile] = []
        for result in results.values {
            published += try result!.get()
        }
        return published
    }

    /// Writes each month's closing balances and index, the months on every core.
    private func publishIndexes(_ byMonth: [Month: [MonthlyStatement]]) throws(StorageError)
        -> [PublishedFile]
    {
        let months = byMonth.keys.sorted()
        let (folder, locale, balancesName) = (folder, locale, balancesName)
        let extensions = formats.map(\.fileExtension)
        let indexes = ConcurrentResults<Result<PublishedFile, StorageError>>(count: months.count)
        DispatchQueue.concurrentPerform(iterations: months.count) { index in
            let month = months[index]
            indexes[index] = Result { () throws(StorageError) in
                let own = ClosingBalances(month: month, statements: byMonth[month]!)
                _ = try Self.write(own.tsv, to: "\(folder)/\(month.isoText)/\(balancesName)")
                var page = ""
                MonthIndexRenderer(locale: locale).render(
                    ClosingBalances(
                        month: month, merging: [own] + Self.balances(of: month, in: folder)),
                    extensions: extensions, into: &page)
                return try Self.write(page, to: "\(folder)/\(month.isoText)/index.html")
            }
        }
        var published: [PublishedFile] = []
        for result in indexes.values { published.append(try result!.get()) }
        return published
    }

    /// The record of the files `process` wrote, if the folder has one (see
    /// `ReportFileRecord`).
    package func fileRecord() -> ReportFileRecord? {
        ReportFileRecord(contentsOf: recordPath)
    }

    /// Saves the record of the files written.
    package func saveRecord(_ record: ReportFileRecord) throws(StorageError) {
        try Self.makeFolder(folder)
        _ = try Self.write(record.text, to: recordPath)
    }

    /// `.statements-files`, or for a part `.statements-files.K-of-N`.
    private var recordPath: String { "\(folder)/.statements-files\(partSuffix)" }

    /// Renders and writes the files of one statement; a value, so that cores can share it.
    private struct PublishJob: Sendable {
        let folder: String
        let formats: [ReportFormat]
        let text: TextStatementRenderer
        let html: HTMLStatementRenderer
        let csv: CSVStatementRenderer

        func render(
            _ statement: MonthlyStatement, as format: ReportFormat,
            neighbours: StatementNeighbours = .none
        ) -> String {
            var output: [UInt8] = []
            render(statement, as: format, neighbours: neighbours, into: &output)
            return String(decoding: output, as: UTF8.self)
        }

        /// Renders one statement in one format as UTF-8 bytes.
        func render(
            _ statement: MonthlyStatement, as format: ReportFormat,
            neighbours: StatementNeighbours, into output: inout [UInt8]
        ) {
            switch format {
            case .text: text.render(statement, into: &output)
            case .csv: csv.render(statement, into: &output)
            case .html: html.render(statement, neighbours: neighbours, into: &output)
            }
        }

        func publish(
            _ statement: MonthlyStatement, neighbours: StatementNeighbours, inNewFolder: Bool
        ) throws(StorageError) -> [PublishedFile] {
            var published: [PublishedFile] = []
            // Room for the largest format (HTML: a page head, a chart, ~300 bytes a
            // transaction) at once, rather than grown by doubling and copying.
            var output: [UInt8] = []
            output.reserveCapacity(8192 + 320 * statement.entries.count)
            let base = "\(folder)/\(statement.month.isoText)/\(statement.account.id.fileName)."
            for format in formats {
                output.removeAll(keepingCapacity: true)
                render(statement, as: format, neighbours: neighbours, into: &output)
                published.append(
                    try ReportController.write(
                        output, to: base + format.fileExtension, isNew: inNewFolder))
            }
            return published
        }
    }

    /// The positions of `months` (in order) cut into runs of at most `length` in one month,
    /// ordered so that runs next to each other are of different months where there are
    /// several: every month's first run, then every month's second, and so on.
    static func runs(of months: [Month], length: Int) -> [Range<Int>] {
        var runs: [(rank: Int, range: Range<Int>)] = []
        var start = 0
        while start < months.count {
            let monthStart = start
            while start < months.count, months[start] == months[monthStart] { start += 1 }
            for (rank, lower) in stride(from: monthStart, to: start, by: length).enumerated() {
                runs.append((rank, lower..<min(lower + length, start)))
            }
        }
        // A stable order by rank: runs of one rank stay in month order.
        return runs.enumerated().sorted {
            ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset)
        }
        .map(\.element.range)
    }

    /// The file beside a month's reports with each account's closing balance:
    /// `.closing-balances.tsv`, or for a part of a ledger split by account
    /// `.closing-balances.K-of-N.tsv`.
    private var balancesName: String { ".closing-balances\(partSuffix).tsv" }

    /// `.K-of-N` for a part of a ledger split by account, else nothing.
    private var partSuffix: String { shard.map { ".\($0.number)-of-\($0.count)" } ?? "" }

    /// The closing balances of a month that every writer of the output folder recorded
    /// (every part's, when a ledger is split by account), in the order of their file names.
    private static func balances(of month: Month, in folder: String) -> [ClosingBalances] {
        let path = "\(folder)/\(month.isoText)"
        return POSIXIO.hiddenNames(in: path)
            .filter { $0.hasPrefix(".closing-balances") && $0.hasSuffix(".tsv") }.sorted()
            .compactMap { name in
                FileManager.default.contents(atPath: "\(path)/\(name)").flatMap {
                    ClosingBalances(month: month, tsv: String(decoding: $0, as: UTF8.self))
                }
            }
    }

    /// Writes `OUT/index.html` from every month folder's closing balances: built from the
    /// output folder alone, so that it lists the months written by earlier runs, and by the
    /// other parts of a ledger split by account, too.
    private func writeAllMonthsIndex() throws(StorageError) -> PublishedFile {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let months = names.compactMap(Month.init(parsing:)).compactMap { month in
            let parts = Self.balances(of: month, in: folder)
            return parts.isEmpty ? nil : ClosingBalances(month: month, merging: parts)
        }
        var index = ""
        MonthIndexRenderer(locale: locale).renderAllMonths(months, into: &index)
        return try Self.write(index, to: "\(folder)/index.html")
    }

    /// The file in the output folder that records which ledger generation the reports
    /// reflect: `.statements-generation`, or for a part `.statements-generation.K-of-N`.
    private var markerPath: String { "\(folder)/.statements-generation\(partSuffix)" }

    /// The ledger generation the reports in the folder reflect, if recorded.
    package func reportedGeneration() -> Int? {
        guard let data = FileManager.default.contents(atPath: markerPath) else { return nil }
        return Int(String(decoding: data, as: UTF8.self).filter(\.isNumber))
    }

    /// The suffix of the temporary files a run writes beside report files.
    static let temporarySuffix = ".statements-tmp"

    /// Removes the temporary files that runs no longer alive left in a folder.
    static func removeStaleTemporaries(in folder: String) {
        for name in POSIXIO.hiddenNames(in: folder) where name.hasSuffix(temporarySuffix) {
            // `.NAME.PID.statements-tmp`: the writer's process id, or none (older releases).
            let parts = name.dropLast(temporarySuffix.count).split(separator: ".")
            if let pid = parts.last.flatMap({ Int32($0) }),
                pid == getpid()
                    || kill(pid, 0) == 0 || errno != ESRCH
            {
                continue
            }
            _ = unlink("\(folder)/\(name)")
        }
    }

    private static func makeFolder(_ folder: String) throws(StorageError) {
        if let error = POSIXIO.makeFolders(folder) {
            throw .io(path: folder, operation: "create folder", reason: error.description)
        }
    }

    /// Writes a report file unless it already holds exactly `text`.
    fileprivate static func write(_ text: String, to path: String) throws(StorageError)
        -> PublishedFile
    {
        try write(Array(text.utf8), to: path)
    }

    /// Writes a report file unless it already holds exactly `bytes`; a reader never sees half
    /// a file.
    ///
    /// A new file is written unnamed in its folder and then named (`POSIXIO.create`); a
    /// changed one, or a new one where the file system has no unnamed files, goes to
    /// `.NAME.PID.statements-tmp` beside it (a name of this process alone) and is renamed over
    /// it.
    ///
    /// - Parameter isNew: whether the file is known not to exist (its folder was made by this
    ///   run), so no comparison is tried.
    fileprivate static func write(_ bytes: [UInt8], to path: String, isNew: Bool = false)
        throws(StorageError) -> PublishedFile
    {
        let hash = ReportFileRecord.hash(bytes)
        let written = PublishedFile(path: path, isWritten: true, hash: hash)
        // Report paths are `FOLDER/NAME`, joined by this controller.
        let slash = path.lastIndex(of: "/")!
        let folder = String(path[..<slash])
        var comparison = isNew ? .missing : POSIXIO.compare(bytes, toFileAt: path)
        if comparison == .missing {
            switch POSIXIO.create(bytes, at: path, in: folder) {
            case .created: return written
            case .exists: comparison = POSIXIO.compare(bytes, toFileAt: path)
            case .unsupported: break
            case .failed(let error):
                throw .io(path: path, operation: "write", reason: error.description)
            }
        }
        if comparison == .same { return PublishedFile(path: path, isWritten: false, hash: hash) }
        let temporary =
            "\(folder)/.\(path[path.index(after: slash)...]).\(getpid())\(temporarySuffix)"
        let descriptor = open(
            temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            throw .io(path: path, operation: "write", reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        if let code = POSIXIO.writeAll(descriptor, bytes) {
            _ = unlink(temporary)
            throw .io(path: path, operation: "write", reason: POSIXErrno(code: code).description)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = unlink(temporary)
            throw .io(path: path, operation: "write", reason: reason)
        }
        return written
    }
}
