/// The ledger's commit record: which accounts exist and how many bytes of each month file are
/// committed.
///
/// Month files are append-only; bytes past the committed length belong to a run that did not
/// commit and are never read. Replacing the manifest with one atomic rename is what makes a
/// run's writes visible, all together. Text format, one record per line, tab separated:
///
/// ```
/// statements-ledger 1
/// generation N
/// account IBAN CURRENCY KIND OPENING-MINOR-UNITS|- LAST-IMPORT|- NAME
/// month IBAN YYYY-MM DATA-BYTES ID-BYTES
/// ```
public struct LedgerManifest: Hashable, Sendable {
    /// The format version this build reads and writes.
    public static let formatVersion = 1
    static let magic = "statements-ledger"

    /// What the ledger records about one account.
    public struct AccountEntry: Hashable, Sendable {
        public var account: Account
        /// The opening balance of the first statement that declared one.
        public var openingBalance: Money?
        /// When a run last added transactions to the account (ISO 8601, UTC).
        public var lastImport: String?
        /// The committed lengths of the account's month files.
        public var months: [Month: MonthLength]
    }

    /// The committed sizes of one account-month's files.
    public struct MonthLength: Hashable, Sendable {
        /// Bytes of the transaction lines.
        public var dataBytes: Int
        /// Bytes of the identity index, 8 per transaction.
        public var idBytes: Int
    }

    /// The accounts by IBAN.
    public var accounts: [IBAN: AccountEntry] = [:]
    /// How many runs have committed to the ledger; each commit adds one.
    public var generation = 0

    /// Creates an empty ledger's manifest.
    public init() {}

    /// Why a manifest could not be read.
    public enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        case newerVersion(Int)
        case malformed(line: Int, String)

        public var description: String {
            switch self {
            case .newerVersion(let version):
                "the ledger has format version \(version), newer than this statements reads (\(LedgerManifest.formatVersion)); upgrade statements"
            case .malformed(let line, let reason):
                "the ledger manifest is damaged at line \(line): \(reason)"
            }
        }
    }

    /// The manifest as text, in a stable order.
    public var encoded: String {
        var lines = [
            "\(LedgerManifest.magic) \(LedgerManifest.formatVersion)", "generation\t\(generation)",
        ]
        for iban in accounts.keys.sorted() {
            let entry = accounts[iban]!
            let fields = [
                "account", iban.electronic, entry.account.currency.code,
                entry.account.kind.rawValue,
                entry.openingBalance.map { String($0.minorUnits) } ?? "-", entry.lastImport ?? "-",
                LedgerManifest.escape(entry.account.name ?? ""),
            ]
            lines.append(fields.joined(separator: "\t"))
            for month in entry.months.keys.sorted() {
                let length = entry.months[month]!
                lines.append(
                    "month\t\(iban.electronic)\t\(month.isoText)\t\(length.dataBytes)\t\(length.idBytes)"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a manifest written by `encoded`.
    public init(decoding text: String) throws(DecodingError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard let header = lines.first, header.hasPrefix(LedgerManifest.magic + " "),
            let version = Int(header.dropFirst(LedgerManifest.magic.count + 1))
        else { throw .malformed(line: 1, "not a statements ledger") }
        guard version <= LedgerManifest.formatVersion else { throw .newerVersion(version) }
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
            guard let kind = fields.first, let ibanText = fields.dropFirst().first,
                let iban = try? IBAN(parsing: ibanText)
            else { throw .malformed(line: number, "unreadable record") }
            switch kind {
            case "account" where fields.count == 7:
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
                let name = LedgerManifest.unescape(fields[6])
                accounts[iban] = AccountEntry(
                    account: Account(
                        iban: iban, name: name.isEmpty ? nil : name, kind: accountKind,
                        currency: currency),
                    openingBalance: opening, lastImport: fields[5] == "-" ? nil : fields[5],
                    months: [:])
            case "month" where fields.count == 5:
                guard accounts[iban] != nil, let month = Month(parsing: fields[2]),
                    let data = Int(fields[3]), let ids = Int(fields[4]), data >= 0, ids >= 0,
                    ids % 8 == 0
                else { throw .malformed(line: number, "bad month record") }
                accounts[iban]!.months[month] = MonthLength(dataBytes: data, idBytes: ids)
            default:
                throw .malformed(line: number, "unknown record")
            }
        }
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "\t", with: "\\t"
        )
        .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
    }

    private static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                out.append(
                    character == "t"
                        ? "\t" : character == "n" ? "\n" : character == "r" ? "\r" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}
