/// The line format of one transaction in the ledger's month files.
///
/// `date TAB amount-in-minor-units TAB beneficiary TAB beneficiary-IBAN TAB description TAB
/// reference LF`; absent optional fields are empty, and `\`, tab, LF and CR inside text are
/// written `\\`, `\t`, `\n`, `\r`, so a line never breaks. The account and currency are those of
/// the file's account.
public enum LedgerRecord {
    /// Why a stored line could not be read back.
    public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Appends the line of a transaction to `bytes`.
    public static func encode(_ transaction: Transaction, into bytes: inout [UInt8]) {
        bytes += transaction.date.isoText.utf8
        bytes.append(9)
        bytes += String(transaction.amount.minorUnits).utf8
        bytes.append(9)
        escape(transaction.beneficiary, into: &bytes)
        bytes.append(9)
        if let iban = transaction.beneficiaryIBAN { iban.withBytes { bytes += $0 } }
        bytes.append(9)
        escape(transaction.description ?? "", into: &bytes)
        bytes.append(9)
        escape(transaction.reference ?? "", into: &bytes)
        bytes.append(10)
    }

    private static func escape(_ text: String, into bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes += [92, 92]
            case 9: bytes += [92, UInt8(ascii: "t")]
            case 10: bytes += [92, UInt8(ascii: "n")]
            case 13: bytes += [92, UInt8(ascii: "r")]
            default: bytes.append(byte)
            }
        }
    }

    private static func unescape(_ field: ArraySlice<UInt8>) -> String? {
        guard !field.isEmpty else { return nil }
        guard field.contains(92) else { return String(decoding: field, as: UTF8.self) }
        var out: [UInt8] = []
        var iterator = field.makeIterator()
        while let byte = iterator.next() {
            guard byte == 92, let next = iterator.next() else {
                out.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            default: out.append(next)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads every line of a month file of an account in `currency`.
    public static func decode(_ bytes: ArraySlice<UInt8>, currency: Currency) throws(DecodingError)
        -> [Transaction]
    {
        var transactions: [Transaction] = []
        for (index, line) in bytes.split(separator: 10).enumerated() {
            let fields = line.split(separator: 9, omittingEmptySubsequences: false)
            func fail(_ reason: String) -> DecodingError {
                DecodingError(description: "record \(index + 1): \(reason)")
            }
            guard fields.count == 6 else { throw fail("has \(fields.count) fields, not 6") }
            let day: Day
            do throws(DayError) {
                day = try Day(parsing: String(decoding: fields[0], as: UTF8.self))
            } catch { throw fail("bad date") }
            guard let minorUnits = Int64(String(decoding: fields[1], as: UTF8.self)),
                let beneficiary = unescape(fields[2])
            else { throw fail("bad amount or beneficiary") }
            var beneficiaryIBAN: IBAN?
            if !fields[3].isEmpty {
                do throws(IBANError) {
                    beneficiaryIBAN = try IBAN(parsing: String(decoding: fields[3], as: UTF8.self))
                } catch { throw fail("bad beneficiary IBAN") }
            }
            transactions.append(
                Transaction(
                    date: day, amount: Money(minorUnits: minorUnits, currency: currency),
                    beneficiary: beneficiary,
                    beneficiaryIBAN: beneficiaryIBAN, description: unescape(fields[4]),
                    reference: unescape(fields[5])))
        }
        return transactions
    }
}
