import Foundation
import Testing

/// End-to-end tests of `statements report` and `statements process`.
struct ReportCommandTests {
    static func modificationDates(_ folder: String) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            if attributes[.type] as? FileAttributeType == .typeRegular {
                dates[name] = attributes[.modificationDate] as? Date
            }
        }
        return dates
    }

    @Test func `processes the sample data into statements and rewrites nothing the second time`()
        throws
    {
        let workspace = try Workspace()
        let out = workspace.path + "/reports"
        let first = try StatementsRunner.run([
            "process", "SampleData/good", "--state", workspace.state, "--out", out,
        ])
        #expect(first.status == 0)
        #expect(
            first.stdout.contains("added 25 new transactions from 5 files, 0 already present\n"))
        #expect(
            first.stdout.hasSuffix("wrote 20 report files (0 unchanged) to \(out)/ (2026-10)\n"))
        let files = try FileManager.default.contentsOfDirectory(atPath: out + "/2026-10").sorted()
        #expect(files.count == 20)  // with .closing-balances.tsv
        #expect(files.contains("DE89370400440532013000.txt"))
        #expect(files.contains("DE89370400440532013000.csv"))
        #expect(files.contains("DE89370400440532013000.html"))
        #expect(files.contains("index.html"))
        let before = try Self.modificationDates(out)
        Thread.sleep(forTimeInterval: 0.05)
        let second = try StatementsRunner.run([
            "process", "SampleData/good", "--state", workspace.state, "--out", out,
        ])
        #expect(second.status == 0)
        #expect(
            second.stdout == """
                nothing new: the 25 transactions of 5 files are in the ledger already
                no report files to write

                """)
        let report = try StatementsRunner.run(["report", "--state", workspace.state, "--out", out])
        #expect(
            report.stdout == "reports up to date: 20 report files unchanged in \(out)/ (2026-10)\n")
        #expect(try Self.modificationDates(out) == before)
    }

    @Test func `rewrites every month after a run that died before writing its reports`() throws {
        let workspace = try Workspace()
        let out = workspace.path + "/reports"
        let process = ["process", "SampleData/good", "--state", workspace.state, "--out", out]
        _ = try StatementsRunner.run(process)
        #expect(
            try String(contentsOfFile: out + "/.statements-generation", encoding: .utf8) == "1\n")
        // A process killed after its import committed: the ledger moved on, the reports did not.
        let late = try workspace.write(
            "late.csv",
            "date,account_iban,amount,beneficiary\n2026-09-30,DE89370400440532013000,-5.00,Late\n")
        _ = try StatementsRunner.run(["import", late, "--state", workspace.state])
        try FileManager.default.removeItem(atPath: out + "/2026-10/NL91ABNA0417164300.html")
        let again = try StatementsRunner.run(process + ["--verbose"])
        #expect(again.status == 0)
        #expect(again.stdout.contains("nothing new: the 25 transactions"))
        #expect(again.stdout.contains("wrote  \(out)/2026-10/NL91ABNA0417164300.html\n"))
        #expect(again.stdout.contains("wrote  \(out)/2026-09/DE89370400440532013000.txt\n"))
        // October's text is the same: the bank's balance at the end of September 30 already
        // holds the late booking, which moved the opening balance instead (its HTML links to
        // the new September).
        #expect(again.stdout.contains("wrote  \(out)/2026-10/DE89370400440532013000.html\n"))
        #expect(
            try String(contentsOfFile: out + "/.statements-generation", encoding: .utf8) == "2\n")
        #expect(
            try StatementsRunner.run(process).stdout.hasSuffix("no report files to write\n"))
    }

    @Test func `writes one statement to stdout, by locale`() throws {
        let workspace = try Workspace()
        _ = try StatementsRunner.run([
            "import", "SampleData/good/2026-10-household.csv", "--state", workspace.state,
        ])
        let text = try StatementsRunner.run([
            "report", "--state", workspace.state, "--month", "2026-10", "--account",
            "DE89 3704 0044 0532 0130 00",
            "--report-format", "text", "--out", "-",
        ])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n")
        #expect(
            lines.prefix(5) == [
                "Household · checking · EUR", "IBAN DE89 3704 0044 0532 0130 00",
                "October 2026: Oct 1, 2026 – Oct 31, 2026",
                "Opening balance  €1,520.00", "Closing balance  €1,619.68",
            ])
        #expect(lines.allSatisfy { $0.count <= 100 })
        let german = try StatementsRunner.run([
            "report", "--state", workspace.state, "--locale", "de_DE", "--report-format", "text",
            "--out",
            "-",
        ])
        #expect(german.stdout.contains("Endsaldo      1.619,68\u{00A0}€"))
        #expect(german.stdout.contains("Datum       Empfänger/Auftraggeber"))
        #expect(german.stdout.contains("15.10.2026"))
        #expect(german.stdout.contains("-1.200,00\u{00A0}€"))
    }

    @Test func `reports a range of months for chosen accounts`() throws {
        let workspace = try Workspace()
        _ = try StatementsRunner.run(["import", "SampleData/good", "--state", workspace.state])
        let output = try StatementsRunner.run([
            "report", "--state", workspace.state, "--from", "2026-09", "--to", "2026-11",
            "--account", "NL91ABNA0417164300",
            "--report-format", "csv", "--out", workspace.path + "/r", "-v",
        ])
        #expect(output.status == 0)
        #expect(
            output.stdout
                == "wrote  \(workspace.path)/r/2026-10/NL91ABNA0417164300.csv\nwrote 1 report file (0 unchanged) to \(workspace.path)/r/ (2026-10)\n"
        )
        let csv = try String(
            contentsOfFile: workspace.path + "/r/2026-10/NL91ABNA0417164300.csv", encoding: .utf8)
        #expect(
            csv == """
                date,beneficiary,description,reference,amount,balance,currency,account\r
                2026-09-30,Opening balance,Holiday savings,,,5000.00,EUR,NL91ABNA0417164300\r
                2026-10-15,Household account,Transfer to savings,ABN-77120,1200.00,6200.00,EUR,NL91ABNA0417164300\r
                2026-10-31,ABN AMRO Bank N.V.,Interest October,ABN-77121,3.87,6203.87,EUR,NL91ABNA0417164300\r
                2026-10-31,Closing balance,,,,6203.87,EUR,NL91ABNA0417164300\r

                """)
    }

    @Test func `starts CSV statements with a byte order mark when asked, for Excel`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "cafe.csv",
            "date,account_iban,amount,beneficiary\n2026-10-03,DE89370400440532013000,-12.34,Café Le Zinc\n"
        )
        let csvPath = { (folder: String) in
            workspace.path + "/\(folder)/2026-10/DE89370400440532013000.csv"
        }
        for (folder, extra) in [("plain", [String]()), ("excel", ["--bom"])] {
            let output = try StatementsRunner.run(
                ["process", file, "-s", workspace.state, "-o", workspace.path + "/" + folder]
                    + ["--report-format", "csv", "-q"] + extra)
            #expect(output.status == 0, "\(output.stderr)")
        }
        let plain = try [UInt8](Data(contentsOf: URL(fileURLWithPath: csvPath("plain"))))
        let excel = try [UInt8](Data(contentsOf: URL(fileURLWithPath: csvPath("excel"))))
        #expect(Array(excel.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(Array(excel.dropFirst(3)) == plain)
        #expect(plain.first == UInt8(ascii: "d"))
        #expect(
            String(decoding: plain, as: UTF8.self) == """
                date,beneficiary,description,reference,amount,balance,currency,account\r
                2026-09-30,Opening balance,,,,0.00,EUR,DE89370400440532013000\r
                2026-10-03,Café Le Zinc,,,-12.34,-12.34,EUR,DE89370400440532013000\r
                2026-10-31,Closing balance,,,,-12.34,EUR,DE89370400440532013000\r

                """)
        // `report` takes it too.
        let report = try StatementsRunner.run([
            "report", "-s", workspace.state, "--report-format", "csv", "--bom", "-o",
            workspace.path + "/report",
        ])
        #expect(report.status == 0)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: csvPath("report")))) == excel)
    }

    @Test func `exits 2 on bad report options`() throws {
        for arguments in [
            ["report", "--month", "2026-13"],
            ["report", "--month", "2026-10", "--from", "2026-01"],
            ["report", "--from", "2026-05"], ["report", "--format", "pdf"],
            ["report", "--locale", "xx_NOPE"],
            ["report", "--account", "DE00"], ["process"],
        ] {
            let output = try StatementsRunner.run(arguments + ["--state", "/nonexistent/ledger"])
            #expect(output.status == 2, "\(arguments)")
        }
    }

    @Test func `neutralises hostile text in every format`() throws {
        let workspace = try Workspace()
        let hostile =
            "date,account_iban,amount,beneficiary,description\n"
            + "2026-10-01,DE89370400440532013000,-1.00,\"<script>alert(1)</script>\",\"=HYPERLINK(\"\"http://x\"\")\"\n"
            + "2026-10-02,DE89370400440532013000,-1.00,@SUM(A1),\"+cmd \u{1B}[31m\u{202E}x\"\n"
        let file = try workspace.write("hostile.csv", hostile)
        let output = try StatementsRunner.run([
            "process", file, "--state", workspace.state, "--out", workspace.path + "/r",
        ])
        #expect(output.status == 0)
        let folder = workspace.path + "/r/2026-10/DE89370400440532013000"
        let html = try String(contentsOfFile: folder + ".html", encoding: .utf8)
        let csv = try String(contentsOfFile: folder + ".csv", encoding: .utf8)
        let text = try String(contentsOfFile: folder + ".txt", encoding: .utf8)
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;"))
        #expect(csv.contains("\"'=HYPERLINK(\"\"http://x\"\")\""))
        #expect(csv.contains(",'@SUM(A1),"))
        #expect(csv.contains(",'+cmd "))
        for output in [html, csv, text] {
            #expect(!output.unicodeScalars.contains("\u{1B}"))
            #expect(!output.unicodeScalars.contains("\u{202E}"))
        }
    }

    @Test func `sums each month's CSV amounts exactly to the input`() throws {
        let workspace = try Workspace()
        var generator = SystemRandomNumberGenerator()
        var rows = ["date,account_iban,amount,beneficiary,reference"]
        var expected: [String: Int64] = [:]
        let accounts = ["DE89370400440532013000", "NL91ABNA0417164300", "BE68539007547034"]
        for index in 0..<50_000 {
            let month = index % 12 + 1
            let cents = Int64.random(in: -999_999...999_999, using: &generator)
            let account = accounts[index % 3]
            let amount =
                (cents < 0 ? "-" : "") + "\(abs(cents) / 100)."
                + String(format: "%02d", abs(cents) % 100)
            rows.append(
                "2026-\(String(format: "%02d", month))-\(String(format: "%02d", index % 28 + 1)),\(account),\(amount),P,R\(index)"
            )
            expected["\(account) 2026-\(String(format: "%02d", month))", default: 0] += cents
        }
        let file = try workspace.write("big.csv", rows.joined(separator: "\n") + "\n")
        let out = workspace.path + "/r"
        let output = try StatementsRunner.run([
            "process", file, "--state", workspace.state, "--out", out, "--report-format", "csv",
        ])
        #expect(output.status == 0)
        var found: [String: Int64] = [:]
        for (key, _) in expected {
            let parts = key.split(separator: " ")
            let csv = try String(
                contentsOfFile: "\(out)/\(parts[1])/\(parts[0]).csv", encoding: .utf8)
            for line in csv.split(separator: "\r\n").dropFirst() {
                let cell = line.split(separator: ",", omittingEmptySubsequences: false)[4]
                // The opening and closing balance rows have no amount.
                guard !cell.isEmpty else { continue }
                let pieces = cell.split(separator: ".")
                let sign: Int64 = cell.hasPrefix("-") ? -1 : 1
                found[key, default: 0] += sign * (abs(Int64(pieces[0])!) * 100 + Int64(pieces[1])!)
            }
        }
        #expect(found == expected)
    }
}

