import Foundation
import StatementKit
import Testing

/// End-to-end tests of `statements validate` through the built executable.
struct ValidateCommandTests {
    @Test func `accepts every good sample file`() throws {
        let output = try StatementsRunner.run(["validate", "SampleData/good"])
        #expect(output.status == 0)
        #expect(output.stderr == "")
        #expect(output.stdout == "no errors in 5 files (25 rows checked)\n")
    }

    /// Each bad sample file, the first diagnostic it must produce, and the exit status alone.
    static let badFiles: [(file: String, place: String, code: String, status: Int32)] = [
        ("account-id.csv", "3:12", "ACCOUNT_ID", 1),
        ("account-kind.csv", "2:48", "ACCOUNT_KIND", 1),
        ("amount-format.csv", "3:35", "AMOUNT_FORMAT", 1),
        ("amount-overflow.csv", "3:35", "AMOUNT_OVERFLOW", 1),
        ("amount-precision.csv", "3:35", "AMOUNT_PRECISION", 1),
        ("amount-sign.csv", "3:49", "AMOUNT_SIGN", 1),
        ("balance-assertion.json", "8:1", "BALANCE_ASSERTION", 1),
        ("balance-closing.json", "4:21", "BALANCE_CLOSING", 1),
        ("balance-running.csv", "4:47", "BALANCE_RUNNING", 1),
        ("column-duplicate.csv", "1:38", "COLUMN_DUPLICATE", 1),
        ("column-missing.csv", "1:1", "COLUMN_MISSING", 1),
        ("column-unknown.csv", "1:38", "COLUMN_UNKNOWN", 0),
        ("csv-field-count.csv", "3:60", "CSV_FIELD_COUNT", 1),
        ("csv-stray-quote.csv", "3:51", "CSV_STRAY_QUOTE", 1),
        ("csv-unterminated-quote.csv", "3:45", "CSV_UNTERMINATED_QUOTE", 1),
        ("currency-conflict.csv", "3:41", "CURRENCY_CONFLICT", 1),
        ("currency-unknown.csv", "3:41", "CURRENCY_UNKNOWN", 1),
        ("date-format.csv", "3:1", "DATE_FORMAT", 1),
        ("date-invalid.csv", "3:1", "DATE_INVALID", 1),
        ("dialect-assumed.csv", "2:1", "DIALECT_ASSUMED", 0),
        ("dialect-unknown.csv", "3:44", "DIALECT_UNKNOWN", 1),
        ("format-unsupported.csv", "1:1", "FORMAT_UNSUPPORTED", 1),
        ("file-not-statement.csv", "1:1", "FILE_NOT_STATEMENT", 1),
        ("encoding-invalid.csv", "3:52", "ENCODING_INVALID", 1),
        ("encoding-invalid-utf8.csv", "3:52", "ENCODING_INVALID_UTF8", 1),
        ("encoding-nul.csv", "3:53", "ENCODING_NUL", 1),
        ("field-empty.csv", "3:45", "FIELD_EMPTY", 1),
        ("file-empty.csv", "1:1", "FILE_EMPTY", 1),
        ("file-no-transactions.csv", "1:1", "FILE_NO_TRANSACTIONS", 0),
        ("iban-characters.csv", "3:12", "IBAN_CHARACTERS", 1),
        ("iban-checksum.csv", "3:12", "IBAN_CHECKSUM", 1),
        ("iban-country.csv", "3:12", "IBAN_COUNTRY", 1),
        ("iban-length.csv", "3:12", "IBAN_LENGTH", 1),
        ("iban-national-check.csv", "3:12", "IBAN_NATIONAL_CHECK", 0),
        ("iban-structure.csv", "3:12", "IBAN_STRUCTURE", 1),
        ("transaction-id-conflict.csv", "3:65", "TRANSACTION_ID_CONFLICT", 1),
        ("json-duplicate-key.json", "4:49", "JSON_DUPLICATE_KEY", 1),
        ("json-syntax.json", "4:73", "JSON_SYNTAX", 1),
        ("json-too-deep.json", "1:76", "JSON_TOO_DEEP", 1),
        ("json-type.json", "4:39", "JSON_TYPE", 1),
        ("key-missing.json", "4:5", "KEY_MISSING", 1),
        ("key-unknown.json", "4:73", "KEY_UNKNOWN", 0),
        ("mt940-syntax.sta", "5:15", "MT940_SYNTAX", 1),
        ("mt940-type-code.sta", "5:21", "MT940_TYPE_CODE", 1),
        ("element-missing.sta", "1:1", "ELEMENT_MISSING", 1),
        ("xml-syntax.xml", "6:81", "XML_SYNTAX", 1),
        ("ofx-syntax.ofx", "10:1", "OFX_SYNTAX", 1),
        ("element-duplicate.xml", "6:39", "ELEMENT_DUPLICATE", 1),
        ("element-misplaced.ofx", "10:1", "ELEMENT_MISPLACED", 1),
        ("counterparty-iban.xml", "8:31", "COUNTERPARTY_IBAN", 0),
        ("text-too-long.xml", "7:23", "TEXT_TOO_LONG", 1),
        // A folder: its profile rejects the statement in it.
        ("profile-invalid", "3:3", "PROFILE_INVALID", 1),
    ]

