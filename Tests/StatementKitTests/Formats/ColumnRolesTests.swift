import Testing

@testable import StatementKit

struct ColumnRolesTests {
    static func header(_ text: String) -> DialectSniffer.Header? {
        ColumnRoles.header(Array(text.utf8))
    }

    @Test func `knows dates, the amount and the balance by their values`() throws {
        let header = try #require(
            Self.header(
                """
                created,details,value_eur,running_total
                2026-10-01T09:00:00Z,Salary,2500.00,3500.00
                2026-10-03T10:00:00Z,Coffee,-12.50,3487.50
                2026-10-13T11:00:00Z,Rent,-1234.56,2252.94

                """))
        #expect(header.indices == [.date: 0, .description: 1, .amount: 2, .balance: 3])
        #expect(header.columns[.amount] == [.name("value_eur")])
    }

    @Test func `proves a debit and credit pair in a file without header`() throws {
        let header = try #require(
            Self.header(
                """
                10/01/2026,ACME PAYROLL,,2500.00,3500.00
                10/03/2026,COFFEE HOUSE,12.50,,3487.50
                10/13/2026,LANDLORD RENT,1234.56,,2252.94

                """))
        #expect(header.line == 0)
        #expect(header.indices == [.date: 0, .description: 1, .debit: 2, .credit: 3, .balance: 4])
        #expect(header.columns[.debit] == [.number(3)])
    }

    @Test func `tells two date columns apart by the posting words`() throws {
        let header = try #require(
            Self.header(
                """
                Fecha valor;Fecha contable;Concepto;Importe;Saldo disponible
                02/10/2026;01/10/2026;Nómina;2.500,00;3.500,00
                03/10/2026;03/10/2026;Café;-12,50;3.487,50

                """))
        #expect(header.indices[.date] == 1)
        #expect(header.indices[.amount] == 3)
    }

    @Test func `leaves two readings open unread`() throws {
        // Two decimal columns, no balance, no word that names the amount: open.
        let two = try #require(
            Self.header(
                """
                Tag,Text,Posten X,Posten Y
                2026-10-01,Miete,-500.00,12.00
                2026-10-02,Kaffee,-3.50,12.00

                """))
        #expect(two.openQuestions?.amountColumns == ["Posten X", "Posten Y"])
        #expect(two.openQuestions?.isSignOpen == false)
        // All amounts positive, no balance: the sign is not known.
        let positive = try #require(
            Self.header(
                """
                when,what,how much
                2026-10-01,Shop,45.12
                2026-10-02,Shop,12.99

                """))
        #expect(positive.openQuestions?.amountColumns == [])
        #expect(positive.openQuestions?.isSignOpen == true)
    }
}
