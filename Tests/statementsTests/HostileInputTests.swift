import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile files, generated here, through `validate` and `import`: exit 0 or 1, never a crash
/// or a hang, bounded output, no escape sequence reaching the terminal, bounded memory.
struct HostileInputTests {
    static let header = Array("date,account_iban,amount,beneficiary,description\n".utf8)
    static let row = Array("2026-10-01,DE89370400440532013000,1.00,Kiosk,x\n".utf8)

    static func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> [UInt8] {
        var bytes: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            bytes += bigEndian ? pair : pair.reversed()
        }
        return bytes
    }

    /// Each case: a name (its extension picks the parser) and its bytes.
    static let corpus: [(String, [UInt8])] = {
        let text = String(decoding: header + row, as: UTF8.self)
        let line = Array(row.prefix(row.count - 1))  // the row without its line end
        var random = SystemRandomNumberGenerator()
        return [
            ("utf16le-bom.csv", utf16(text, bigEndian: false, bom: true)),
            ("utf16be-bom.csv", utf16(text, bigEndian: true, bom: true)),
            ("utf16le.csv", utf16(text, bigEndian: false, bom: false)),
            ("utf16le-bom.json", utf16("{\"account\": {}}", bigEndian: false, bom: true)),
            (
                "zip.csv",
                [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]
                    + (0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) }
            ),
            ("urandom.json", (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &random) }),
            ("nul.csv", header + Array(repeating: 0, count: 10_000)),
            ("mixed-line-ends.csv", header + line + [0x0D] + line + [0x0D, 0x0A] + row),
            ("lone-cr.csv", Array(header.prefix(header.count - 1)) + [0x0D] + line + [0x0D]),
            ("no-final-newline.csv", header + line),
            ("header-only.csv", header),
            ("empty.json", []),
            (
                "osc-escapes.csv",
                header
                    + Array(
                        "2026-10-01,DE89370400440532013000,\u{1B}]0;owned\u{07},\u{1B}[2J\u{1B}[31mred,\u{9B}31m\n"
                            .utf8)
            ),
            (
                "year-99999.csv",
                header
                    + Array(
                        "99999-01-01,DE89370400440532013000,1,K,x\n0000-01-01,DE89370400440532013000,1,K,x\n"
                            .utf8)
            ),
            (
                "amounts.json",
                Array(
                    #"{"account":{"iban":"DE89370400440532013000"},"transactions":[{"date":"2026-10-01","amount":1e400,"beneficiary":"a"},{"date":"2026-10-01","amount":"NaN","beneficiary":"a"},{"date":"2026-10-01","amount":-0,"beneficiary":"a"},{"date":"2026-10-01","amount":"+.5","beneficiary":"a"}]}"#
                        .utf8)
            ),
            (
                "duplicate-keys.json",
                Array(
                    #"{"account":{"iban":"DE89370400440532013000","iban":"DE89370400440532013000"},"transactions":[]}"#
                        .utf8)
            ),
            (
                "nested.json",
                Array(repeating: UInt8(ascii: "{"), count: 1)
                    + Array(String(repeating: "\"a\":{", count: 200_000).utf8)
            ),
            (
                "many-rows-bad.csv",
                header + Array(String(repeating: "2026-13-01,XX00,1.001,,\n", count: 200_000).utf8)
            ),
            // The banks' own formats: entity expansion, external entities, deep nesting, huge
            // values, endless fields.
            (
                "billion-laughs.xml",
                Array(
                    """
                    <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
                    <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><x>&lol2;</x></Document>
                    """.utf8)
            ),
            (
                "external-entity.xml",
                Array(
                    """
                    <?xml version="1.0"?><!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]>
                    <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">&e;</Document>
                    """.utf8)
            ),
            (
                "deep.xml",
                Array("<Document xmlns=\"camt.053\">".utf8)
                    + Array(String(repeating: "<a>", count: 100_000).utf8)
            ),
            (
                "huge-attribute.xml",
                Array("<Document xmlns=\"camt.053\"><Amt Ccy=\"".utf8)
                    + Array(repeating: UInt8(ascii: "E"), count: 3 << 20) + Array("\"/>".utf8)
            ),
            (
                "endless-86.sta",
                Array(
                    ":20:X\n:25:DE89370400440532013000\n:60F:C261001EUR1,00\n:61:261002D1,00NMSC\n:86:"
                        .utf8)
                    + Array(String(repeating: "?20abc\n", count: 300_000).utf8)
            ),
            (
                "unclosed.ofx",
                Array("OFXHEADER:100\n\n<OFX>".utf8)
                    + Array(String(repeating: "<STMTTRN><NAME>x", count: 100).utf8)
            ),
        ]
    }()

    @Test(arguments: ["validate", "import"])
    func `answers every hostile file with exit 0 or 1 and bounded, safe output`(command: String)
        throws
    {
        let workspace = try Workspace()
        for (name, bytes) in Self.corpus {
            let path = workspace.path + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            var arguments = [command, path]
            if command == "import" { arguments += ["--state", workspace.state] }
            let output = try StatementsRunner.run(arguments)
            #expect(
                [0, 1].contains(output.status),
                "\(command) \(name): \(output.status) \(output.stderr.prefix(300))")
            #expect(output.stderr.split(separator: "\n").count <= 102, "\(name)")
            #expect(output.stderr.utf8.count < 64_000, "\(name)")
            #expect(
                !output.stderr.unicodeScalars.contains {
                    $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{07}"
                }, "\(name)")
            #expect(
                !output.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" },
                "\(name)")
        }
        if command == "import" {
            let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
            #expect(accounts.status == 0)
        }
        // The peak resident memory of every child process so far, this suite's included.
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #expect(usage.ru_maxrss < 400 * 1024, "peak RSS \(usage.ru_maxrss) KB")
    }

    @Test func `leaves the ledger before or after an import killed at any moment`() throws {
        let workspace = try Workspace()
        var lines = ["date,account_iban,amount,beneficiary,reference"]
        for index in 0..<20_000 {
            lines.append(
                "2026-\(String(format: "%02d", index % 12 + 1))-01,DE89370400440532013000,\(index % 97).01,P\(index),R\(index)"
            )
        }
        let file = try workspace.write("big.csv", lines.joined(separator: "\n") + "\n")
        let base = try workspace.write(
            "base.csv", lines.prefix(2_001).joined(separator: "\n") + "\n")
        _ = try StatementsRunner.run(["import", base, "--state", workspace.state])
        let before = try StatementsRunner.run([
            "accounts", "--format", "json", "--state", workspace.state,
        ]).stdout
        let start = Date()
        let complete = workspace.path + "/complete"
        try FileManager.default.copyItem(atPath: workspace.state, toPath: complete)
        _ = try StatementsRunner.run(["import", file, "--state", complete])
        let duration = Date().timeIntervalSince(start)
        let after = try StatementsRunner.run(["accounts", "--format", "json", "--state", complete])
            .stdout
        func counts(_ json: String) -> String {
            String(json.split(separator: "\"lastImport\"").first ?? "")
        }
        for kill in 0..<6 {
            let run = workspace.path + "/run\(kill)"
            try FileManager.default.copyItem(atPath: workspace.state, toPath: run)
            let process = Process()
            process.executableURL = StatementsRunner.executable
            process.arguments = ["import", file, "--state", run]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: duration * Double(kill) / 5)
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let state = try StatementsRunner.run(["accounts", "--format", "json", "--state", run])
            #expect(state.status == 0)
            #expect(
                counts(state.stdout) == counts(before) || counts(state.stdout) == counts(after),
                "kill \(kill)")
            _ = try StatementsRunner.run(["import", file, "--state", run])
            let finished = try StatementsRunner.run([
                "accounts", "--format", "json", "--state", run,
            ])
            #expect(counts(finished.stdout) == counts(after), "kill \(kill)")
            #expect(!FileManager.default.fileExists(atPath: run + "/pending"))
        }
    }
}