    /// The file a sample's diagnostic names: a folder sample's profile.
    static func diagnosed(_ sample: String) -> String {
        sample.contains(".") ? sample : sample + "/statements-profile.json"
    }

    @Test(arguments: badFiles.map { $0.file })
    func `reports the one defect of each bad sample file`(file: String) throws {
        let expected = try #require(Self.badFiles.first { $0.file == file })
        let output = try StatementsRunner.run(["validate", "SampleData/bad/" + file])
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(
            lines.first?.hasPrefix("SampleData/bad/\(Self.diagnosed(file)):\(expected.place): ")
                == true,
            "\(output.stderr)")
        #expect(lines.first?.contains("[\(expected.code)]") == true)
        #expect(output.status == expected.status)
        if expected.status == 0 {
            let strict = try StatementsRunner.run([
                "validate", "--strict", "SampleData/bad/" + file,
            ])
            #expect(strict.status == 1)
            #expect(strict.stderr.contains(": error: [\(expected.code)]"))
        }
    }

    @Test func `has a bad sample file for every code that a file can show`() throws {
        // These three need input a repository cannot hold; tests generate it.
        let generated: Set = ["CSV_RECORD_TOO_LONG", "PATH_NOT_FOUND", "PATH_UNREADABLE"]
        let codes = Set(Self.badFiles.map(\.code)).union(generated)
        #expect(codes == Set(DiagnosticCode.allCases.map(\.rawValue)))
    }

