import Foundation
import Testing

/// `statements forget FILE`: one imported file's transactions and balances taken back out of
/// the ledger, crash-safely, refused when the ledger does not hold the file as it is.
struct ForgetCommandTests {
    static let household =
        "date,account_iban,amount,beneficiary,balance\n"
        + "2026-10-03,DE89370400440532013000,-12.34,Shop,987.66\n"
        + "2026-10-05,DE89370400440532013000,100.00,Employer,1087.66\n"
    /// A card's export that names no account, imported with --account rightly or wrongly; its
    /// type column says the sales are negative (signed amounts).
    static let card =
        "date,amount,beneficiary,type\n2026-10-04,-5.00,Kiosk,Sale\n2026-11-06,-7.50,Bakery,Sale\n"

    static func register(_ state: String) throws -> String {
        let output = try StatementsRunner.run(["register", "--state", state, "-f", "csv"])
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout
    }

    @Test func `takes a file under the wrong account back out, and it can come again`() throws {
        let workspace = try Workspace()
        let household = try workspace.write("household.csv", Self.household)
        let card = try workspace.write("card.csv", Self.card)
        let (state, out) = (workspace.state, workspace.path + "/out")
        #expect(
            try StatementsRunner.run(["process", household, "--state", state, "--out", out])
                .status == 0)
        let clean = try Self.register(state)
        let wrong = try StatementsRunner.run([
            "process", card, "-a", "DE89370400440532013000", "--state", state, "--out", out,
        ])
        #expect(wrong.status == 0, "\(wrong.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/2026-11/DE89370400440532013000.txt"))
        // A dry run says what it would take out, and changes nothing. (Sniffed with warnings,
        // the file was not recorded as imported whole: its rows are found all the same.)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: state + "/manifest"))
        let dryRun = try StatementsRunner.run([
            "forget", card, "-a", "DE89370400440532013000", "--state", state, "-n",
        ])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(
            dryRun.stdout == """
                would take out \(card): 2 transactions of 1 account (DE89370400440532013000)
                note: the ledger had no record of these bytes as imported whole (a file imported with warnings is not recorded); every transaction of the file was in it

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: state + "/manifest")) == manifest)
        // Read as it was imported: without its --account, the file is not the one imported.
        let unread = try StatementsRunner.run(["forget", card, "--state", state])
        #expect(unread.status != 0)
        let forget = try StatementsRunner.run([
            "forget", card, "-a", "DE89370400440532013000", "--state", state, "--out", out,
        ])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(
            forget.stdout == """
                took out \(card): 2 transactions of 1 account (DE89370400440532013000)
                note: the ledger had no record of these bytes as imported whole (a file imported with warnings is not recorded); every transaction of the file was in it
                removed 3 report files of account-months no longer in the ledger from \(out)/
                the ledger is at generation 3; the next 'statements process' writes its reports again

                """)
        #expect(try Self.register(state) == clean)
        #expect(try StatementsRunner.run(["check", "--state", state]).status == 0)
        #expect(
            !FileManager.default.fileExists(atPath: out + "/2026-11/DE89370400440532013000.txt"))
        let history = try String(contentsOfFile: state + "/history", encoding: .utf8)
        #expect(
            history.contains(
                "forget: \(card) (2 transactions of 1 account, 0 balances taken out); generation 3")
        )
        // Under its own account it is imported again, as new.
        let right = try StatementsRunner.run(["import", card, "-a", "card:visa/1234", "-s", state])
        #expect(right.stdout == "added 2 new transactions from 1 file, 0 already present\n")
    }

    @Test func `leaves a ledger equal to one that never had the file, balances included`() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path + "/inbox", withIntermediateDirectories: true)
        let october = try workspace.write("inbox/october.csv", Self.household)
        let november = try workspace.write(
            "inbox/november.csv",
            "date,account_iban,amount,beneficiary,balance\n"
                + "2026-11-02,DE89370400440532013000,-50.00,Power,1037.66\n"
                + "2026-11-03,DE89370400440532013000,-7.66,Cafe,1030.00\n")
        let both = workspace.path + "/both"
        #expect(try StatementsRunner.run(["import", october, november, "-s", both]).status == 0)
        let only = workspace.path + "/only"
        #expect(try StatementsRunner.run(["import", october, "-s", only]).status == 0)
        let forget = try StatementsRunner.run(["forget", november, "-s", both, "-f", "json"])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(
            forget.stdout == """
                {"file": "\(november)", "recorded": true, "transactions": 2, "accounts": ["DE89370400440532013000"], "balancesStated": 1, "months": [{"account": "DE89370400440532013000", "month": "2026-11"}], "vanished": [{"account": "DE89370400440532013000", "month": "2026-11"}], "generation": {"before": 1, "after": 2}, "reportsRemoved": null, "balances": [], "dryRun": false}

                """)
        #expect(try Self.register(both) == Self.register(only))
        let accounts = { (state: String) throws -> String in
            try StatementsRunner.run(["accounts", "-s", state, "-f", "json"]).stdout
                .replacing(/"lastImport": "[^"]*"/, with: "")
        }
        #expect(try accounts(both) == accounts(only))
        // Undo brings it back.
        let undo = try StatementsRunner.run(["undo", "-s", both])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(
            undo.stdout.hasPrefix(
                "took back generation 2: a forget, bringing back 2 transactions of 1 account"))
        #expect(try Self.register(both).contains("Power"))
        #expect(try StatementsRunner.run(["check", "-s", both]).status == 0)
    }

    @Test
    func `takes out what an overlapping file shares, which the next run of that file adds back`()
        throws
    {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path + "/inbox", withIntermediateDirectories: true)
        let first = try workspace.write("inbox/a.csv", Self.household)
        let overlapping = try workspace.write(
            "inbox/b.csv",
            Self.household + "2026-10-09,DE89370400440532013000,-7.66,Cafe,1080.00\n")
        let state = workspace.state
        #expect(
            try StatementsRunner.run(["import", workspace.path + "/inbox", "-s", state]).status == 0
        )
        let whole = try Self.register(state)
        let forget = try StatementsRunner.run(["forget", first, "-s", state])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(forget.stdout.hasPrefix("took out \(first): 2 transactions of 1 account"))
        // The overlapping file is read again (its record forgotten), and gives its rows back.
        let again = try StatementsRunner.run(["import", overlapping, "-s", state])
        #expect(again.stdout == "added 2 new transactions from 1 file, 1 already present\n")
        #expect(try Self.register(state) == whole)
    }

    @Test func `refuses a file the ledger does not hold as it is now`() throws {
        let workspace = try Workspace()
        let household = try workspace.write("household.csv", Self.household)
        let state = workspace.state
        #expect(try StatementsRunner.run(["import", household, "-s", state]).status == 0)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: state + "/manifest"))
        // Never imported.
        let other = try workspace.write("other.csv", Self.card)
        let never = try StatementsRunner.run([
            "forget", other, "-a", "DE89370400440532013000", "-s", state,
            "-f", "json",
        ])
        #expect(never.status == 1)
        #expect(never.stdout.hasPrefix("{\"code\": \"NOT_IMPORTED\", \"message\": "))
        #expect(
            never.stderr == """
                statements forget: error: \(other) was never imported: none of its 2 transactions (nor a balance it states) is in the ledger; check --state, and give the --profile, --account or --shard it was imported with

                """)
        // Changed since: a row added.
        try (Self.household + "2026-10-07,DE89370400440532013000,-1.00,Kiosk,1086.66\n")
            .write(toFile: household, atomically: true, encoding: .utf8)
        let changed = try StatementsRunner.run(["forget", household, "-s", state, "-f", "json"])
        #expect(changed.status == 1)
        #expect(
            changed.stdout.hasPrefix(
                "{\"code\": \"CHANGED_SINCE_IMPORT\", \"message\": \"\(household) changed since it was imported"
            ))
        // Some rows there, the path never recorded: partly present.
        let partly = try workspace.write(
            "partly.csv", try String(contentsOfFile: household, encoding: .utf8))
        let part = try StatementsRunner.run(["forget", partly, "-s", state, "-fjson"])
        #expect(part.status == 1)
        #expect(part.stdout.hasPrefix("{\"code\": \"PARTLY_PRESENT\""))
        #expect(part.stderr.contains("only 2 of the 3 transactions of \(partly) are in the ledger"))
        // With an error: never imported whole.
        let bad = try workspace.write(
            "bad.csv",
            "date,account_iban,amount,beneficiary\n2026-10-03,DE89370400440532013000,-1.234,Shop\n")
        let broken = try StatementsRunner.run(["forget", bad, "-s", state, "-f", "json"])
        #expect(broken.status == 1)
        #expect(broken.stdout.hasPrefix("{\"code\": \"FILE_HAS_ERRORS\""))
        #expect(broken.stderr.contains("(first: line 2:35: [AMOUNT_PRECISION] amount \"-1.234\""))
        // Gone: the ledger keeps no copy of the rows (exit 3, JSON with -f json).
        let gone = try StatementsRunner.run([
            "forget", workspace.path + "/gone.csv", "-s", state, "-f", "json",
        ])
        #expect(gone.status == 3)
        #expect(gone.stdout.hasPrefix("{\"code\": \"ENVIRONMENT\", \"message\": \"cannot read"))
        #expect(
            gone.stderr.contains("no such file. The ledger keeps a file's identity, not its rows"))
        // Usage: a folder, no file, two files, standard input.
        for arguments in [[workspace.path], [], [household, other], ["-"]] {
            let usage = try StatementsRunner.run(["forget"] + arguments + ["-s", state])
            #expect(usage.status == 2, "\(arguments): \(usage.stderr)")
        }
        // A ledger that is not there.
        let missing = try StatementsRunner.run(["forget", household, "-s", workspace.path + "/no"])
        #expect(missing.status == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: state + "/manifest")) == manifest)
    }

    @Test func `checks the balances again: a statement taken out of the middle opens a gap`()
        throws
    {
        let workspace = try Workspace()
        var files: [String] = []
        for (month, opening, amount, closing) in [
            ("10", "100.00", "10.00", "110.00"), ("11", "110.00", "-5.00", "105.00"),
            ("12", "105.00", "1.00", "106.00"),
        ] {
            files.append(
                try workspace.write(
                    "s\(month).json",
                    """
                    {"account": {"iban": "DE89370400440532013000", "currency": "EUR"},
                     "openingBalance": "\(opening)", "closingBalance": "\(closing)",
                     "transactions": [{"date": "2026-\(month)-10", "amount": "\(amount)",
                                       "beneficiary": "Shop"}]}
                    """))
        }
        let state = workspace.state
        #expect(try StatementsRunner.run(["import"] + files + ["-s", state]).status == 0)
        let forget = try StatementsRunner.run(["forget", files[1], "-s", state])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(
            forget.stdout == """
                took out \(files[1]): 1 transaction of 1 account (DE89370400440532013000), 2 balances the bank stated
                out of balance  DE89370400440532013000: since 2026-12-09 the ledger has 5.00 EUR more than the bank states
                the ledger is at generation 2; the next 'statements process' writes its reports again

                """)
        #expect(try StatementsRunner.run(["check", "-s", state]).status == 1)
        let again = try StatementsRunner.run(["import", files[1], "-s", state])
        #expect(again.status == 0)
        #expect(again.stdout.contains("in balance again  DE89370400440532013000"))
    }

    @Test func `takes back any sample file, of every format and layout, and it comes back whole`()
        throws
    {
        let workspace = try Workspace()
        let folders = ["good", "profiles", "exports", "formats"].map { "SampleData/" + $0 }
        let world = workspace.path + "/world"
        #expect(try StatementsRunner.run(["import"] + folders + ["-s", world]).status == 0)
        let whole = try Self.register(world)
        let root = StatementsRunner.packageRoot.path
        var files: [String] = []
        for folder in folders {
            for case let name as String in FileManager.default.enumerator(
                atPath: root + "/" + folder)!
            where name.contains(".") && !name.hasSuffix("statements-profile.json") {
                files.append(folder + "/" + name)
            }
        }
        #expect(files.count == 39)
        for file in files.sorted() {
            let copy = workspace.path + "/copy"
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: world, toPath: copy)
            let forget = try StatementsRunner.run(["forget", file, "-s", copy, "-q"])
            #expect(forget.status == 0, "\(file): \(forget.stderr)")
            let check = try StatementsRunner.run(["check", "-s", copy])
            if file == "SampleData/formats/ofx1-chase-checking.ofx" {
                // The middle month of an account whose September and November state balances:
                // without it, November's balances no longer hold, and the check says so.
                #expect(check.status == 1, "\(file)")
                #expect(
                    check.stderr.contains(
                        "aba:021000021/123456789 is out of balance with its bank since 2026-11-02"
                    ), "\(check.stderr)")
            } else {
                #expect(check.status == 0, "\(file): \(check.stderr)")
            }
            #expect(try Self.register(copy) != whole, "\(file)")
            let again = try StatementsRunner.run(["import", file, "-s", copy])
            #expect(again.status == 0, "\(file): \(again.stderr)")
            #expect(try Self.register(copy) == whole, "\(file)")
        }
    }

    @Test func `takes a file back out of each part of a split ledger`() throws {
        let workspace = try Workspace()
        let gulf = "SampleData/good/2026-10-gulf.json"
        var taken = 0
        for part in ["1/2", "2/2"] {
            let state = workspace.path + "/part" + part.prefix(1)
            #expect(
                try StatementsRunner.run(["import", gulf, "--shard", part, "-s", state]).status == 0
            )
            let forget = try StatementsRunner.run([
                "forget", gulf, "--shard", part, "-s", state, "-f", "json",
            ])
            #expect(forget.status == 0, "\(forget.stderr)")
            let result = try JSONSerialization.jsonObject(with: Data(forget.stdout.utf8))
            taken += try #require((result as? [String: Any])?["transactions"] as? Int)
            #expect(try Self.register(state).split(separator: "\n").count == 1)
        }
        #expect(taken == 4)
    }

    @Test func `waits for, or refuses, a ledger another run holds`() throws {
        let workspace = try Workspace()
        let household = try workspace.write("household.csv", Self.household)
        #expect(try StatementsRunner.run(["import", household, "-s", workspace.state]).status == 0)
        let lock = open(workspace.state, O_RDONLY | O_DIRECTORY)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let refused = try StatementsRunner.run(["forget", household, "-s", workspace.state])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("is in use by process"))
        let waited = try StatementsRunner.run([
            "forget", household, "-s", workspace.state, "--wait=0.3",
        ])
        #expect(waited.status == 3)
        #expect(waited.stderr.contains("after waiting 0.3 seconds"), "\(waited.stderr)")
    }
}
