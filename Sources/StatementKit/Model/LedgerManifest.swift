/// The ledger's commit record: which accounts exist, how many bytes of the two logs are
/// committed, and where in them each account-month's rows lie.
///
/// The logs are append-only; bytes past the committed lengths belong to a run that did not
/// commit and are never read. Replacing the manifest with one atomic rename is what makes a
/// run's writes visible, all together. Text format, one record per line, tab separated:
///
/// ```
/// statements-ledger 4
/// generation N
/// logs DATA-BYTES INDEX-BYTES
/// account AccountID CURRENCY KIND OPENING-MINOR-UNITS|- LAST-IMPORT|- TURNOVER NAME
/// month AccountID YYYY-MM DATA-BYTES INDEX-BYTES DATA-CHECKSUM INDEX-CHECKSUM EXTENTS
/// file SIZE MODIFIED CHANGED INODE DEVICE CONTENT-HASH READING TRANSACTIONS ROWS NOT-BOOKED PATH
/// end CHECKSUM
/// ```
///
/// EXTENTS are where the month's bytes lie in the logs, in the order they were appended, as
/// `DATA-OFFSET:DATA-BYTES:INDEX-OFFSET:INDEX-BYTES` joined by commas. The checksums are
/// 64-bit FNV-1a in hexadecimal: of each month's committed bytes (its extents one after
/// another), and in the `end` line of every byte before it, so that a manifest cut short or
/// changed is known for what it is. A `file` record is a statement file imported whole
/// (`ImportedFile`), by its absolute path. Formats 1 to 3 kept each account-month in files of
/// its own (`accounts/ID/YYYY-MM.tsv` and `.idx`, `.ids` in format 1) and are still read; a
/// writer upgrades them first. Format 3 is format 4's records without logs and extents;
/// format 2 also lacks file records; format 1 also lacks turnover, checksums and the end line.
package struct LedgerManifest: Hashable, Sendable {
    /// The format version this build writes.
    package static let formatVersion = 4
    static let magic = "statements-ledger"

    /// What the ledger records about one account.
    package struct AccountEntry: Hashable, Sendable {
        package var account: Account
        /// The opening balance of the first statement that declared one.
        package var openingBalance: Money?
        /// When a run last added transactions to the account (ISO 8601, UTC).
        package var lastImport: String?
        /// The sum of the magnitudes of the opening balance and of every transaction, in minor
        /// units: while it fits in 64 bits, no running balance in any order can overflow.
        /// `nil` in a format 1 manifest.
        package var turnover: Int64?
        /// Where the account's months lie in the logs, and their lengths and checksums.
        package var months: [Month: MonthLength]
    }

    /// Where one run appended an account-month's bytes in the logs.
    package struct Extent: Hashable, Sendable {
        package var dataOffset: Int
        package var dataBytes: Int
        package var idOffset: Int
        package var idBytes: Int

        package init(dataOffset: Int, dataBytes: Int, idOffset: Int, idBytes: Int) {
            (self.dataOffset, self.dataBytes) = (dataOffset, dataBytes)
            (self.idOffset, self.idBytes) = (idOffset, idBytes)
        }
    }

    /// The lengths of the two logs: the transaction lines and the identity index.
    package struct LogLengths: Hashable, Sendable {
        package var dataBytes = 0
        package var idBytes = 0

        package init(dataBytes: Int = 0, idBytes: Int = 0) {
            (self.dataBytes, self.idBytes) = (dataBytes, idBytes)
        }

        /// Grows the lengths by bytes appended to the logs.
        package mutating func advance(data: Int, ids: Int) {
            dataBytes += data
            idBytes += ids
        }
    }

    /// The committed sizes, checksums and places of one account-month's bytes.
    package struct MonthLength: Hashable, Sendable {
        /// Bytes of the transaction lines.
        package var dataBytes: Int
        /// Bytes of the identity index: 16 per transaction (8 in format 1).
        package var idBytes: Int
        /// The checksums of the committed bytes; `nil` in a format 1 manifest.
        package var dataChecksum: Checksum?
        package var idChecksum: Checksum?
        /// Where the bytes lie in the logs, in the order appended; `nil` in formats 1 to 3,
        /// which kept them in the month's own files.
        package var extents: [Extent]?

        /// The lengths and checksums of a month with nothing committed.
        package static let empty = MonthLength(
            dataBytes: 0, idBytes: 0, dataChecksum: .empty, idChecksum: .empty, extents: [])

        /// Extends the month by bytes appended to the logs where they end (`logs`): the last
        /// extent grows when the bytes follow it in both logs.
        package mutating func advance(data: [UInt8], ids: [UInt8], at logs: LogLengths) {
            var all = extents ?? []
            if let last = all.last, last.dataOffset + last.dataBytes == logs.dataBytes,
                last.idOffset + last.idBytes == logs.idBytes
            {
                all[all.count - 1].dataBytes += data.count
                all[all.count - 1].idBytes += ids.count
            } else {
                all.append(
                    Extent(
                        dataOffset: logs.dataBytes, dataBytes: data.count,
                        idOffset: logs.idBytes, idBytes: ids.count))
            }
            extents = all
            dataBytes += data.count
            idBytes += ids.count
            dataChecksum?.feed(data)
            idChecksum?.feed(ids)
        }

        package init(
            dataBytes: Int, idBytes: Int, dataChecksum: Checksum? = nil,
            idChecksum: Checksum? = nil, extents: [Extent]? = nil
        ) {
            self.dataBytes = dataBytes
            self.idBytes = idBytes
            self.dataChecksum = dataChecksum
            self.idChecksum = idChecksum
            self.extents = extents
        }
    }

    /// The accounts by AccountID.
    package var accounts: [AccountID: AccountEntry] = [:]
    /// The statement files imported whole, by absolute path.
    package var files: [String: ImportedFile] = [:]
    /// How many runs have committed transactions to the ledger; each such commit adds one.
    package var generation = 0
    /// The committed lengths of the logs: everything past them is a run's uncommitted tail.
    package var logs = LogLengths()
    /// The format version the manifest was read in (`formatVersion` when made here).
    package internal(set) var version = LedgerManifest.formatVersion

    /// Creates an empty ledger's manifest.
    package init() {}

    /// Why a manifest could not be read.
    package enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        case newerVersion(Int)
        case malformed(line: Int, String)

        package var description: String {
            switch self {
            case .newerVersion(let version):
                "the ledger has format version \(version), newer than this statements reads (\(LedgerManifest.formatVersion)); upgrade statements"
            case .malformed(let line, let reason):
                "the ledger manifest is damaged at line \(line): \(reason)"
            }
        }
    }

    /// The manifest as text in the current format, in a stable order, ending in its checksum
    /// line.
    ///
    /// - Precondition: every account has its turnover and every month its checksums and
    ///   extents (a manifest of an earlier format is upgraded before it is written).
    package var encoded: String {
        var lines = [
            "\(LedgerManifest.magic) \(LedgerManifest.formatVersion)", "generation\t\(generation)",
            "logs\t\(logs.dataBytes)\t\(logs.idBytes)",
        ]
        for accountID in accounts.keys.sorted() {
            let entry = accounts[accountID]!
            let fields = [
                "account", accountID.text, entry.account.currency.code,
                entry.account.kind.rawValue,
                entry.openingBalance.map { String($0.minorUnits) } ?? "-", entry.lastImport ?? "-",
                String(entry.turnover!), LedgerManifest.escape(entry.account.name ?? ""),
            ]
            lines.append(fields.joined(separator: "\t"))
            for month in entry.months.keys.sorted() {
                let length = entry.months[month]!
                lines.append(
                    [
                        "month", accountID.text, month.isoText, String(length.dataBytes),
                        String(length.idBytes), length.dataChecksum!.hexText,
                        length.idChecksum!.hexText,
                        length.extents!.map {
                            "\($0.dataOffset):\($0.dataBytes):\($0.idOffset):\($0.idBytes)"
                        }.joined(separator: ","),
                    ].joined(separator: "\t"))
            }
        }
        for path in files.keys.sorted() {
            let file = files[path]!
            let stamp = file.stamp
            lines.append(
                [
                    "file", String(stamp.size), String(stamp.modified), String(stamp.changed),
                    String(stamp.inode), String(stamp.device), file.content.description,
                    file.reading.hexText, String(file.transactionCount), String(file.rowCount),
                    String(file.notBookedCount), LedgerManifest.escape(path),
                ].joined(separator: "\t"))
        }
        let body = lines.joined(separator: "\n") + "\n"
        return body + "end\t\(Checksum.of(body[...].utf8).hexText)\n"
    }

    /// Reads a manifest written by `encoded`.
    package init(decoding text: String) throws(DecodingError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard let header = lines.first, header.hasPrefix(LedgerManifest.magic + " "),
            let version = Int(header.dropFirst(LedgerManifest.magic.count + 1)), version >= 1
        else { throw .malformed(line: 1, "not a statements ledger") }
        guard version <= LedgerManifest.formatVersion else { throw .newerVersion(version) }
        self.version = version
        if version >= 2 {
            // The end line holds the checksum of everything before it.
            guard text.hasSuffix("\n"), let last = lines.last, last.hasPrefix("end\t"),
                let checksum = Checksum(hexText: last.dropFirst(4))
            else {
                throw .malformed(
                    line: lines.count, "it has no end line: it was cut short or changed by hand")
            }
            let body = text.utf8.dropLast(last.utf8.count + 1)
            guard Checksum.of(body) == checksum else {
                throw .malformed(
                    line: lines.count, "its checksum does not match: it was changed by hand")
            }
            lines = lines.dropLast()
        }
        let accountFields = version >= 2 ? 8 : 7
        let monthFields = version >= 4 ? 8 : version >= 2 ? 7 : 5
        let indexEntry = version >= 2 ? 16 : 8
        for (offset, line) in lines.dropFirst().enumerated() {
            let number = offset + 2
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(
                String.init)
            if fields.count == 2 && fields[0] == "generation" {
                guard let generation = Int(fields[1]), generation >= 0 else {
                    throw .malformed(line: number, "bad generation")
                }
                self.generation = generation
                continue
            }
            if fields.count == 3 && fields[0] == "logs" && version >= 4 {
                guard let data = Int(fields[1]), let ids = Int(fields[2]), data >= 0, ids >= 0,
                    ids % 16 == 0
                else { throw .malformed(line: number, "bad log lengths") }
                logs = LogLengths(dataBytes: data, idBytes: ids)
                continue
            }
            if fields.first == "file" && version >= 3 {
                guard fields.count == 12, let size = Int64(fields[1]),
                    let modified = Int64(fields[2]), let changed = Int64(fields[3]),
                    let inode = UInt64(fields[4]), let device = UInt64(fields[5]),
                    let content = ContentHash(hexText: fields[6]),
                    let reading = Checksum(hexText: fields[7]),
                    let transactions = Int(fields[8]), let rows = Int(fields[9]),
                    let notBooked = Int(fields[10]), transactions >= 0, rows >= 0, notBooked >= 0
                else { throw .malformed(line: number, "bad file record") }
                files[LedgerManifest.unescape(fields[11])] = ImportedFile(
                    stamp: FileStamp(
                        size: size, modified: modified, changed: changed, inode: inode,
                        device: device),
                    content: content, reading: reading, transactionCount: transactions,
                    rowCount: rows, notBookedCount: notBooked)
                continue
            }
            guard let kind = fields.first, let ibanText = fields.dropFirst().first,
                let accountID = try? AccountID(parsing: ibanText)
            else { throw .malformed(line: number, "unreadable record") }
            switch kind {
            case "account" where fields.count == accountFields:
                guard let currency = Currency(code: fields[2]),
                    let accountKind = Account.Kind(rawValue: fields[3])
                else { throw .malformed(line: number, "bad currency or kind") }
                let opening: Money?
                if fields[4] == "-" {
                    opening = nil
                } else if let units = Int64(fields[4]) {
                    opening = Money(minorUnits: units, currency: currency)
                } else {
                    throw .malformed(line: number, "bad opening balance")
                }
                var turnover: Int64?
                if version >= 2 {
                    guard let value = Int64(fields[6]), value >= 0 else {
                        throw .malformed(line: number, "bad turnover")
                    }
                    turnover = value
                }
                let name = LedgerManifest.unescape(fields[accountFields - 1])
                accounts[accountID] = AccountEntry(
                    account: Account(
                        id: accountID, name: name.isEmpty ? nil : name, kind: accountKind,
                        currency: currency),
                    openingBalance: opening, lastImport: fields[5] == "-" ? nil : fields[5],
                    turnover: turnover, months: [:])
            case "month" where fields.count == monthFields:
                guard accounts[accountID] != nil, let month = Month(parsing: fields[2]),
                    let data = Int(fields[3]), let ids = Int(fields[4]), data >= 0, ids >= 0,
                    ids % indexEntry == 0
                else { throw .malformed(line: number, "bad month record") }
                var length = MonthLength(dataBytes: data, idBytes: ids)
                if version >= 2 {
                    guard let dataChecksum = Checksum(hexText: fields[5]),
                        let idChecksum = Checksum(hexText: fields[6])
                    else { throw .malformed(line: number, "bad month checksums") }
                    length.dataChecksum = dataChecksum
                    length.idChecksum = idChecksum
                }
                if version >= 4 {
                    guard let extents = LedgerManifest.extents(fields[7], of: length, in: logs)
                    else { throw .malformed(line: number, "bad month extents") }
                    length.extents = extents
                }
                accounts[accountID]!.months[month] = length
            default:
                throw .malformed(line: number, "unknown record")
            }
        }
    }

    /// The extents of a month record: each within the logs' committed lengths (given before
    /// the months), adding up to the month's lengths; `nil` when they are not.
    private static func extents(_ text: String, of length: MonthLength, in logs: LogLengths)
        -> [Extent]?
    {
        var extents: [Extent] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let numbers = item.split(separator: ":", omittingEmptySubsequences: false).map {
                Int($0)
            }
            guard numbers.count == 4, let dataOffset = numbers[0], let dataBytes = numbers[1],
                let idOffset = numbers[2], let idBytes = numbers[3], dataOffset >= 0,
                dataBytes > 0, idOffset >= 0, idBytes > 0, idOffset % 16 == 0,
                idBytes % 16 == 0, dataBytes <= logs.dataBytes - dataOffset,
                idBytes <= logs.idBytes - idOffset
            else { return nil }
            extents.append(
                Extent(
                    dataOffset: dataOffset, dataBytes: dataBytes, idOffset: idOffset,
                    idBytes: idBytes))
        }
        guard extents.reduce(0, { $0 + $1.dataBytes }) == length.dataBytes,
            extents.reduce(0, { $0 + $1.idBytes }) == length.idBytes
        else { return nil }
        return extents
    }

    private static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        LedgerRecord.escape(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func unescape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { LedgerRecord.unescape(UnsafeRawBufferPointer($0)) } ?? ""
    }
}