    @Test func `fails the bad folder with a diagnostic for every file`() throws {
        let output = try StatementsRunner.run(["validate", "SampleData/bad"])
        #expect(output.status == 1)
        let files = try FileManager.default.contentsOfDirectory(
            atPath: StatementsRunner.packageRoot.path + "/SampleData/bad")
        #expect(files.count == Self.badFiles.count)
        for file in files {
            #expect(output.stderr.contains("SampleData/bad/\(Self.diagnosed(file)):"), "\(file)")
        }
        let codes = Set(
            output.stderr.split(separator: "[").dropFirst().map { $0.prefix { $0 != "]" } })
        #expect(codes.count >= 30)
        #expect(
            output.stdout.hasPrefix("46 errors, 6 warnings in 46 of 52 files (68 rows checked)\n"))
        // Then the counts per code, commonest first: every code of the samples once.
        let counts = output.stdout.split(separator: "\n")[1]
        #expect(counts.hasPrefix("  1 × ACCOUNT_ID, 1 × ACCOUNT_KIND, "))
        #expect(counts.split(separator: ", ").count == 52)
    }

    @Test func `prints the example diagnostic of the issue`() throws {
        let output = try StatementsRunner.run([
            "validate", "SampleData/bad/iban-checksum.csv", "SampleData/bad/amount-precision.csv",
        ])
        #expect(
            output.stderr == """
                SampleData/bad/iban-checksum.csv:3:12: error: [IBAN_CHECKSUM] account_iban "DE89 3704 0044 0532 0130 01": check digits 89 do not match (expected 62)
                SampleData/bad/amount-precision.csv:3:35: error: [AMOUNT_PRECISION] amount "12.345": EUR has 2 decimal places

                """)
        #expect(
            output.stdout == """
                2 errors in 2 of 2 files (4 rows checked)
                  1 × AMOUNT_PRECISION, 1 × IBAN_CHECKSUM

                """)
    }

    @Test func `writes JSON and GitHub formats to stdout`() throws {
        let json = try StatementsRunner.run([
            "validate", "--format", "json", "SampleData/bad/date-invalid.csv",
        ])
        #expect(json.status == 1)
        #expect(json.stderr == "")
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 1)
        #expect(summary["codes"] as? [String: Int] == ["DATE_INVALID": 1])
        let github = try StatementsRunner.run([
            "validate", "--format=github", "SampleData/bad/date-invalid.csv",
        ])
        #expect(
            github.stdout.hasPrefix(
                "::error file=SampleData/bad/date-invalid.csv,line=3,col=1,title=DATE_INVALID::date \"2026-02-30\""
            ))
    }

    @Test func `gives the same bytes whatever the number of jobs`() throws {
        let one = try StatementsRunner.run(["validate", "--jobs", "1", "SampleData"])
        for jobs in ["2", "4", "9"] {
            let many = try StatementsRunner.run(["validate", "--jobs", jobs, "SampleData"])
            #expect(many.status == one.status)
            #expect(many.stdout == one.stdout)
            #expect(many.stderr == one.stderr)
        }
        #expect(one.status == 1)
        #expect(try StatementsRunner.run(["validate", "--jobs", "0", "SampleData"]).status == 2)
        #expect(try StatementsRunner.run(["validate", "--jobs", "x", "SampleData"]).status == 2)
    }

    @Test func `reads one large file in parts on several cores to the same bytes`() throws {
        // 160,000 rows (over 16 MB, two parts' worth) with quoted line breaks throughout,
        // a running balance and bad rows in both halves.
        var text = "date,account_iban,amount,beneficiary,balance\n"
        var balance = 0
        let padding = String(repeating: "text to pad the row ", count: 3)
        for row in 1...160_000 {
            balance += 1
            let beneficiary =
                row % 3 == 0 ? "\"Shop\nfloor \(row)\"" : "Kiosk \(row) with \(padding)"
            let date = row == 3_000 || row == 150_000 ? "2026-02-30" : "2026-10-01"
            text +=
                "\(date),DE89370400440532013000,0.01,\(beneficiary),\(balance / 100).\(String(format: "%02d", balance % 100))\n"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "statements-parts-\(UUID().uuidString).csv"
        ).path
        #expect(text.utf8.count > 16 << 20)  // two parts of at least 8 MB
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let one = try StatementsRunner.run(["validate", "--jobs", "1", file])
        let two = try StatementsRunner.run(["validate", "--jobs", "2", file])
        #expect(two.status == one.status && two.stdout == one.stdout && two.stderr == one.stderr)
        // Row 150,000 starts on line 1 + 149,999 + 49,999 (one more per third row).
        #expect(one.stderr.contains("\(file):200000:1: error: [DATE_INVALID]"))
        #expect(one.stderr.contains("\(file):4000:1: error: [DATE_INVALID]"))
        #expect(one.stdout.contains("160,000 rows"))
        #expect(one.status == 1)
    }

    @Test func `sniffs a large Windows-1252 file the same on one core and on two`() throws {
        // Over 16 MB, so that two cores would read it in parts; "ü" as Windows-1252's 0xFC.
        var bytes = Array("date,account_iban,amount,beneficiary,description\n".utf8)
        let row =
            Array("2026-10-01,DE89370400440532013000,-1.00,M".utf8) + [0xFC]
            + Array("ller,text to pad the row and pad it some more to a hundred bytes\n".utf8)
        for _ in 0..<180_000 { bytes += row }
        #expect(bytes.count > 16 << 20)
        let workspace = try Workspace()
        let file = workspace.path + "/cp1252.csv"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
        let one = try StatementsRunner.run(["validate", "--jobs", "1", file])
        let two = try StatementsRunner.run(["validate", "--jobs", "2", file])
        #expect(one.status == 0)
        #expect(
            one.stderr.contains(
                "[DIALECT_ASSUMED] the file is not valid UTF-8; read it as windows-1252"))
        #expect(two.status == one.status && two.stdout == one.stdout && two.stderr == one.stderr)
    }

    @Test func `exits 2 on usage errors with the usage or where it is`() throws {
        for arguments in [
            ["validate"], ["validate", "--bogus", "x"], ["validate", "--format", "xml", "x"],
            ["frobnicate"], [],
        ] {
            let output = try StatementsRunner.run(arguments)
            #expect(output.status == 2, "\(arguments)")
            #expect(
                output.stderr.contains("USAGE: statements")
                    || output.stderr.contains("Run 'statements --help'"), "\(arguments)")
        }
    }

    @Test func `exits 3 for a missing path but still checks the others`() throws {
        let output = try StatementsRunner.run(["validate", "SampleData/good", "no/such/folder"])
        #expect(output.status == 3)
        #expect(
            output.stderr
                == "no/such/folder: error: [PATH_NOT_FOUND] cannot read \"no/such/folder\": No such file or directory\n"
        )
        #expect(
            output.stdout == "1 error in 1 of 6 files (25 rows checked)\n  1 × PATH_NOT_FOUND\n")
    }

    @Test func `prints help and version`() throws {
        let help = try StatementsRunner.run(["validate", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("-f, --format FORMAT        text: diagnostics on stderr"))
        #expect(help.stdout.contains("-q, --quiet"))
        let version = try StatementsRunner.run(["--version"])
        #expect(version.stdout == "statements 0.1.0\n")
        #expect(try StatementsRunner.run(["--help"]).stdout.contains("validate PATH..."))
    }
}

