extension IBAN {
    /// The print form: groups of four characters, such as `DE89 3704 0044 0532 0130 00`.
    package var grouped: String {
        withBytes { bytes in
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count + bytes.count / 4)
            for index in bytes.indices {
                if index > 0 && index % 4 == 0 { text.append(UInt8(ascii: " ")) }
                text.append(bytes[index])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
