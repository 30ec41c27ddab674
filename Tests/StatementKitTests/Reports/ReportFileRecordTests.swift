import Foundation
import Testing

@testable import StatementKit

struct ReportFileRecordTests {
    @Test func `hashes bytes with FNV-1a`() {
        #expect(ReportFileRecord.hash([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(ReportFileRecord.hash(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
    }

    @Test func `reads back what it writes, and nothing it cannot read`() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "record-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var record = ReportFileRecord()
        record.entries["2026-10/DE89370400440532013000.txt"] = .init(
            stamp: FileStamp(
                size: 812, modified: 1_795_695_832_598_276_069, changed: 0, inode: 42, device: 0),
            hash: 0xcbf2_9ce4_8422_2325)
        record.entries["index.html"] = .init(
            stamp: FileStamp(size: 90, modified: 0, changed: 0, inode: 0, device: 0), hash: 7)
        let path = folder + "/.statements-files"
        try record.text.write(toFile: path, atomically: false, encoding: .utf8)
        let read = try #require(ReportFileRecord(contentsOf: path))
        #expect(read.entries == record.entries)
        #expect(read.month(of: "index.html") == Month(parsing: "2026-10"))
        for broken in [
            "statements-report-files 2\n", "statements-report-files 1\na\t1\t2\t3\n",
            "statements-report-files 1\na\t1\tx\t3\tff\n",
            "statements-report-files 1\na\t1\t2\t3\t1ffffffffffffffff\n",
        ] {
            try broken.write(toFile: path, atomically: false, encoding: .utf8)
            #expect(ReportFileRecord(contentsOf: path) == nil, "\(broken)")
        }
        #expect(ReportFileRecord(contentsOf: folder + "/none") == nil)
    }
}
