/// Formats that bank and finance apps export and that statements names but does not read:
/// a file in one is refused as such (`FORMAT_UNSUPPORTED`), not misread as CSV.
package enum UnsupportedFormat: String, Hashable, Sendable {
    case qif = "QIF (Quicken Interchange Format)"
    case aeb43 = "AEB43 (Norma 43, the Spanish banks' statement format)"
    case zip = "a ZIP archive (or a spreadsheet such as XLSX)"

    /// The format a file's first bytes show: ZIP's `PK\u{3}\u{4}` signature; a QIF `!Type:`,
    /// `!Account` or `!Option` line first; AEB43 records of 80 characters, the first a `11`
    /// header of bank, branch and account number digits. `nil` for any other.
    init?(head: [UInt8]) {
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04])
            || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
        {
            self = .zip
            return
        }
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let lines = bytes.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D })
        guard let first = lines.first else { return nil }
        let upper = String(decoding: first.prefix(16), as: UTF8.self).uppercased()
        if ["!TYPE:", "!ACCOUNT", "!OPTION:", "!CLEAR:"].contains(where: upper.hasPrefix) {
            self = .qif
            return
        }
        // Every complete line of the head is a record of 80, of a Norma 43 record type.
        let complete = lines.dropLast(head.count >= StatementFormat.headLength ? 1 : 0)
        if first.starts(with: Array("11".utf8)), first.count == 80,
            first.dropFirst(2).prefix(18).allSatisfy({ $0 &- 48 < 10 }),
            complete.allSatisfy({ line in
                line.count == 80
                    && ["11", "22", "23", "24", "33", "88"].contains {
                        line.starts(with: Array($0.utf8))
                    }
            })
        {
            self = .aeb43
            return
        }
        return nil
    }
}

/// The reader of the formats statements names but does not read: it recognises them by their
/// first bytes, before every other format, and refuses the file as such.
struct UnsupportedFormatReader: StatementReader {
    static let formatName = "a format statements does not read"

    init(buildsRows: Bool) {}

    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        UnsupportedFormat(head: Array(head)) != nil
    }

    func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var source = source
        let format =
            UnsupportedFormat(head: source.readOnce(atMost: StatementFormat.headLength)) ?? .zip
        diagnostics.report(.formatUnsupported(format), line: 1, column: 1)
        return ParseSummary()
    }
}
