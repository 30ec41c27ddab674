import Foundation
import Testing

/// End-to-end tests of MT940 amounts and type codes read as SWIFT's grammar has them, through
/// the built executable.
struct MT940CommandTests {
    /// Two entries with a point for a decimal mark: read as 12.00 each, they cancelled, so
    /// the closing balance still matched and the import exited 0 with amounts 50 cents off.
    static let pointAmounts = """
        :20:POINT
        :25:DE89370400440532013000
        :60F:C261001EUR100,00
        :61:2610031003D12.50NMSCNONREF//P-1
        :86:Cafe
        :61:2610041004C12.50NMSCNONREF//P-2
        :86:Refund
        :62F:C261004EUR100,00
        -

        """

    @Test func `refuses an amount with a decimal point and imports nothing`() throws {
        let workspace = try Workspace()
        let file = try workspace.write("point.sta", Self.pointAmounts)
        let imported = try StatementsRunner.run(["import", file, "--state", workspace.state])
        #expect(imported.status == 1)
        #expect(
            imported.stderr.contains(
                "point.sta:4:16: error: [AMOUNT_FORMAT] :61: amount \"12.50\": is not an amount like 1234,56"
            ), "\(imported.stderr)")
        #expect(imported.stderr.contains("point.sta:6:16: error: [AMOUNT_FORMAT]"))
        let register = try StatementsRunner.run(["register", "--state", workspace.state])
        #expect(!register.stdout.contains("12.00"), "\(register.stdout)")
    }

    @Test func `refuses a type code outside the SWIFT characters and a second balance`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "type.sta",
            """
            :20:TYPE
            :25:DE89370400440532013000
            :60F:C261001EUR100,00
            :61:2610031003D12,50X,00NONREF//T-1
            :61:2610031003D1,NMSCNONREF//T-2
            :62F:C261003EUR87,50
            :62F:C261003EUR99,00
            -

            """)
        let output = try StatementsRunner.run(["validate", file])
        #expect(output.status == 1)
        #expect(
            output.stderr == """
                \(file):4:21: error: [MT940_TYPE_CODE] :61: transaction type "X,00": not N, F or S and three capital letters or digits, such as NTRF
                \(file):7:1: error: [MT940_SYNTAX] :62F: a second closing balance in the statement (the first is on line 6)

                """)
    }
}