/// The links between reports: month index, months before and after, the index of all months.
@Suite struct ReportNavigationTests {
    @Test func `links months of an account both ways and lists every month's closing balances`()
        throws
    {
        let workspace = try Workspace()
        let out = workspace.path + "/r"
        let run = ["process", "-s", workspace.state, "-o", out, "--report-format", "html"]
        #expect(try StatementsRunner.run(run + ["SampleData/good"]).status == 0)
        // A later file adds September for the household account: its October statement now
        // links back to it, and September links forward.
        let september = try workspace.write(
            "sep.csv",
            "date,account_iban,amount,beneficiary\n2026-09-15,DE89370400440532013000,-5.00,Late\n")
        let second = try StatementsRunner.run(run + [september, "-v"])
        #expect(second.status == 0, "\(second.stderr)")
        let october = try String(
            contentsOfFile: out + "/2026-10/DE89370400440532013000.html", encoding: .utf8)
        #expect(
            october.contains(
                "<a href=\"../2026-09/DE89370400440532013000.html\" rel=\"prev\">← Previous month (September 2026)</a>"
            ))
        let sept = try String(
            contentsOfFile: out + "/2026-09/DE89370400440532013000.html", encoding: .utf8)
        #expect(
            sept.contains(
                "<a href=\"../2026-10/DE89370400440532013000.html\" rel=\"next\">Next month (October 2026) →</a>"
            ))
        #expect(sept.contains("<a href=\"index.html\">All statements of the month</a>"))
        let monthIndex = try String(contentsOfFile: out + "/2026-09/index.html", encoding: .utf8)
        #expect(monthIndex.contains("<nav><a href=\"../index.html\">All months</a></nav>"))
        let all = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        let octoberAt = try #require(
            all.range(of: "<a href=\"2026-10/index.html\">October 2026</a>"))
        let septemberAt = try #require(
            all.range(of: "<a href=\"2026-09/index.html\">September 2026</a>"))
        #expect(octoberAt.lowerBound < septemberAt.lowerBound)
        // September ends at the bank's balance at the end of September 30, which holds the
        // late booking (the opening balance before it moved by 5.00); October is unchanged.
        // One row an account, October before September; the household has both months.
        #expect(
            all.contains(
                "<td class=\"num\"><a href=\"2026-10/DE89370400440532013000.html\">€1,619.68</a></td><td class=\"num\"><a href=\"2026-09/DE89370400440532013000.html\">€1,520.00</a></td></tr>"
            ))
        // October's six statements and its month index.
        #expect(all.components(separatedBy: "<a href=\"2026-10/").count == 8)
        #expect(all.components(separatedBy: "scope=\"row\"").count == 7)
    }
}

