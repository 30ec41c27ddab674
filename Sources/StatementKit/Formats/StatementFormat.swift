/// The format of a statement file, told apart by its name and first bytes: the one place where
/// that is decided. Each format but CSV is a `StatementReader`, tried in the order of `readers`.
struct StatementFormat: Hashable, Sendable {
    /// The reader of the format; `nil` for CSV, whose dialect a profile describes.
    let reader: (any StatementReader.Type)?

    /// The formats that are not CSV, in the order they are tried on a file's first bytes:
    /// those refused as such first (QIF, AEB43, ZIP), then MT940 (its `{1:` envelope starts
    /// like JSON), JSON last.
    static let readers: [any StatementReader.Type] = [
        UnsupportedFormatReader.self, MT940Parser.self, OFXParser.self, CamtParser.self,
        StatementJSONParser.self,
    ]

    static let csv = StatementFormat(reader: nil)
    static let json = StatementFormat(reader: StatementJSONParser.self)
    static let mt940 = StatementFormat(reader: MT940Parser.self)
    static let camt = StatementFormat(reader: CamtParser.self)
    static let ofx = StatementFormat(reader: OFXParser.self)

    private init(reader: (any StatementReader.Type)?) {
        self.reader = reader
    }

    /// The format's name for people; `nil` for CSV and a format refused as such.
    var name: String? { refuses ? nil : reader?.formatName }

    /// Whether the format is one statements names but does not read (`UnsupportedFormat`).
    var refuses: Bool { reader == UnsupportedFormatReader.self }

    /// How many bytes of a file's start `init(path:head:)` looks at.
    static let headLength = 4096

    /// The format of a file: the reader one of whose `fileSuffixes` ends the file's name
    /// (`.json`); else the first reader that recognises the file's first bytes after a byte
    /// order mark, read as UTF-8 or, for a reader that `readsUTF16`, as the UTF-16 they are
    /// (`utf16Encoding(of:)`); CSV otherwise (a CSV file in UTF-16 stays CSV, which the sniffer
    /// decodes).
    init(path: String, head: [UInt8]) {
        if UnsupportedFormatReader.recognizes(head[...]) {
            self.init(reader: UnsupportedFormatReader.self)
            return
        }
        let name = path.lowercased()
        if let named = Self.readers.first(where: { $0.fileSuffixes.contains(where: name.hasSuffix) }
        ) {
            self.init(reader: named)
            return
        }
        if let encoding = Self.utf16Encoding(of: head),
            let decoded = Self.recognizing(encoding.utf8(from: head)), decoded.readsUTF16
        {
            self.init(reader: decoded)
            return
        }
        self.init(reader: Self.recognizing(head))
    }

    /// The format of an open file, from its first `headLength` bytes.
    init(of source: FileByteSource, path: String) throws {
        self.init(path: path, head: try source.readHead(Self.headLength))
    }

    /// The first reader that recognises a file's first bytes, after a UTF-8 byte order mark.
    private static func recognizing(_ head: [UInt8]) -> (any StatementReader.Type)? {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return readers.first { $0.recognizes(bytes) }
    }

    static func == (a: Self, b: Self) -> Bool {
        a.reader.map(ObjectIdentifier.init) == b.reader.map(ObjectIdentifier.init)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(reader.map(ObjectIdentifier.init))
    }
}

extension StatementFormat {
    /// The UTF-16 encoding a file's first bytes show: a byte order mark, or `<` as the first
    /// character (as XML, section F.1, detects its encoding); `nil` for any other.
    static func utf16Encoding(of head: [UInt8]) -> TextEncoding? {
        guard head.count >= 2 else { return nil }
        switch (head[0], head[1]) {
        case (0xFF, 0xFE), (UInt8(ascii: "<"), 0): return .utf16LE
        case (0xFE, 0xFF), (0, UInt8(ascii: "<")): return .utf16BE
        default: return nil
        }
    }
}
