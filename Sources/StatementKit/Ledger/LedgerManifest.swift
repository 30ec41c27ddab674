/// The ledger's commit record: which accounts exist, how many bytes of the logs are committed,
/// and where each account's month records are.
///
/// The logs are append-only; bytes past the committed lengths belong to a run that did not
/// commit and are never read. Replacing the manifest with one atomic rename is what makes a
/// run's writes visible, all together. Text format, one record per line, tab separated:
///
/// ```
/// statements-ledger 7
/// generation N
/// logs DATA-BYTES INDEX-BYTES
/// months FILE BYTES LIVE-BYTES
/// page NUMBER OFFSET:BYTES:CHECKSUM
/// unbalanced AccountID
/// file SIZE MODIFIED CHANGED INODE DEVICE CONTENT-HASH READING TRANSACTIONS ROWS NOT-BOOKED PATH
/// end HASH
/// ```
///
/// The accounts' records are in pages of the months log (format 7; `page(of:)` numbers them,
/// a `page` line says where each non-empty one is), a line per account:
///
/// ```
/// account AccountID CURRENCY KIND OPENING-MINOR-UNITS|- LAST-IMPORT|- TURNOVER OUT-OF-BALANCE
///     NAME SECTION COUNT:SUM:FIRST:LAST:ASSERTIONS|-
/// ```
///
/// (formats 4 to 6 had these lines, without the totals, in the manifest itself). An
/// `unbalanced` line names each account out of balance, so that a run says them all without
/// reading their pages; LIVE-BYTES is how much of the months log the sections and pages in
/// force take, which decides when it is compacted.
///
/// An account's months are not in the manifest but in its SECTION of the months log
/// (`OFFSET:BYTES:CHECKSUM`, or `-` for none), a line per month:
///
/// ```
/// YYYY-MM DATA-BYTES INDEX-BYTES DATA-CHECKSUM INDEX-CHECKSUM TOTAL FIRST LAST EXTENTS
/// balance YYYY-MM-DD MINOR-UNITS LINE SOURCE LEDGER-SUM
/// ```
///
/// and a `balance` line per balance a statement stated (`BalanceAssertion`: the balance at
/// the end of the day, the file and line that state it, and the sum of the bookings up to it
/// when last checked, so that a run works out only those its new bookings move), in order. TOTAL is the sum of the
/// month's amounts in minor units (absent in format 4, and worked out when a run needs it);
/// FIRST and LAST are the first and last day of the month with a booking (from format 6; with
/// the count, INDEX-BYTES / 16, and TOTAL, the month's summary, which `accounts` reads instead
/// of its transactions);
/// OUT-OF-BALANCE is `-`, or `YYYY-MM-DD:MINOR-UNITS`: since the end of which day the ledger
/// differs from a balance the bank stated, and by how much now. From format 5 OPENING is the
/// opening balance the account's balance assertions imply (see `BalanceCheck`); an account
/// without any keeps the opening balance of the first statement imported, as format 4 did.
///
/// so that a run reads and writes the month records of the accounts it touches only, not
/// those of the whole ledger. EXTENTS are where the month's bytes lie in the transaction and
/// identity logs, in the order they were appended, as
/// `DATA-OFFSET:DATA-BYTES:INDEX-OFFSET:INDEX-BYTES` joined by commas. The checksums are
/// 64-bit FNV-1a in hexadecimal: of each month's committed bytes (its extents one after
/// another) and of each section; the `end` line holds the 128-bit content hash of every
/// byte before it, so that a manifest cut short or changed is known for what it is. A `file`
/// record is a statement file imported whole (`ImportedFile`), by its absolute path.
///
/// Format 5 lacks FIRST and LAST; it is read as it is (`accounts` then reads the months'
/// transactions), and the first writer records every month's summary in one commit.
/// Format 4 lacks balances, totals and OUT-OF-BALANCE; it is read as it is, and a writer
/// forgets its file records, so that the next run reads its files again for their balances.
/// Formats 1 to 3 kept each account-month in files of its own (`accounts/ID/YYYY-MM.tsv` and
/// `.idx`, `.ids` in format 1) and its record in the manifest (`month AccountID YYYY-MM
/// DATA-BYTES INDEX-BYTES DATA-CHECKSUM INDEX-CHECKSUM`), and are still read; a writer
/// upgrades them first. Format 2 also lacks file records, and ends in an FNV-1a checksum, as
/// format 3 does; format 1 also lacks turnover, checksums and the end line.
package struct LedgerManifest: Hashable, Sendable {
    /// The format version this build writes.
    package static let formatVersion = 7
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
        /// The account's months: where each lies in the logs, its lengths and checksums. All
        /// of them when `monthsLoaded`; none in a manifest read without its months, until the
        /// account's section is read.
        package var months: [Month: MonthLength]
        /// Where the account's months are recorded in the months log (format 4): the section
        /// the last run that changed them wrote; `nil` when the account has no months.
        package var section: Section? = nil
        /// Whether `months` holds the account's months.
        package var monthsLoaded = true
        /// The balances the bank stated, in order (loaded with the months, from the section).
        package var assertions: [BalanceAssertion] = []
        /// Since when, and by how much, the ledger differs from a stated balance.
        package var outOfBalance: OutOfBalance? = nil
        /// The account's totals as its record holds them (format 7; see `currentTotals`).
        package var totals: AccountTotals? = nil
    }

    /// Where an account's month records lie in the months log, and their checksum.
    package struct Section: Hashable, Sendable {
        package var offset: Int
        package var bytes: Int
        package var checksum: Checksum

        package init(offset: Int, bytes: Int, checksum: Checksum) {
            (self.offset, self.bytes, self.checksum) = (offset, bytes, checksum)
        }
    }

    /// The months log in force: its file name in the state folder and its committed length.
    /// Sections are appended to it; when superseded ones take more than half of it, a commit
    /// copies the live ones into a new file.
    package struct MonthsLog: Hashable, Sendable {
        package var name = "months.0"
        package var bytes = 0

        package init(name: String = "months.0", bytes: Int = 0) {
            (self.name, self.bytes) = (name, bytes)
        }
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
    ///
    /// Its optional values are kept as plain numbers with a bit each saying whether they are
    /// there, so that a record takes 56 bytes, not 96: a first import at a bank's scale holds
    /// millions of them, twice (the manifest's and the run's).
    package struct MonthLength: Hashable, Sendable {
        /// Bytes of the transaction lines.
        package var dataBytes: Int
        /// Bytes of the identity index: 16 per transaction (8 in format 1).
        package var idBytes: Int
        /// Where the bytes lie in the logs, in the order appended; `nil` in formats 1 to 3,
        /// which kept them in the month's own files.
        package var extents: [Extent]?
        /// The values of the optional properties below, 0 where one is `nil`, so that equal
        /// records have equal bits.
        private var dataChecksumValue: UInt64 = 0
        private var idChecksumValue: UInt64 = 0
        private var totalValue: Int64 = 0
        private var firstDay: UInt8 = 0
        private var lastDay: UInt8 = 0
        /// Which of the optional properties are there (`Present`).
        private var present: UInt8 = 0

        private enum Present {
            static let dataChecksum: UInt8 = 1
            static let idChecksum: UInt8 = 2
            static let total: UInt8 = 4
            static let days: UInt8 = 8
        }

        private mutating func mark(_ flag: UInt8, _ isPresent: Bool) {
            present = isPresent ? present | flag : present & ~flag
        }

        /// The checksums of the committed bytes; `nil` in a format 1 manifest.
        package var dataChecksum: Checksum? {
            get { present & Present.dataChecksum != 0 ? Checksum(value: dataChecksumValue) : nil }
            set {
                dataChecksumValue = newValue?.value ?? 0
                mark(Present.dataChecksum, newValue != nil)
            }
        }

        package var idChecksum: Checksum? {
            get { present & Present.idChecksum != 0 ? Checksum(value: idChecksumValue) : nil }
            set {
                idChecksumValue = newValue?.value ?? 0
                mark(Present.idChecksum, newValue != nil)
            }
        }

        /// The sum of the month's amounts in minor units; `nil` when not recorded (format 4).
        package var total: Int64? {
            get { present & Present.total != 0 ? totalValue : nil }
            set {
                totalValue = newValue ?? 0
                mark(Present.total, newValue != nil)
            }
        }

        /// The first and last day of the month with a transaction; `nil` when not recorded
        /// (formats 1 to 5) or for a month without any.
        package var days: ClosedRange<Int>? {
            get { present & Present.days != 0 ? Int(firstDay)...Int(lastDay) : nil }
            set {
                // Days of a month: the manifest's reader refuses any other.
                (firstDay, lastDay) = (
                    UInt8(newValue?.lowerBound ?? 0), UInt8(newValue?.upperBound ?? 0)
                )
                mark(Present.days, newValue != nil)
            }
        }

        /// How many transactions the month holds: one identity entry each (16 bytes; 8 in
        /// format 1).
        package var count: Int { idBytes / (dataChecksum == nil ? 8 : 16) }

        /// Whether the month's summary is recorded (total and days), so that readers of its
        /// figures need not read its transactions.
        package var hasSummary: Bool { total != nil && (days != nil || dataBytes == 0) }

        /// Whether `bytes` are the month's transaction lines as committed: their checksum
        /// matches (a format 1 manifest has none to compare).
        package func holds(data bytes: [UInt8]) -> Bool {
            dataChecksum.map { Checksum.of(bytes) == $0 } ?? true
        }

        /// The lengths and checksums of a month with nothing committed.
        package static let empty = MonthLength(
            dataBytes: 0, idBytes: 0, dataChecksum: .empty, idChecksum: .empty, extents: [],
            total: 0)

        /// Extends the month by bytes appended to the logs where they end (`logs`): the last
        /// extent grows when the bytes follow it in both logs.
        package mutating func advance(
            data: Span<UInt8>, ids: Span<UInt8>, at logs: LogLengths, total added: Int64 = 0,
            days addedDays: ClosedRange<Int>? = nil
        ) {
            total = total.map { $0 &+ added }
            if !data.isEmpty {
                // Unknown days stay unknown; a month without rows takes the new ones'.
                days =
                    dataBytes == 0
                    ? addedDays
                    : days.flatMap { old in
                        addedDays.map {
                            min(old.lowerBound, $0.lowerBound)...max(old.upperBound, $0.upperBound)
                        }
                    }
            }
            // Taken out while it changes, so that it is not copied.
            var all = extents ?? []
            extents = nil
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
            idChecksum: Checksum? = nil, extents: [Extent]? = nil, total: Int64? = nil
        ) {
            self.dataBytes = dataBytes
            self.idBytes = idBytes
            self.extents = extents
            self.total = total
            self.dataChecksum = dataChecksum
            self.idChecksum = idChecksum
        }
    }

    /// The accounts by AccountID.
    package var accounts: [AccountID: AccountEntry] = [:]
    /// The statement files imported whole, by absolute path.
    package var files: [String: ImportedFile] = [:]

    /// The paths of the recorded files at or below any of `roots` (absolute paths).
    func filesRecorded(below roots: [String]) -> [String] {
        files.keys.filter { path in
            roots.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
    }
    /// How many runs have committed transactions to the ledger; each such commit adds one.
    package var generation = 0
    /// The committed lengths of the logs: everything past them is a run's uncommitted tail.
    package var logs = LogLengths()
    /// The months log in force (format 4).
    package var monthsLog = MonthsLog()
    /// Where each page of account records lies in the months log (format 7), by page number
    /// (`page(of:)`); `nil` for a page without accounts. All `nil` before format 7, whose
    /// manifest held every account's record.
    package var pages: [Section?] = Array(repeating: nil, count: LedgerManifest.pageCount)
    /// The pages whose accounts are not in `accounts` yet: a run reads those of the accounts
    /// it touches only (`StorageController.loadAccounts`). Empty when every account is read.
    package var unloadedPages: Set<Int> = []
    /// The records of read pages that no one asked for, by page: kept as the page's bytes,
    /// decoded when one of their accounts is asked for, and written back as they stand, so
    /// that a run that touches one account of each page decodes and encodes only those.
    package var undecoded: [Int: UndecodedPage] = [:]
    /// The accounts out of balance, as the manifest lists them, so that a run that reads a
    /// few pages still says every one (see `encodedBytes`).
    package var outOfBalanceIDs: Set<AccountID> = []
    /// The bytes of the months log that the manifest refers to (sections and pages), which
    /// decide when it is compacted; `nil` until worked out (before format 7).
    package var liveBytes: Int? = 0
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
}
