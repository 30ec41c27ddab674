extension IBAN {
    /// The print form: groups of four characters, such as `DE89 3704 0044 0532 0130 00`.
    package var grouped: String {
        var out = ""
        for (index, character) in electronic.enumerated() {
            if index > 0 && index % 4 == 0 { out.append(" ") }
            out.append(character)
        }
        return out
    }
}
