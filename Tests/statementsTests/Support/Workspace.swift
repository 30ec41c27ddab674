import Foundation

/// A fresh temporary folder for an end-to-end test, with a ledger folder in it; removed when
/// the test is done.
final class Workspace {
    let path: String
    var state: String { path + "/ledger" }

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "import-\(UUID().uuidString)"
            ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path + "/" + name, atomically: false, encoding: .utf8)
        return path + "/" + name
    }
}
