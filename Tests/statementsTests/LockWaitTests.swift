import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--wait[=SECONDS]`: a run that finds the ledger locked waits for it instead of exiting 3.
struct LockWaitTests {
    /// Holds the state folder's writer lock as another run would, with its process id.
    static func holdLock(_ workspace: Workspace) throws -> Int32 {
        try FileManager.default.createDirectory(
            atPath: workspace.state, withIntermediateDirectories: true)
        let lock = open(workspace.state, O_RDONLY | O_DIRECTORY)
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        try "4242\n".write(toFile: workspace.state + "/lock", atomically: false, encoding: .utf8)
        return lock
    }

    @Test(arguments: ["import", "process"])
    func `gives up with exit 3 when the lock stays held past the wait`(command: String) throws {
        let workspace = try Workspace()
        let lock = try Self.holdLock(workspace)
        defer { close(lock) }
        let start = Date()
        let output = try StatementsRunner.run(
            [
                command, "SampleData/good", "--state", workspace.state, "--out",
                workspace.path + "/out", "--wait=1",
            ].filter { command == "process" || ($0 != "--out" && !$0.hasSuffix("/out")) })
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 1 && waited < 10, "\(waited)")
        #expect(output.status == 3)
        #expect(
            output.stderr
                == "statements \(command): error: state folder \(workspace.state) is still in use by process 4242 after waiting 1 second for it\n"
        )
        #expect(!FileManager.default.fileExists(atPath: workspace.state + "/manifest"))
    }

    @Test func `imports once the other run lets go`() throws {
        let workspace = try Workspace()
        let lock = try Self.holdLock(workspace)
        // The other run ends after a second.
        let release = Thread {
            Thread.sleep(forTimeInterval: 1)
            flock(lock, LOCK_UN)
            close(lock)
        }
        release.start()
        let start = Date()
        let output = try StatementsRunner.run([
            "import", "SampleData/good", "--state", workspace.state, "--wait",
        ])
        #expect(Date().timeIntervalSince(start) >= 0.9)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("added "))
    }

    @Test func `two runs started together both import with --wait`() throws {
        let workspace = try Workspace()
        // Enough rows that the first run holds the lock for a while.
        var text = "date,account_iban,amount,beneficiary\n"
        for row in 0..<60_000 {
            let day = String(row % 28 + 101).dropFirst()
            text +=
                "2026-10-\(day),DE02120300000000202051,-\(row % 90 + 1).\(row % 90 + 10),Shop \(row)\n"
        }
        let big = try workspace.write("big.csv", text)
        func start(_ arguments: [String]) throws -> (Process, URL) {
            let process = Process()
            process.executableURL = StatementsRunner.executable
            process.arguments = arguments
            let out = URL(fileURLWithPath: workspace.path + "/\(UUID().uuidString).out")
            try Data().write(to: out)
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = process.standardOutput
            process.currentDirectoryURL = StatementsRunner.packageRoot
            try process.run()
            return (process, out)
        }
        let first = try start(["import", big, "--state", workspace.state, "--wait=120"])
        // The second starts once the first holds the ledger.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline,
            (try? String(contentsOfFile: workspace.state + "/lock", encoding: .utf8))
                != "\(first.0.processIdentifier)\n"
        {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let second = try start([
            "import", "SampleData/good", "--state", workspace.state, "--wait=120",
        ])
        first.0.waitUntilExit()
        second.0.waitUntilExit()
        let outputs = try [first.1, second.1].map { try String(contentsOf: $0, encoding: .utf8) }
        #expect(first.0.terminationStatus == 0, "\(outputs[0])")
        #expect(second.0.terminationStatus == 0, "\(outputs[1])")
        // Both are in: importing both again adds nothing.
        let again = try StatementsRunner.run([
            "import", big, "SampleData/good", "--state", workspace.state,
        ])
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("nothing new: "), "\(again.stdout)")
    }

    @Test func `completes --wait as an option of the commands that take the lock`() throws {
        let script = try StatementsRunner.run(["completions", "bash"])
        #expect(script.status == 0)
        #expect(script.stdout.contains("--wait"))
        #expect(!script.stdout.contains("--wait["))
    }

    @Test(arguments: ["--wait=soon", "--wait=-1", "--wait=1e9"])
    func `refuses a wait that is not a number of seconds`(option: String) throws {
        let workspace = try Workspace()
        let output = try StatementsRunner.run([
            "import", "SampleData/good", "--state", workspace.state, option,
        ])
        #expect(output.status == 2)
        #expect(output.stderr.contains("--wait must be a number of seconds"))
    }
}