/// Edge cases the sample folders do not contain, written to temporary files.
struct ValidateEdgeCaseTests {
    static func validate(_ bytes: [UInt8], name: String = "case.csv", _ extra: [String] = []) throws
        -> StatementsRunner.Output
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "edge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return try StatementsRunner.run(["validate"] + extra + [file.path])
    }

    static func csv(_ rows: String, currency: String = "EUR") -> [UInt8] {
        Array(
            ("date,account_iban,amount,currency,beneficiary\n"
                + rows.replacingOccurrences(of: "{C}", with: currency)).utf8)
    }

    @Test(
        arguments: [
            ("2026-10-01,DE89370400440532013000,92233720368547758.07,{C},K\n", "EUR", ""),
            (
                "2026-10-01,DE89370400440532013000,92233720368547758.08,{C},K\n", "EUR",
                "AMOUNT_OVERFLOW"
            ),
            ("2026-10-01,DE89370400440532013000,1.005,{C},K\n", "EUR", "AMOUNT_PRECISION"),
            ("2026-10-01,DE89370400440532013000,12.5,{C},K\n", "JPY", "AMOUNT_PRECISION"),
            ("2026-10-01,DE89370400440532013000,12.345,{C},K\n", "BHD", ""),
            ("2024-02-29,DE89370400440532013000,1,{C},K\n", "EUR", ""),
            ("2025-02-29,DE89370400440532013000,1,{C},K\n", "EUR", "DATE_INVALID"),
            ("2026-10-01,de89 3704 0044 0532 0130 00,1,{C},K\n", "EUR", ""),
            ("2026-10-01,DE89370400440532013000,1,{C},\"multi\nline, quoted\"\n", "EUR", ""),
        ] as [(String, String, String)])
    func `decides each edge case`(rows: String, currency: String, code: String) throws {
        let output = try Self.validate(Self.csv(rows, currency: currency))
        #expect(output.status == (code.isEmpty ? 0 : 1), "\(output.stderr)")
        if !code.isEmpty { #expect(output.stderr.contains("[\(code)]")) }
    }

    @Test func `reads a BOM and CRLF file`() throws {
        let bytes: [UInt8] =
            [0xEF, 0xBB, 0xBF]
            + Array(
                "date,account_iban,amount,beneficiary\r\n2026-10-01,DE89370400440532013000,1,K\r\n"
                    .utf8)
        let output = try Self.validate(bytes)
        #expect(output.status == 0)
        #expect(output.stdout == "no errors in 1 file (1 row checked)\n")
    }

    @Test func `rejects binary garbage without crashing or hanging`() throws {
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + garbage.prefix(1000)
        for (bytes, name) in [
            (garbage, "random.csv"), (png, "image.csv"), (garbage, "random.json"),
            (png, "image.json"),
        ] {
            let output = try Self.validate(bytes, name: name)
            #expect(output.status == 1, "\(name)")
            #expect(output.stderr.split(separator: "\n").count <= 102, "\(name)")
            #expect(!output.stderr.unicodeScalars.contains { $0 == "\u{1B}" })
        }
    }

    @Test func `never echoes terminal escapes from the input`() throws {
        let output = try Self.validate(
            Self.csv("2026-10-01,DE89\u{1B}[2J370400440532013000,1,EUR,K\n"))
        #expect(output.status == 1)
        #expect(!output.stderr.unicodeScalars.contains { $0 == "\u{1B}" })
        #expect(output.stderr.contains("U+001B"))
    }
}

