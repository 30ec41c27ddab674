/// The manifest's text and its accounts' sections of month records, written and read as bytes:
/// every run reads the manifest and every commit writes it (100,000 accounts make 10 MB), and
/// `accounts` or `report` read millions of month records.
extension LedgerManifest {
    /// The manifest as text in the current format, in a stable order, ending in its hash
    /// line: the logs, where each page of account records lies in the months log, the
    /// accounts out of balance, and the files imported whole.
    ///
    /// - Precondition: `pages` are where the loaded accounts' records were last written
    ///   (`StorageController.writeSections` writes them before the manifest).
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
        out.tab()
        out.number(liveBytes ?? monthsLog.bytes)
        out.newline()
        for (number, page) in pages.enumerated() {
            guard let page else { continue }
            out.text("page\t")
            out.number(number)
            out.tab()
            out.section(page)
            out.newline()
        }
        for accountID in currentOutOfBalanceIDs.sorted() {
            out.text("unbalanced\t")
            accountID.withBytes { out.bytes.append($0) }
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

    /// The accounts out of balance: those decoded, as they are now, and those not decoded,
    /// as the manifest listed them.
    var currentOutOfBalanceIDs: Set<AccountID> {
        var ids = Set(accounts.compactMap { $0.value.outOfBalance == nil ? nil : $0.key })
        for accountID in outOfBalanceIDs where isUnread(accountID) {
            ids.insert(accountID)
        }
        return ids
    }

    /// A page of account records: a line per account, by id, as format 6's manifest held it
    /// and then the account's totals (`COUNT:SUM:FIRST:LAST:ASSERTIONS`, or `-`); the
    /// records of `undecoded` as they stand.
    ///
    /// - Precondition: every account has its turnover, and its months are recorded in its
    ///   section; no account is both in `accountIDs` and in `undecoded`.
    static func page(
        of accountIDs: [AccountID], in accounts: [AccountID: AccountEntry],
        undecoded: UndecodedPage? = nil
    ) -> [UInt8] {
        var out = ManifestWriter()
        var kept = undecoded?.records.sorted { $0.id < $1.id }[...] ?? []
        for accountID in accountIDs.sorted() {
            while let record = kept.first, record.id <= accountID {
                precondition(record.id != accountID, "an account's record is decoded once")
                out.bytes.append(contentsOf: undecoded!.bytes[record.line])
                out.newline()
                kept.removeFirst()
            }
            let entry = accounts[accountID]!
            out.text("account\t")
            accountID.withBytes { out.bytes.append($0) }
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
                out.section(section)
            } else {
                out.text("-")
            }
            out.tab()
            out.totals(entry.currentTotals)
            out.newline()
        }
        for record in kept {
            out.bytes.append(contentsOf: undecoded!.bytes[record.line])
            out.newline()
        }
        return out.bytes
    }

    /// Reads the accounts of a page (`page(of:in:)`) into `accounts`, their sections within
    /// the months log: all of them, or those `wanted` (the others returned undecoded).
    @discardableResult
    package mutating func readPage(_ bytes: [UInt8], wanted: Set<AccountID>? = nil)
        throws(DecodingError) -> [UndecodedRecord]
    {
        var reader = ManifestReader(bytes: bytes)
        return try reader.readPage(into: &self, wanted: wanted)
    }

    /// Decodes the records of a page that `readPage` left undecoded.
    mutating func readRecords(_ records: [UndecodedRecord], of page: UndecodedPage)
        throws(DecodingError)
    {
        var reader = ManifestReader(bytes: page.bytes)
        try reader.readRecords(records, into: &self)
    }

    /// The section of the months log that records an account's months, a line per month in
    /// order, and its balance assertions.
    ///
    /// - Precondition: every month has its checksums and extents.
    package static func section(
        of months: [Month: MonthLength], assertions: [BalanceAssertion] = []
    ) -> [UInt8] {
        var out = ManifestWriter()
        // About 100 bytes a month.
        out.bytes.reserveCapacity(months.count * 128 + assertions.count * 64)
        for month in months.keys.sorted() {
            let length = months[month]!
            month.appendISOText(to: &out.bytes)
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
                if let days = length.days {
                    out.number(days.lowerBound)
                    out.tab()
                    out.number(days.upperBound)
                    out.tab()
                }
            }
            for (index, extent) in length.extents!.enumerated() {
                if index > 0 { out.bytes.append(UInt8(ascii: ",")) }
                out.number(extent.dataOffset)
                out.bytes.append(UInt8(ascii: ":"))
                out.number(extent.dataBytes)
                out.bytes.append(UInt8(ascii: ":"))
                out.number(extent.idOffset)
                out.bytes.append(UInt8(ascii: ":"))
                out.number(extent.idBytes)
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
            ? ContentHash.of(body).description : Checksum.of(body).hexText
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
        bytes.append(utf8: text)
    }

    mutating func tab() { bytes.append(9) }
    mutating func newline() { bytes.append(10) }

    mutating func number<T: BinaryInteger>(_ value: T) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // The digits in one copy: a night's touched accounts write millions of numbers.
        DecimalDigits.with(UInt64(value.magnitude)) { bytes.append(bytes: $0) }
    }

    /// `COUNT:SUM:FIRST:LAST:ASSERTIONS` (days `-` without transactions), or `-` unknown.
    mutating func totals(_ totals: AccountTotals?) {
        guard let totals else { return text("-") }
        number(totals.count)
        bytes.append(UInt8(ascii: ":"))
        number(totals.sum)
        bytes.append(UInt8(ascii: ":"))
        text(totals.days?.lowerBound.isoText ?? "-")
        bytes.append(UInt8(ascii: ":"))
        text(totals.days?.upperBound.isoText ?? "-")
        bytes.append(UInt8(ascii: ":"))
        number(totals.assertions)
    }

    /// `OFFSET:BYTES:CHECKSUM`.
    mutating func section(_ section: LedgerManifest.Section) {
        number(section.offset)
        bytes.append(UInt8(ascii: ":"))
        number(section.bytes)
        bytes.append(UInt8(ascii: ":"))
        hex(section.checksum.value)
    }

    /// 16 hexadecimal digits.
    mutating func hex(_ value: UInt64) {
        bytes.appendWriting(atMost: 16) { text in
            for shift in stride(from: 60, through: 0, by: -4) {
                let digit = UInt8((value >> UInt64(shift)) & 0xF)
                text.put(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
            }
        }
    }
}
