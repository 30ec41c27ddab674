import Foundation
import Testing

@testable import StatementKit

struct POSIXIOWriteTests {
    @Test func `replaces a file whole through a temporary, and leaves no temporary behind`() throws
    {
        let folder = try TemporaryFolder()
        let path = try folder.write("target", "old")
        // A temporary a killed run left is written over, not refused.
        try folder.write("target.tmp", "left by a killed run")
        #expect(POSIXIO.replaceSynced(path, with: Array("new".utf8), through: path + ".tmp") == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func `names the step that failed and leaves the file as it was`() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("target", "old")
        let failure = POSIXIO.replaceSynced(
            path, with: Array("new".utf8), through: folder.path + "/missing/target.tmp")
        #expect(failure?.operation == "create")
        #expect(failure?.path == folder.path + "/missing/target.tmp")
        #expect(failure?.error.code == ENOENT)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        // A folder where the file should be: the rename fails, and the temporary is removed.
        try FileManager.default.createDirectory(
            atPath: folder.path + "/folder/inside", withIntermediateDirectories: true)
        let replaced = POSIXIO.replaceSynced(
            folder.path + "/folder", with: [1], through: folder.path + "/folder.tmp")
        #expect(replaced?.operation == "replace" && replaced?.path == folder.path + "/folder")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/folder.tmp"))
    }

    @Test func `refuses to write over a file when the write is exclusive`() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("kept", "kept")
        #expect(POSIXIO.writeSynced([1, 2], to: path, exclusive: true)?.operation == "create")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "kept")
        #expect(POSIXIO.writeSynced([0x61], to: path) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a")
    }

    @Test func `lists a folder's hidden names, and only those`() throws {
        let folder = try TemporaryFolder()
        for name in [".closing-balances.tsv", ".a.1.statements-tmp", "AT02.html", "b", ".é"] {
            _ = try folder.write(name, "x")
        }
        try FileManager.default.createDirectory(
            atPath: folder.path + "/.hidden", withIntermediateDirectories: false)
        #expect(
            POSIXIO.hiddenNames(in: folder.path).sorted() == [
                ".a.1.statements-tmp", ".closing-balances.tsv", ".hidden", ".é",
            ])
        #expect(POSIXIO.hiddenNames(in: folder.path + "/missing").isEmpty)
        #expect(POSIXIO.hiddenNames(in: folder.path + "/b").isEmpty)
    }
}
