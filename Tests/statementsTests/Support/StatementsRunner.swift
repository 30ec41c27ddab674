import Foundation

/// Runs the built `statements` executable, as a user would.
struct StatementsRunner {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The package root, where `SampleData/` is.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable beside the test bundle in the build folder.
    static let executable: URL = {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("statements")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        fatalError("statements executable not found near \(Bundle.main.bundleURL.path)")
    }()

    /// The environment variables that change what `statements` prints, removed unless a
    /// test sets them.
    static let personalSettings = [
        "COLUMNS", "LC_ALL", "LC_MONETARY", "LANG", "STATEMENTS_STATE", "STATEMENTS_CONFIG",
        "XDG_CONFIG_HOME", "NO_COLOR",
    ]

    /// Runs `statements` with arguments in the package root (or `directory`) and waits for it.
    ///
    /// - Parameter input: written to its standard input through a pipe (default: none).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
        executable: URL = executable, in directory: String? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory.map { URL(fileURLWithPath: $0) } ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        // What the person running the tests has set must not change what a test sees.
        for name in Self.personalSettings { env[name] = nil }
        env.merge(environment) { $1 }
        process.environment = env
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let err = folder.appendingPathComponent("err")
        try Data().write(to: out)
        try Data().write(to: err)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let pipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : pipe
        try process.run()
        if let input {
            let writer = pipe.fileHandleForWriting
            writer.write(Data(input.utf8))
            try writer.close()
        }
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }
}
