import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Paths the tool may not read or write. Root reads everything, so when the suite runs as root
/// (as CI does) the tool runs as `nobody` through util-linux's `setpriv`.
struct PermissionTests {
    /// Runs `statements` as an unprivileged user, from a copy any user may execute.
    static func runUnprivileged(_ arguments: [String], in workspace: Workspace)
        throws -> StatementsRunner.Output
    {
        guard getuid() == 0 else { return try StatementsRunner.run(arguments) }
        let setpriv = "/usr/bin/setpriv"
        try #require(
            FileManager.default.isExecutableFile(atPath: setpriv),
            "running as root needs \(setpriv)")
        let binary = workspace.path + "/statements"
        if !FileManager.default.fileExists(atPath: binary) {
            try FileManager.default.copyItem(
                atPath: StatementsRunner.executable.path, toPath: binary)
            chmod(binary, 0o755)
        }
        return try StatementsRunner.run(
            ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments,
            executable: URL(fileURLWithPath: setpriv))
    }

    static func workspace() throws -> Workspace {
        let workspace = try Workspace()
        chmod(workspace.path, 0o777)
        return workspace
    }

    static let good =
        "date,account_iban,amount,beneficiary\n2026-10-01,DE89370400440532013000,1.00,K\n"

    @Test func `reports an unreadable file in a folder with exit 3 and checks the rest`() throws {
        let workspace = try Self.workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path + "/in", withIntermediateDirectories: true)
        chmod(workspace.path + "/in", 0o755)
        let good = try workspace.write("in/a.csv", Self.good)
        let secret = try workspace.write("in/b.csv", Self.good)
        chmod(good, 0o644)
        chmod(secret, 0o000)
        let output = try Self.runUnprivileged(["validate", workspace.path + "/in"], in: workspace)
        #expect(output.status == 3)
        #expect(
            output.stderr
                == "\(secret): error: [PATH_UNREADABLE] cannot read \"\(secret)\": Permission denied\n"
        )
        #expect(output.stdout == "1 error in 1 of 2 files (1 row checked)\n  1 × PATH_UNREADABLE\n")
    }

    @Test func `refuses a read-only state folder with exit 3 and leaves it as it was`() throws {
        let workspace = try Self.workspace()
        let input = try workspace.write("a.csv", Self.good)
        chmod(input, 0o644)
        #expect(
            try StatementsRunner.run(["import", "SampleData/good", "--state", workspace.state])
                .status == 0)
        let before = try StatementsRunner.run([
            "accounts", "--format", "json", "--state", workspace.state,
        ]).stdout
        chmod(workspace.state, 0o555)
        let output = try Self.runUnprivileged(
            ["import", input, "--state", workspace.state], in: workspace)
        #expect(output.status == 3)
        #expect(
            output.stderr.hasPrefix(
                "statements import: error: cannot open \(workspace.state)/lock: Permission denied"))
        chmod(workspace.state, 0o755)
        #expect(
            try StatementsRunner.run(["accounts", "--format", "json", "--state", workspace.state])
                .stdout == before)
        // Reading needs no write permission.
        let accounts = try Self.runUnprivileged(
            ["accounts", "--state", workspace.state], in: workspace)
        #expect(accounts.status == 0)
    }
}
