import Foundation

extension Day {
    /// The calendar of the formatters: Gregorian in UTC, so that a day never shifts.
    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The day at midnight UTC, for Foundation's formatters only.
    var utcDate: Date {
        Day.utcCalendar.date(from: DateComponents(year: year, month: month, day: day))!
    }
}

/// Formats days and months the way a locale writes them: `Oct 3, 2026` and `October 2026` in
/// en_US, `03.10.2026` in de_DE.
package struct DayFormatter: @unchecked Sendable {
    // DateFormatter is thread-safe for formatting once configured; it is never mutated after init.
    private let medium: DateFormatter
    private let monthYear: DateFormatter
    /// The texts made so far: thousands of statements share a few months and their days.
    private let mediumTexts: Memo<Day, String>
    private let monthYearTexts: Memo<Month, String>

    /// Creates the formatters of a locale.
    package init(locale: Locale) {
        func formatter(_ configure: (DateFormatter) -> Void) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.calendar = Day.utcCalendar
            formatter.timeZone = Day.utcCalendar.timeZone
            configure(formatter)
            return formatter
        }
        medium = formatter {
            $0.dateStyle = .medium
            $0.timeStyle = .none
        }
        monthYear = formatter {
            $0.setLocalizedDateFormatFromTemplate("MMMMy")
        }
        let (medium, monthYear) = (medium, monthYear)
        mediumTexts = Memo { medium.string(from: $0.utcDate) }
        monthYearTexts = Memo {
            monthYear.string(from: (try! Day(year: $0.year, month: $0.month, day: 1)).utcDate)
        }
    }

    /// The locale's medium date, such as `Oct 3, 2026`.
    package func medium(_ day: Day) -> String {
        mediumTexts[day]
    }

    /// The medium text of every day of a month, indexed by day - 1: one formatter call per day,
    /// not per transaction.
    package func mediumDays(of month: Month) -> [String] {
        (1...Day.daysIn(month: month.month, year: month.year)).map {
            medium(try! Day(year: month.year, month: month.month, day: $0))
        }
    }

    /// The month and year, such as `October 2026`.
    package func monthAndYear(_ month: Month) -> String {
        monthYearTexts[month]
    }
}

/// What a statement renderer needs to write a locale's amounts and dates, made once per
/// renderer: the date formatters and the learned currency formats.
struct LocaleFormatting: Sendable {
    let locale: Locale
    let days: DayFormatter
    private let moneyFormats: MoneyFormatCache
    /// The texts of each month's days, as thousands of statements share a few months.
    private let monthDays: Memo<Month, [String]>

    init(locale: Locale) {
        self.locale = locale
        let days = DayFormatter(locale: locale)
        self.days = days
        moneyFormats = MoneyFormatCache(locale: locale)
        monthDays = Memo { days.mediumDays(of: $0) }
    }

    /// The currency format of the statement's account and the texts of its month's days.
    func formats(for statement: MonthlyStatement) -> (money: MoneyFormat, days: [String]) {
        (moneyFormats.format(for: statement.account.currency), monthDays[statement.month])
    }
}
