extension String {
    /// Calls a parser over raw bytes with this text's UTF-8, passing its typed error on.
    ///
    /// The `init(parsing: String)` initializers of the model types read text through their
    /// byte parsers with this.
    func parsingUTF8<T, E: Error>(_ parse: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        var text = self
        let result = text.withUTF8 { utf8 -> Result<T, E> in
            do throws(E) {
                return .success(try parse(UnsafeRawBufferPointer(utf8)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