/// A generated file with defects at known lines: each must be reported at exactly its line.
struct ValidateGeneratedFileTests {
    @Test func `reports each defect of a generated file at its line and nothing else`() throws {
        var lines = ["date,account_iban,amount,currency,beneficiary,description"]
        var expected: [(line: Int, code: String)] = []
        let defects = [
            ("2026-02-30,DE89370400440532013000,-1.00,EUR,K,\"a, b\"", "DATE_INVALID"),
            ("2026-10-01,DE89370400440532013001,-1.00,EUR,K,x", "IBAN_CHECKSUM"),
            ("2026-10-01,DE89370400440532013000,-1.001,EUR,K,x", "AMOUNT_PRECISION"),
            ("2026-10-01,DE89370400440532013000,-1.00,EUR,,x", "FIELD_EMPTY"),
            ("2026-10-01,DE89370400440532013000,-1.00,EUR,K", "CSV_FIELD_COUNT"),
        ]
        for index in 0..<5000 {
            if index % 97 == 13 {
                let defect = defects[expected.count % defects.count]
                lines.append(defect.0)
                expected.append((lines.count, defect.1))
            } else if index % 11 == 0 {
                lines.append(
                    "2026-10-\(String(format: "%02d", index % 28 + 1)),BE68539007547034,\(index).07,EUR,\"Multi\nline\",\"x\"\"y\""
                )
            } else {
                lines.append(
                    "2026-10-\(String(format: "%02d", index % 28 + 1)),DE89370400440532013000,-\(index).50,EUR,Shop \(index),Item"
                )
            }
        }
        // A quoted line break makes one row span two physical lines; count physical lines.
        var physical: [(line: Int, code: String)] = []
        var line = 1
        var expectedIndex = 0
        for (rowIndex, row) in lines.enumerated() {
            if expectedIndex < expected.count && expected[expectedIndex].line == rowIndex + 1 {
                physical.append((line, expected[expectedIndex].code))
                expectedIndex += 1
            }
            line += row.filter { $0 == "\n" }.count + 1
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("generated.csv")
        try (lines.joined(separator: "\n") + "\n").write(
            to: file, atomically: false, encoding: .utf8)
        let output = try StatementsRunner.run(["validate", "--format", "json", file.path])
        #expect(output.status == 1)
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let found = diagnostics.map { "\($0["line"] as! Int) \($0["code"] as! String)" }
        #expect(found == physical.map { "\($0.line) \($0.code)" })
        #expect((document["summary"] as? [String: Any])?["rows"] as? Int == 5000)
    }
}
