import Foundation
import Testing

/// End-to-end tests of files that are not CSV statements (#35): formats named and refused,
/// files that hold no statement, and a Windows-1252 export read the same by every command.
struct FormatRefusalCommandTests {
    /// A Norma 43 (AEB43) file: a `11` account header, a `22` movement, a `23` concept, a
    /// `33` account footer and the `88` end of file, each 80 characters.
    static let aeb43 = [
        "11" + "0049" + "1500" + "0123456789" + "261001" + "261031" + "2" + "00000000100000"
            + "978" + "3" + "ACME SL                   " + "   ",
        "22" + "    " + "1500" + "261003" + "261003" + "12" + "001" + "1" + "00000000001250"
            + "0000000000" + "000000000000" + "0000000000000000",
        "2301" + "CAFETERIA CENTRAL                     "
            + "                                      ",
        "33" + "0049" + "1500" + "0123456789" + "00001" + "00000000001250" + "00000"
            + "00000000000000" + "2" + "00000000098750" + "978" + "    ",
        "88" + String(repeating: "9", count: 18) + "000005" + String(repeating: " ", count: 54),
    ].map { $0.padding(toLength: 80, withPad: " ", startingAt: 0) }.joined(separator: "\r\n")

    @Test(arguments: [
        ("statement.qif", "!Type:Bank\nD10/01/2026\nT-12.50\nPCOFFEE\n^\n", "QIF (Quicken"),
        ("statement.n43", aeb43 + "\r\n", "AEB43 (Norma 43"),
        ("statement.csv", "PK\u{3}\u{4}\u{14}\u{0}\u{0}\u{0}\u{8}\u{0}", "a ZIP archive"),
    ])
    func `names and refuses formats it does not read`(file: String, text: String, name: String)
        throws
    {
        let workspace = try Workspace()
        let path = try workspace.write(file, text)
        for command in [["validate", path], ["profile", path], ["import", path, "-n"]] {
            let output = try StatementsRunner.run(
                command + ["--account", "name:x"]
                    + (command[0] == "import" ? ["--state", workspace.state] : []))
            #expect(output.status == 1, "\(command) \(output.stderr)")
            #expect(
                output.stderr.contains(":1:1: error: [FORMAT_UNSUPPORTED] the file is \(name)"),
                "\(command) \(output.stderr)")
        }
    }

    @Test func `refuses an order list as no statement, in every command`() throws {
        let workspace = try Workspace()
        let path = try workspace.write(
            "orders.csv",
            "Order ID,Order Date,Item,Quantity,Unit Price\n111-22,2026-10-01,Cable,2,9.99\n111-23,2026-10-02,Lamp,1,24.50\n"
        )
        for command in [["validate", path], ["profile", path]] {
            let output = try StatementsRunner.run(command + ["--account", "name:x"])
            #expect(output.status == 1)
            #expect(
                output.stderr.contains(
                    "orders.csv:1:1: error: [FILE_NOT_STATEMENT] the file is not a bank statement: its columns hold orders, products or contacts (\"Order ID\")"
                ), "\(output.stderr)")
        }
    }

    @Test func `reads a Windows-1252 card export the same in every command`() throws {
        let workspace = try Workspace()
        var bytes = Array("Kaufdatum;H".utf8) + [0xE4] + Array("ndler;Kartenumsatz;Saldo\n".utf8)
        bytes += Array("01.10.2026;CAF".utf8) + [0xC9] + Array(" M".utf8) + [0xDC]
        bytes += Array(
            "NCHEN;-4,50;-4,50\n02.10.2026;KIOSK;-2,00;-6,50\n03.10.2026;ZAHLUNG;6,50;0,00\n"
                .utf8)
        let path = workspace.path + "/card.csv"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let account = ["--account", "card:visa/1234", "--currency", "EUR"]
        let validate = try StatementsRunner.run(["validate", path] + account)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stderr.contains("read it as windows-1252"))
        let profile = try StatementsRunner.run(["profile", path] + account)
        #expect(profile.status == 0, "\(profile.stderr)")
        #expect(profile.stdout.contains(#""encoding": "windows-1252""#))
        let imported = try StatementsRunner.run(
            ["import", path, "--state", workspace.state] + account)
        #expect(imported.status == 0, "\(imported.stderr)")
        let register = try StatementsRunner.run(["register", "--state", workspace.state])
        #expect(register.stdout.contains("CAFÉ MÜNCHEN"), "\(register.stdout)")
    }
}
