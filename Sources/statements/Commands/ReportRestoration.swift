import StatementKit

/// What `process` finds of the report files it wrote before: the months with a file missing
/// or changed by hand, to be written again whether or not the import changed them.
struct ReportRestoration {
    /// The record of the files written, with the stamps refreshed of files whose times moved
    /// but whose bytes did not.
    let record: ReportFileRecord
    /// Whether the record has refreshed stamps worth saving.
    let isRefreshed: Bool
    /// The months with a file missing or changed; `nil` when the folder has no record (an
    /// output folder of an earlier release, or one `process` never wrote: every month).
    private let damaged: Set<Month>?

    /// Compares the output folder with its record.
    ///
    /// - Complexity: one `stat` per recorded file, and a read of each file whose times
    ///   moved without its size.
    init(_ controller: ReportController) {
        guard let record = controller.fileRecord() else {
            (self.record, isRefreshed, damaged) = (ReportFileRecord(), false, nil)
            return
        }
        let check = record.check(folder: controller.folder)
        (self.record, isRefreshed, damaged) = (check.refreshed, check.isRefreshed, check.damaged)
    }

    /// The months with a report file missing or changed since `process` wrote it.
    var damagedMonths: Set<Month> { damaged ?? [] }

    /// The months whose reports must be written again.
    func months(_ state: StateController) throws(StorageError) -> Set<Month> {
        if let damaged { return damaged }
        return try state.allMonths()
    }
}