/// The HTML of every sample folder processed into one ledger, as a customer reads it.
@Suite struct HTMLReportCommandTests {
    @Test func `shows each text once, leaves out an empty reference column and grids the index`()
        throws
    {
        let workspace = try Workspace()
        let out = workspace.path + "/r"
        let run = try StatementsRunner.run([
            "process", "-s", workspace.state, "-o", out, "--report-format", "html", "-q",
            "SampleData/good", "SampleData/profiles", "SampleData/exports", "SampleData/formats",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        func page(_ name: String) throws -> String {
            try String(contentsOfFile: out + "/" + name, encoding: .utf8)
        }
        // A card's merchant repeated as the description is shown once; a description that
        // begins with the name shows what it adds.
        let card = try page("2026-11/card_amex_1004.html")
        #expect(
            card.contains(
                "<td class=\"text\">NETFLIX.COM</td><td class=\"description text\"></td>"))
        #expect(
            try page("2026-04/aba_111000025_4410021123.html").contains(
                "<td class=\"text\">IRS Treas</td><td class=\"description text\">310 TAX REF PPD ID: 1234567</td>"
            ))
        // No reference in the card's month: no column for them; a month with one keeps it.
        #expect(!card.contains("class=\"reference\""))
        #expect(
            try page("2026-09/aba_021000021_123456789.html").contains(
                "<td class=\"reference\">1043</td>"))
        // An id is never broken at its hyphen.
        #expect(
            try page("2026-08/sort-code_040004_12345678.html").contains(
                "<h1><span class=\"id\"><span class=\"nobr\">sort-code:</span><wbr>040004/<wbr>12345678</span> · August 2026</h1>"
            ))
        // The index of all months: a row an account, by name, then the unnamed by id, and a
        // column a month, newest first.
        let index = try page("index.html")
        let rows = index.components(separatedBy: "scope=\"row\">").dropFirst().map {
            String($0.prefix(while: { $0 != "<" }))
        }
        let names = rows.filter { !$0.isEmpty }
        #expect(names.first == "Amex Gold")
        #expect(names == names.sorted { $0.lowercased() < $1.lowercased() })
        #expect(rows.prefix(names.count).allSatisfy { !$0.isEmpty }, "named accounts first")
        #expect(rows.count == 37)
        let november = try #require(index.range(of: "<a href=\"2026-11/index.html\">"))
        let october = try #require(index.range(of: "<a href=\"2026-10/index.html\">"))
        #expect(november.lowerBound < october.lowerBound)
        #expect(!index.contains("<h2>"))
    }
}
