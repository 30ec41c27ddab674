import Foundation

/// Reads the manifest's records from its bytes, a line at a time, its fields as ranges.
struct ManifestReader {
    typealias DecodingError = LedgerManifest.DecodingError
    let bytes: [UInt8]
    /// The fields of the current line.
    private var fields: [Range<Int>] = []
    /// The last account read, whose months follow it: their ids are compared, not parsed.
    private var lastAccount: (range: Range<Int>, id: AccountID)?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The lines as ranges, without their line feeds.
    private func lines() -> [Range<Int>] {
        var lines: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let end = memchr(base + start, 10, buffer.count - start).map {
                    UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
                }
                lines.append(start..<(end ?? buffer.count))
                start = (end ?? buffer.count) + 1
            }
        }
        return lines
    }

    /// Splits a line into `fields`.
    private mutating func split(_ line: Range<Int>) {
        fields.removeAll(keepingCapacity: true)
        var start = line.lowerBound
        for index in line where bytes[index] == 9 {
            fields.append(start..<index)
            start = index + 1
        }
        fields.append(start..<line.upperBound)
    }

    /// Reads a section: `YYYY-MM DATA IDX DCHK ICHK [TOTAL [FIRST LAST]] EXTENTS` lines, then
    /// `balance
    /// YYYY-MM-DD MINOR LINE SOURCE` lines.
    mutating func readSection(logs: LedgerManifest.LogLengths, currency: Currency)
        throws(DecodingError)
        -> (months: [Month: LedgerManifest.MonthLength], assertions: [BalanceAssertion])
    {
        var months: [Month: LedgerManifest.MonthLength] = [:]
        var assertions: [BalanceAssertion] = []
        guard bytes.last == 10 else { throw .malformed(line: 1, "the section is cut short") }
        let lines = self.lines()
        months.reserveCapacity(lines.count)
        for (offset, line) in lines.enumerated() {
            split(line)
            if (fields.count == 5 || fields.count == 6) && isText(fields[0], "balance") {
                guard let day = self.day(fields[1]),
                    let units = integer(fields[2]), let line = integer(fields[3]), line >= 0
                else { throw .malformed(line: offset + 1, "bad balance record") }
                var sum: Int64?
                if fields.count == 6 {
                    guard let value = integer(fields[5]) else {
                        throw .malformed(line: offset + 1, "bad balance record")
                    }
                    sum = Int64(value)
                }
                assertions.append(
                    BalanceAssertion(
                        day: day, balance: Money(minorUnits: Int64(units), currency: currency),
                        source: unescaped(fields[4]), line: line, ledgerSum: sum))
                continue
            }
            guard fields.count == 6 || fields.count == 7 || fields.count == 9,
                case (let month, var length)? = monthRecord(
                    from: 0, version: 4, logs, extentsField: fields.count - 1)
            else { throw .malformed(line: offset + 1, "bad month record") }
            if fields.count >= 7 {
                guard let total = integer(fields[5]) else {
                    throw .malformed(line: offset + 1, "bad month total")
                }
                length.total = Int64(total)
            }
            if fields.count == 9 {
                guard let first = integer(fields[6]), let last = integer(fields[7]),
                    1 <= first, first <= last, last <= month.lastDay.day
                else { throw .malformed(line: offset + 1, "bad month days") }
                length.days = first...last
            }
            months[month] = length
        }
        return (months, assertions)
    }

    mutating func read(into manifest: inout LedgerManifest) throws(DecodingError) {
        var lineNumber = 0
        var lines = self.lines()
        guard let header = lines.first else {
            throw .malformed(line: 1, "not a statements ledger")
        }
        let prefix = Array((LedgerManifest.magic + " ").utf8)
        guard bytes[header].starts(with: prefix),
            let version = integer(header.lowerBound + prefix.count..<header.upperBound),
            version >= 1
        else { throw .malformed(line: 1, "not a statements ledger") }
        guard version <= LedgerManifest.formatVersion else { throw .newerVersion(version) }
        manifest.version = version
        // Before format 7 the live bytes are worked out from the sections when needed.
        if version < 7 { manifest.liveBytes = nil }
        if version >= 2 {
            // The end line holds the hash of everything before it.
            let last = lines.last!
            let hashText = String(decoding: bytes[last].dropFirst(4), as: UTF8.self)
            guard bytes.last == 10, lines.count > 1, bytes[last].starts(with: Array("end\t".utf8))
            else {
                throw .malformed(
                    line: lines.count, "it has no end line: it was cut short or changed by hand")
            }
            let body = Array(bytes[..<last.lowerBound])
            let matches: Bool
            if version >= 4 {
                guard let hash = ContentHash(hexText: hashText) else {
                    throw .malformed(
                        line: lines.count,
                        "it has no end line: it was cut short or changed by hand")
                }
                matches = ContentHash.of(body) == hash
            } else {
                guard let checksum = Checksum(hexText: hashText) else {
                    throw .malformed(
                        line: lines.count,
                        "it has no end line: it was cut short or changed by hand")
                }
                matches = Checksum.of(body) == checksum
            }
            guard matches else {
                throw .malformed(
                    line: lines.count, "its checksum does not match: it was changed by hand")
            }
            lines.removeLast()
        }
        for line in lines.dropFirst() {
            lineNumber += 1
            try readRecord(line, number: lineNumber + 1, version: version, into: &manifest)
        }
    }

    private mutating func readRecord(
        _ line: Range<Int>, number: Int, version: Int, into manifest: inout LedgerManifest
    ) throws(DecodingError) {
        split(line)
        let kind = fields[0]
        if fields.count == 2 && isText(kind, "generation") {
            guard let generation = integer(fields[1]), generation >= 0 else {
                throw .malformed(line: number, "bad generation")
            }
            manifest.generation = generation
            return
        }
        if fields.count == 3 && version >= 4 && isText(kind, "logs") {
            guard let data = integer(fields[1]), let ids = integer(fields[2]), data >= 0,
                ids >= 0, ids % 16 == 0
            else { throw .malformed(line: number, "bad log lengths") }
            manifest.logs = LedgerManifest.LogLengths(dataBytes: data, idBytes: ids)
            return
        }
        if fields.count == (version >= 7 ? 4 : 3) && version >= 4 && isText(kind, "months") {
            let name = unescaped(fields[1])
            guard let bytes = integer(fields[2]), bytes >= 0, name.hasPrefix("months."),
                !name.contains("/")
            else { throw .malformed(line: number, "bad months log") }
            manifest.monthsLog = LedgerManifest.MonthsLog(name: name, bytes: bytes)
            if version >= 7 {
                guard let live = integer(fields[3]), live >= 0, live <= bytes else {
                    throw .malformed(line: number, "bad months log")
                }
                manifest.liveBytes = live
            }
            return
        }
        if version >= 7 && isText(kind, "page") {
            guard fields.count == 3, let page = integer(fields[1]),
                (0..<LedgerManifest.pageCount).contains(page), manifest.pages[page] == nil,
                let section = section(fields[2], in: manifest.monthsLog)
            else { throw .malformed(line: number, "bad page") }
            manifest.pages[page] = section
            manifest.unloadedPages.insert(page)
            return
        }
        if version >= 7 && isText(kind, "unbalanced") {
            guard fields.count == 2, let accountID = accountID(fields[1]) else {
                throw .malformed(line: number, "bad account out of balance")
            }
            manifest.outOfBalanceIDs.insert(accountID)
            return
        }
        if version >= 3 && isText(kind, "file") {
            try readFile(number: number, into: &manifest)
            return
        }
        guard fields.count >= 2, let accountID = accountID(fields[1]) else {
            throw .malformed(line: number, "unreadable record")
        }
        let accountFields = version >= 5 ? 10 : version >= 4 ? 9 : version >= 2 ? 8 : 7
        let monthFields = version >= 2 ? 7 : 5
        // From format 7 the accounts are in pages of the months log.
        if isText(kind, "account") && fields.count == accountFields && version <= 6 {
            try readAccount(accountID, number: number, version: version, into: &manifest)
        } else if isText(kind, "month") && version <= 3 && fields.count == monthFields {
            guard manifest.accounts[accountID] != nil,
                let (month, length) = monthRecord(from: 2, version: version, manifest.logs)
            else { throw .malformed(line: number, "bad month record") }
            manifest.accounts[accountID]!.months[month] = length
        } else {
            throw .malformed(line: number, "unknown record")
        }
    }

    /// Reads a page of account records (format 7): `account` lines as format 6's manifest
    /// held them, each account on the page its id hashes to. Every record when `wanted` is
    /// `nil`; else the records of the wanted accounts, and the others are returned as they
    /// stand, with their ids (`recordID`).
    mutating func readPage(into manifest: inout LedgerManifest, wanted: Set<AccountID>? = nil)
        throws(DecodingError) -> [LedgerManifest.UndecodedRecord]
    {
        guard bytes.last == 10 else { throw .malformed(line: 1, "the page is cut short") }
        var undecoded: [LedgerManifest.UndecodedRecord] = []
        for (offset, line) in lines().enumerated() {
            guard let id = recordID(line) else {
                throw .malformed(line: offset + 1, "bad account record")
            }
            let record = LedgerManifest.UndecodedRecord(id: id, line: line, number: offset + 1)
            if let wanted, !wanted.contains(record.id) {
                undecoded.append(record)
            } else {
                try readRecords([record], into: &manifest)
            }
        }
        return undecoded
    }

    /// Decodes account records of a page that `readPage` returned undecoded (their ids read
    /// and checked there).
    mutating func readRecords(
        _ records: some Sequence<LedgerManifest.UndecodedRecord>,
        into manifest: inout LedgerManifest
    ) throws(DecodingError) {
        for record in records {
            split(record.line)
            let accountID = record.id
            guard fields.count == 11, isText(fields[0], "account"),
                manifest.accounts[accountID] == nil
            else { throw .malformed(line: record.number, "bad account record") }
            let last = fields.removeLast()
            try readAccount(accountID, number: record.number, version: 6, into: &manifest)
            guard isText(last, "-") else {
                guard let totals = totals(last) else {
                    throw .malformed(line: record.number, "bad account totals")
                }
                manifest.accounts[accountID]!.totals = totals
                continue
            }
        }
    }

    /// The id of an account record, the bytes between its first and second tab; `nil` when
    /// they are not an id in its canonical form (the only form a record is found by while
    /// undecoded).
    private func recordID(_ line: Range<Int>) -> AccountID? {
        let start = line.lowerBound + "account\t".utf8.count
        guard start < line.upperBound,
            let end = bytes[start..<line.upperBound].firstIndex(of: 9),
            let id = try? AccountID(parsing: bytes.span.extracting(start..<end)),
            id == AccountID(knownBytes: bytes.span.extracting(start..<end))
        else { return nil }
        return id
    }

    /// `COUNT:SUM:FIRST:LAST:ASSERTIONS`.
    private func totals(_ range: Range<Int>) -> AccountTotals? {
        guard let parts = parts(range, count: 5),
            let count = integer(parts[0]), count >= 0, let sum = integer(parts[1]),
            let assertions = integer(parts[4]), assertions >= 0
        else { return nil }
        var totals = AccountTotals(count: count, sum: Int64(sum), assertions: assertions)
        if !isText(parts[2], "-") || !isText(parts[3], "-") {
            guard let from = day(parts[2]), let to = day(parts[3]), from <= to else { return nil }
            totals.days = from...to
        }
        return totals
    }

    /// The `:`-separated parts of a field, when there are exactly `count` of them.
    private func parts(_ range: Range<Int>, count: Int) -> [Range<Int>]? {
        var parts: [Range<Int>] = []
        parts.reserveCapacity(count)
        var start = range.lowerBound
        for index in range where bytes[index] == UInt8(ascii: ":") {
            guard parts.count < count - 1 else { return nil }
            parts.append(start..<index)
            start = index + 1
        }
        parts.append(start..<range.upperBound)
        return parts.count == count ? parts : nil
    }

    /// The day of a `YYYY-MM-DD` field; `nil` when it is not one.
    private func day(_ range: Range<Int>) -> Day? {
        try? Day(parsing: bytes.span.extracting(range))
    }

    /// Reads a `file` record: an imported file's stamp, content and counts.
    private func readFile(
        number: Int, into manifest: inout LedgerManifest
    ) throws(DecodingError) {
        guard fields.count == 12, let size = integer(fields[1]),
            let modified = integer(fields[2]), let changed = integer(fields[3]),
            let inode = UInt64(text(fields[4])), let device = UInt64(text(fields[5])),
            let content = ContentHash(hexText: text(fields[6])),
            let reading = hex(fields[7]),
            let transactions = integer(fields[8]), let rows = integer(fields[9]),
            let notBooked = integer(fields[10]), transactions >= 0, rows >= 0, notBooked >= 0
        else { throw .malformed(line: number, "bad file record") }
        manifest.files[unescaped(fields[11])] = ImportedFile(
            stamp: FileStamp(
                size: Int64(size), modified: Int64(modified), changed: Int64(changed),
                inode: inode, device: device),
            content: content, reading: Checksum(value: reading),
            transactionCount: transactions, rowCount: rows, notBookedCount: notBooked)
    }

    /// Reads an `account` record of the manifest's format `version`.
    private func readAccount(
        _ accountID: AccountID, number: Int, version: Int, into manifest: inout LedgerManifest
    ) throws(DecodingError) {
        guard let currency = Currency(code: text(fields[2])),
            let accountKind = Account.Kind(rawValue: text(fields[3]))
        else { throw .malformed(line: number, "bad currency or kind") }
        var opening: Money?
        if !isText(fields[4], "-") {
            guard let units = integer(fields[4]) else {
                throw .malformed(line: number, "bad opening balance")
            }
            opening = Money(minorUnits: Int64(units), currency: currency)
        }
        var turnover: Int64?
        if version >= 2 {
            guard let value = integer(fields[6]), value >= 0 else {
                throw .malformed(line: number, "bad turnover")
            }
            turnover = Int64(value)
        }
        // Format 5 has the balance state before the name.
        let shift = version >= 5 ? 1 : 0
        let name = unescaped(fields[(version >= 2 ? 7 : 6) + shift])
        var section: LedgerManifest.Section?
        if version >= 4 && !isText(fields[8 + shift], "-") {
            section = self.section(fields[8 + shift], in: manifest.monthsLog)
            guard section != nil else { throw .malformed(line: number, "bad section") }
        }
        var outOfBalance: OutOfBalance?
        if version >= 5 && !isText(fields[7], "-") {
            let parts = text(fields[7]).split(separator: ":")
            guard parts.count == 2, let since = try? Day(parsing: String(parts[0])),
                let units = Int64(parts[1])
            else { throw .malformed(line: number, "bad balance state") }
            outOfBalance = OutOfBalance(
                since: since, difference: Money(minorUnits: units, currency: currency))
        }
        manifest.accounts[accountID] = LedgerManifest.AccountEntry(
            account: Account(
                id: accountID, name: name.isEmpty ? nil : name, kind: accountKind,
                currency: currency),
            openingBalance: opening,
            lastImport: isText(fields[5], "-") ? nil : text(fields[5]),
            turnover: turnover, months: [:], section: section, monthsLoaded: section == nil,
            outOfBalance: outOfBalance)
    }

    /// The month record in `fields` from `start`: `YYYY-MM DATA IDX`, then from format 2 the
    /// two checksums, and in format 4 the extents; `nil` when it is not one.
    private func monthRecord(
        from start: Int, version: Int, _ logs: LedgerManifest.LogLengths, extentsField: Int? = nil
    ) -> (Month, LedgerManifest.MonthLength)? {
        let indexEntry = version >= 2 ? 16 : 8
        guard let month = month(fields[start]), let data = integer(fields[start + 1]),
            let ids = integer(fields[start + 2]), data >= 0, ids >= 0, ids % indexEntry == 0
        else { return nil }
        var length = LedgerManifest.MonthLength(dataBytes: data, idBytes: ids)
        if version >= 2 {
            guard let dataChecksum = hex(fields[start + 3]), let idChecksum = hex(fields[start + 4])
            else { return nil }
            length.dataChecksum = Checksum(value: dataChecksum)
            length.idChecksum = Checksum(value: idChecksum)
        }
        if version >= 4 {
            guard let extents = extents(fields[extentsField ?? start + 5], of: length, in: logs)
            else {
                return nil
            }
            length.extents = extents
        }
        return (month, length)
    }

    /// An account's section, `OFFSET:BYTES:CHECKSUM`, within the committed months log.
    private func section(_ range: Range<Int>, in log: LedgerManifest.MonthsLog)
        -> LedgerManifest.Section?
    {
        guard let parts = parts(range, count: 3), let offset = integer(parts[0]),
            let count = integer(parts[1]), let checksum = hex(parts[2]),
            offset >= 0, count > 0, count <= log.bytes - offset
        else { return nil }
        return LedgerManifest.Section(
            offset: offset, bytes: count, checksum: Checksum(value: checksum))
    }

    /// The extents of a month record: each within the logs' committed lengths (given before
    /// the months), adding up to the month's lengths; `nil` when they are not.
    private func extents(
        _ range: Range<Int>, of length: LedgerManifest.MonthLength,
        in logs: LedgerManifest.LogLengths
    ) -> [LedgerManifest.Extent]? {
        var extents: [LedgerManifest.Extent] = []
        extents.reserveCapacity(1 + bytes[range].count { $0 == UInt8(ascii: ",") })
        var numbers = (0, 0, 0, 0)
        var count = 0
        var start = range.lowerBound
        for index in range.lowerBound...range.upperBound {
            let separator = index == range.upperBound ? UInt8(ascii: ",") : bytes[index]
            guard separator == UInt8(ascii: ",") || separator == UInt8(ascii: ":") else {
                continue
            }
            guard count < 4, let number = integer(start..<index) else { return nil }
            switch count {
            case 0: numbers.0 = number
            case 1: numbers.1 = number
            case 2: numbers.2 = number
            default: numbers.3 = number
            }
            count += 1
            start = index + 1
            guard separator == UInt8(ascii: ",") else { continue }
            guard count == 4 else { return nil }
            let extent = LedgerManifest.Extent(
                dataOffset: numbers.0, dataBytes: numbers.1, idOffset: numbers.2,
                idBytes: numbers.3)
            guard extent.dataOffset >= 0, extent.dataBytes > 0, extent.idOffset >= 0,
                extent.idBytes > 0, extent.idOffset % 16 == 0, extent.idBytes % 16 == 0,
                extent.dataBytes <= logs.dataBytes - extent.dataOffset,
                extent.idBytes <= logs.idBytes - extent.idOffset
            else { return nil }
            extents.append(extent)
            count = 0
        }
        guard extents.reduce(0, { $0 + $1.dataBytes }) == length.dataBytes,
            extents.reduce(0, { $0 + $1.idBytes }) == length.idBytes
        else { return nil }
        return extents
    }

    /// The account id of a field: the last account's when the bytes are the same.
    private mutating func accountID(_ range: Range<Int>) -> AccountID? {
        if let last = lastAccount, bytes[last.range].elementsEqual(bytes[range]) {
            return last.id
        }
        guard
            let id = try? AccountID(parsing: bytes.span.extracting(range))
        else { return nil }
        lastAccount = (range, id)
        return id
    }

    private func isText(_ range: Range<Int>, _ text: StaticString) -> Bool {
        range.count == text.utf8CodeUnitCount
            && text.withUTF8Buffer { bytes[range].elementsEqual($0) }
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func unescaped(_ range: Range<Int>) -> String {
        LedgerRecord.unescape(bytes.span.extracting(range)) ?? ""
    }

    /// A decimal integer, with an optional leading `-`, that fits in an `Int`.
    private func integer(_ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        let negative = index < range.upperBound && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < range.upperBound else { return nil }
        var value = 0
        while index < range.upperBound {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int(digit))
            guard !overflow && !carry else { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    /// 16 hexadecimal digits.
    private func hex(_ range: Range<Int>) -> UInt64? {
        guard range.count == 16 else { return nil }
        var value: UInt64 = 0
        for index in range {
            let byte = bytes[index]
            let digit: UInt8
            if byte &- UInt8(ascii: "0") < 10 {
                digit = byte - UInt8(ascii: "0")
            } else if (byte | 0x20) &- UInt8(ascii: "a") < 6 {
                digit = (byte | 0x20) - UInt8(ascii: "a") + 10
            } else {
                return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// `YYYY-MM`.
    private func month(_ range: Range<Int>) -> Month? {
        guard range.count == 7, bytes[range.lowerBound + 4] == UInt8(ascii: "-"),
            let year = integer(range.lowerBound..<range.lowerBound + 4),
            let month = integer(range.lowerBound + 5..<range.upperBound),
            bytes[range.lowerBound] != UInt8(ascii: "-"),
            bytes[range.lowerBound + 5] != UInt8(ascii: "-")
        else { return nil }
        return Month(year: year, month: month)
    }
}
