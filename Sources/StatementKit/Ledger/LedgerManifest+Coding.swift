/// The manifest's text and its accounts' sections of month records, written and read as bytes:
/// every run reads the manifest and every commit writes it (100,000 accounts make 10 MB), and
/// `accounts` or `report` read millions of month records.
extension LedgerManifest {
    /// The manifest as text in the current format, in a stable order, ending in its hash
    /// line.
    ///
    /// - Precondition: every account has its turnover, and its months are recorded in its
    ///   section (a manifest of an earlier format is upgraded before it is written).
    package var encodedBytes: [UInt8] {
        var out = ManifestWriter()
        out.text("\(LedgerManifest.magic) \(LedgerManifest.formatVersion)\ngeneration\t")
        out.number(generation)
        out.text("\nlogs\t")
        out.number(logs.dataBytes)
        out.tab()
        out.number(logs.idBytes)
        out.text("\nmonths\t")
        LedgerRecord.escape(monthsLog.name, into: &out.bytes)
        out.tab()
        out.number(monthsLog.bytes)
        out.newline()
        for accountID in accounts.keys.sorted() {
            let entry = accounts[accountID]!
            out.text("account\t")
            accountID.withBytes { out.bytes.append(bytes: $0) }
            out.tab()
            out.text(entry.account.currency.code)
            out.tab()
            out.text(entry.account.kind.rawValue)
            out.tab()
            if let opening = entry.openingBalance {
                out.number(opening.minorUnits)
            } else {
                out.text("-")
            }
            out.tab()
            out.text(entry.lastImport ?? "-")
            out.tab()
            out.number(entry.turnover!)
            out.tab()
            if let state = entry.outOfBalance {
                out.text(state.since.isoText)
                out.bytes.append(UInt8(ascii: ":"))
                out.number(state.difference.minorUnits)
            } else {
                out.text("-")
            }
            out.tab()
            LedgerRecord.escape(entry.account.name ?? "", into: &out.bytes)
            out.tab()
            if let section = entry.section {
                out.number(section.offset)
                out.bytes.append(UInt8(ascii: ":"))
                out.number(section.bytes)
                out.bytes.append(UInt8(ascii: ":"))
                out.hex(section.checksum.value)
            } else {
                out.text("-")
            }
            out.newline()
        }
        for path in files.keys.sorted() {
            let file = files[path]!
            let stamp = file.stamp
            out.text("file")
            for number in [stamp.size, stamp.modified, stamp.changed] {
                out.tab()
                out.number(number)
            }
            for number in [stamp.inode, stamp.device] {
                out.tab()
                out.number(number)
            }
            out.tab()
            out.text(file.content.description)
            out.tab()
            out.hex(file.reading.value)
            for number in [file.transactionCount, file.rowCount, file.notBookedCount] {
                out.tab()
                out.number(number)
            }
            out.tab()
            LedgerRecord.escape(path, into: &out.bytes)
            out.newline()
        }
        return LedgerManifest.sealed(out.bytes)
    }

    /// The section of the months log that records an account's months, a line per month in
    /// order, and its balance assertions.
    ///
    /// - Precondition: every month has its checksums and extents.
    package static func section(
        of months: [Month: MonthLength], assertions: [BalanceAssertion] = []
    ) -> [UInt8] {
        var out = ManifestWriter()
        for month in months.keys.sorted() {
            let length = months[month]!
            out.text(month.isoText)
            out.tab()
            out.number(length.dataBytes)
            out.tab()
            out.number(length.idBytes)
            out.tab()
            out.hex(length.dataChecksum!.value)
            out.tab()
            out.hex(length.idChecksum!.value)
            out.tab()
            if let total = length.total {
                out.number(total)
                out.tab()
            }
            for (index, extent) in length.extents!.enumerated() {
                if index > 0 { out.bytes.append(UInt8(ascii: ",")) }
                for (offset, number) in [
                    extent.dataOffset, extent.dataBytes, extent.idOffset, extent.idBytes,
                ].enumerated() {
                    if offset > 0 { out.bytes.append(UInt8(ascii: ":")) }
                    out.number(number)
                }
            }
            out.newline()
        }
        for assertion in assertions {
            out.text("balance\t")
            out.text(assertion.day.isoText)
            out.tab()
            out.number(assertion.balance.minorUnits)
            out.tab()
            out.number(assertion.line)
            out.tab()
            LedgerRecord.escape(assertion.source, into: &out.bytes)
            if let sum = assertion.ledgerSum {
                out.tab()
                out.number(sum)
            }
            out.newline()
        }
        return out.bytes
    }

    /// Reads an account's months from its section, each within the committed logs.
    package static func months(ofSection bytes: [UInt8], logs: LogLengths) throws(DecodingError)
        -> [Month: MonthLength]
    {
        try contents(ofSection: bytes, logs: logs, currency: .eur).months
    }

    /// Reads an account's months and balance assertions from its section.
    package static func contents(
        ofSection bytes: [UInt8], logs: LogLengths, currency: Currency
    ) throws(DecodingError) -> (months: [Month: MonthLength], assertions: [BalanceAssertion]) {
        var reader = ManifestReader(bytes: bytes)
        return try reader.readSection(logs: logs, currency: currency)
    }

    /// The manifest's text in the current format (`encodedBytes`).
    package var encoded: String {
        String(decoding: encodedBytes, as: UTF8.self)
    }

    /// A manifest's body with its end line: in format 4 the 128-bit content hash of the
    /// body (`ContentHasher`, eight bytes a step), in formats 2 and 3 its FNV-1a checksum.
    package static func sealed(_ body: [UInt8], version: Int = formatVersion) -> [UInt8] {
        let hash =
            version >= 4
            ? body.withUnsafeBytes { ContentHash.of($0).description } : Checksum.of(body).hexText
        return body + Array("end\t\(hash)\n".utf8)
    }

