//! Calendar dates as typed into the sites' date fields (`YYYY-MM-DD`): parsing, day
//! arithmetic for nights and rental days, and a readable form. No clock is read: the
//! sandbox must answer the same bytes on every day it runs.

/// A valid calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

impl Date {
    pub fn parse(s: &str) -> Option<Date> {
        let mut parts = s.trim().splitn(3, '-');
        let year: i32 = parts.next()?.parse().ok()?;
        let month: u32 = parts.next()?.parse().ok()?;
        let day: u32 = parts.next()?.parse().ok()?;
        let date = Date { year, month, day };
        ((1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)).then_some(date)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    pub fn days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// `Sat 5 Dec 2026`.
    pub fn pretty(self) -> String {
        let weekday = WEEKDAYS[(self.days() + 3).rem_euclid(7) as usize];
        let month = MONTHS[(self.month - 1) as usize];
        format!("{weekday} {} {month} {}", self.day, self.year)
    }

    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Whole days from `a` to `b` (nights of a stay, days of a rental); `None` unless
/// both parse and `b` is after `a`.
pub fn span(a: Option<&str>, b: Option<&str>) -> Option<i64> {
    let (a, b) = (Date::parse(a?)?, Date::parse(b?)?);
    let n = b.days() - a.days();
    (n > 0).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_counts_days() {
        assert_eq!(Date::parse("1970-01-01").map(Date::days), Some(0));
        assert_eq!(span(Some("2026-12-01"), Some("2026-12-04")), Some(3));
        assert_eq!(span(Some("2027-02-27"), Some("2027-03-01")), Some(2));
        assert_eq!(span(Some("2026-12-04"), Some("2026-12-01")), None);
        assert_eq!(Date::parse("2026-02-30"), None);
        assert_eq!(
            Date::parse("2026-12-05").map(Date::pretty).as_deref(),
            Some("Sat 5 Dec 2026")
        );
    }
}
