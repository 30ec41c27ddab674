import Foundation
import Testing

@testable import StatementKit

struct TransactionFormattingTests {
    @Test(
        arguments: [
            // A card statement's merchant twice: shown once.
            ("NETFLIX.COM", "NETFLIX.COM", nil),
            ("Migros Zürich", "Migros Zürich", nil),
            // The name begins the description, in any case: the rest is what it adds.
            ("Acme Corp", "ACME CORP PAYROLL PPD ID: 1234567", "PAYROLL PPD ID: 1234567"),
            ("Interest", "INTEREST PAYMENT", "PAYMENT"),
            ("ACME GmbH", "ACME GmbH - Rechnung 42", "Rechnung 42"),
            ("Café Le Zinc", "café le zinc: Lunch", "Lunch"),
            ("Bahn", "Bahn · ", nil),
            // Only a whole word is a prefix; other descriptions stay as they are.
            ("Shell", "SHELLFISH BAR", "SHELLFISH BAR"),
            ("Rent", "Rent2026", "Rent2026"), ("Cafe", "Cafe\u{301} Bar", "Cafe\u{301} Bar"),
            ("Café Le Zinc", "Lunch", "Lunch"),
            ("Hausverwaltung Schmidt GmbH", "Rent October", "Rent October"),
            ("Payment", "Card payment", "Card payment"),
            ("東京電力", "東京電力 10月分", "10月分"),
        ] as [(String, String, String?)])
    func `shows the description without the beneficiary it begins with`(
        beneficiary: String, description: String, shown: String?
    ) throws {
        let transaction = Transaction(
            date: try Day(parsing: "2026-10-03"), amount: Money(minorUnits: -100, currency: .eur),
            beneficiary: beneficiary, description: description)
        #expect(transaction.descriptionBesideBeneficiary == shown)
    }

    @Test func `has no description to show when the transaction has none`() throws {
        let transaction = Transaction(
            date: try Day(parsing: "2026-10-03"), amount: Money(minorUnits: -100, currency: .eur),
            beneficiary: "Big spender")
        #expect(transaction.descriptionBesideBeneficiary == nil)
    }
}
