extension AccountID {
    /// The print form: an IBAN in groups of four (`DE89 3704 0044 0532 0130 00`), any other
    /// id as its canonical text (`aba:021000021/123456789`).
    package var grouped: String { iban?.grouped ?? text }
}

extension Account {
    /// What every report and listing calls the account: its name, or, for an account without
    /// one, its id as `grouped` writes it (`DE89 3704 0044 0532 0130 00`).
    package var label: String { name ?? id.grouped }
}
