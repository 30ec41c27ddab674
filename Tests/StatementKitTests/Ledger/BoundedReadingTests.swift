import Foundation
import Testing

@testable import StatementKit

/// A run reads what it touches: a one-row import reads the manifest (a line per page of
/// account records), the page and section of its account and its month, whatever the number
/// of accounts in the ledger.
struct BoundedReadingTests {
    /// A German IBAN for an account number: its check digits worked out (ISO 7064 mod 97-10).
    static func iban(_ number: Int) -> String {
        let bban = "37040044" + String(format: "%010d", number)
        let digits = bban + "131400"  // D = 13, E = 14, then "00"
        let remainder = digits.reduce(0) { ($0 * 10 + Int(String($1))!) % 97 }
        return "DE" + String(format: "%02d", 98 - remainder) + bban
    }

    /// A ledger of `accounts` accounts with a row each; returns the bytes of the ledger that a
    /// one-row import into its first account reads, and the size of the account records.
    static func oneRowImport(accounts: Int) throws -> (read: Int, records: Int) {
        let ledger = try TestLedger()
        var text = "date,account_iban,amount,beneficiary\n"
        for number in 0..<accounts {
            text += "2026-10-0\(1 + number % 9),\(iban(number)),-1.00,Shop \(number)\n"
        }
        try ledger.importText(text)
        let storage = StorageController(folder: ledger.state)
        let report = try ledger.controller(storage).importFiles(at: [
            try ledger.files.write(
                "night.csv",
                "date,account_iban,amount,beneficiary\n2026-10-20,\(iban(0)),-2.00,Kiosk\n")
        ])
        #expect(report.newCount == 1)
        let manifest = try StorageController(folder: ledger.state).loadManifest(months: false)
        #expect(manifest.accounts.count == accounts)
        return (storage.bytesRead, manifest.pages.reduce(0) { $0 + ($1?.bytes ?? 0) })
    }

    @Test func `reads a bounded number of bytes for one row, however many accounts`() throws {
        let small = try Self.oneRowImport(accounts: 1000)
        let large = try Self.oneRowImport(accounts: 20000)
        // The account records grow with the accounts (20×); what the run reads does not:
        // the manifest's page lines (at most 1,024) and one page of about 20 records.
        #expect(large.records > 15 * small.records)
        #expect(large.read < 100_000, "\(large.read) bytes read")
        #expect(large.read < 2 * small.read, "\(small.read) and \(large.read) bytes read")
        #expect(large.read * 20 < large.records)
    }

    @Test func `lets go of the identities of months left behind, and finds them again`() throws {
        // One file over three months in date order, with identical rows and transaction ids,
        // twice in one run and once more in the next: every copy adds nothing, whether the
        // run holds every month's identities or lets go of all but the latest.
        var text = "date,account_iban,amount,beneficiary,description,reference,transaction_id\n"
        for month in ["09", "10", "11"] {
            for day in 1...20 {
                let row = "2026-\(month)-\(String(format: "%02d", day)),\(Self.iban(day % 3))"
                text += "\(row),-1.00,Kiosk,,,\n\(row),-1.00,Kiosk,,,\n"
                text += "\(row),-\(day).00,Rent,,,T\(month)-\(day)\n"
            }
        }
        var contents: [[String: [UInt8]]] = []
        for limit in [0, 1 << 16] {
            let ledger = try TestLedger()
            let first = try ledger.files.write("a.csv", text)
            let copy = try ledger.files.write("b.csv", text)
            let controller = ledger.controller(stagingLimit: 300)
            controller.identityLimit = limit
            let report = try controller.importFiles(at: [first, copy])
            #expect(
                report.files.map(\.outcome) == [
                    .imported(new: 180, present: 0), .alreadyPresent(180),
                ])
            let again = ledger.controller(stagingLimit: 300)
            again.identityLimit = limit
            let later = try again.importFiles(at: [try ledger.files.write("c.csv", text)])
            #expect(later.files.map(\.outcome) == [.alreadyPresent(180)])
            contents.append(try ledger.contents())
        }
        #expect(contents[0] == contents[1])
    }
}