    /// Reads a manifest written by `encoded`.
    package init(decoding text: String) throws(DecodingError) {
        try self.init(decoding: Array(text.utf8))
    }

    /// Reads a manifest written by `encodedBytes`, or by an earlier format.
    package init(decoding bytes: [UInt8]) throws(DecodingError) {
        self.init()
        var reader = ManifestReader(bytes: bytes)
        try reader.read(into: &self)
    }
}

/// Builds the manifest's bytes.
private struct ManifestWriter {
    var bytes: [UInt8] = []

    mutating func text(_ text: String) {
        bytes += text.utf8
    }

    mutating func tab() { bytes.append(9) }
    mutating func newline() { bytes.append(10) }

    mutating func number<T: BinaryInteger>(_ value: T) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// 16 hexadecimal digits.
    mutating func hex(_ value: UInt64) {
        for shift in stride(from: 60, through: 0, by: -4) {
            let digit = UInt8((value >> UInt64(shift)) & 0xF)
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }
}

/// Reads the manifest's records from its bytes, a line at a time, its fields as ranges.
private struct ManifestReader {
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
        var start = 0
        var lines: [Range<Int>] = []
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 10 { end += 1 }
            lines.append(start..<end)
            start = end + 1
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

    /// Reads a section: `YYYY-MM DATA IDX DCHK ICHK [TOTAL] EXTENTS` lines, then `balance
    /// YYYY-MM-DD MINOR LINE SOURCE` lines.
    mutating func readSection(logs: LedgerManifest.LogLengths, currency: Currency)
        throws(DecodingError)
        -> (months: [Month: LedgerManifest.MonthLength], assertions: [BalanceAssertion])
    {
        var months: [Month: LedgerManifest.MonthLength] = [:]
        var assertions: [BalanceAssertion] = []
        guard bytes.last == 10 else { throw .malformed(line: 1, "the section is cut short") }
        for (offset, line) in lines().enumerated() {
            split(line)
            if (fields.count == 5 || fields.count == 6) && isText(fields[0], "balance") {
                guard let day = try? Day(parsing: text(fields[1])),
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
            guard fields.count == 6 || fields.count == 7,
                case (let month, var length)? = monthRecord(
                    from: 0, version: 4, logs, extentsField: fields.count - 1)
            else { throw .malformed(line: offset + 1, "bad month record") }
            if fields.count == 7 {
                guard let total = integer(fields[5]) else {
                    throw .malformed(line: offset + 1, "bad month total")
                }
                length.total = Int64(total)
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
                matches = body.withUnsafeBytes { ContentHash.of($0) } == hash
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
        if fields.count == 3 && version >= 4 && isText(kind, "months") {
            let name = unescaped(fields[1])
            guard let bytes = integer(fields[2]), bytes >= 0, name.hasPrefix("months."),
                !name.contains("/")
            else { throw .malformed(line: number, "bad months log") }
            manifest.monthsLog = LedgerManifest.MonthsLog(name: name, bytes: bytes)
            return
        }
        if version >= 3 && isText(kind, "file") {
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
            return
        }
        guard fields.count >= 2, let accountID = accountID(fields[1]) else {
            throw .malformed(line: number, "unreadable record")
        }
        let accountFields = version >= 5 ? 10 : version >= 4 ? 9 : version >= 2 ? 8 : 7
        let monthFields = version >= 2 ? 7 : 5
        if isText(kind, "account") && fields.count == accountFields {
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
        } else if isText(kind, "month") && version <= 3 && fields.count == monthFields {
            guard manifest.accounts[accountID] != nil,
                let (month, length) = monthRecord(from: 2, version: version, manifest.logs)
            else { throw .malformed(line: number, "bad month record") }
            manifest.accounts[accountID]!.months[month] = length
        } else {
            throw .malformed(line: number, "unknown record")
        }
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
        let parts = bytes[range].split(
            separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 3,
            let offset = integer(parts[0].startIndex..<parts[0].endIndex),
            let count = integer(parts[1].startIndex..<parts[1].endIndex),
            let checksum = hex(parts[2].startIndex..<parts[2].endIndex),
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
        var numbers: [Int] = []
        var start = range.lowerBound
        for index in range.lowerBound...range.upperBound {
            let separator = index == range.upperBound ? UInt8(ascii: ",") : bytes[index]
            guard separator == UInt8(ascii: ",") || separator == UInt8(ascii: ":") else {
                continue
            }
            guard let number = integer(start..<index) else { return nil }
            numbers.append(number)
            start = index + 1
            guard separator == UInt8(ascii: ",") else { continue }
            guard numbers.count == 4 else { return nil }
            let extent = LedgerManifest.Extent(
                dataOffset: numbers[0], dataBytes: numbers[1], idOffset: numbers[2],
                idBytes: numbers[3])
            guard extent.dataOffset >= 0, extent.dataBytes > 0, extent.idOffset >= 0,
                extent.idBytes > 0, extent.idOffset % 16 == 0, extent.idBytes % 16 == 0,
                extent.dataBytes <= logs.dataBytes - extent.dataOffset,
                extent.idBytes <= logs.idBytes - extent.idOffset
            else { return nil }
            extents.append(extent)
            numbers.removeAll(keepingCapacity: true)
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
        guard let id = try? AccountID(parsing: text(range)) else { return nil }
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
        bytes.withUnsafeBytes {
            LedgerRecord.unescape(UnsafeRawBufferPointer(rebasing: $0[range]))
        } ?? ""
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
