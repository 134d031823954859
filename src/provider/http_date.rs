//! `Retry-After` (RFC 9110 §10.2.3): a number of seconds or an HTTP date. Dates come
//! in three spellings that recipients must all accept (§5.6.7): IMF-fixdate
//! `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and
//! asctime `Sun Nov  6 08:49:37 1994`.

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// The wait in milliseconds, from `now_ms` (Unix ms) for a date; a date in the past
/// means no wait. `None` when the value is neither form.
pub fn parse_retry_after(value: &str, now_ms: u64) -> Option<u64> {
    let value = value.trim();
    if let Some(ms) = parse_seconds(value) {
        return Some(ms);
    }
    let at_ms = parse_http_date(value)?;
    Some(at_ms.saturating_sub(now_ms))
}

/// Whole seconds per the RFC; a fraction is accepted too (some servers send `1.5`).
fn parse_seconds(value: &str) -> Option<u64> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    // Read as whole seconds and a fraction by hand: `f64`'s `FromStr` brings core's
    // float parser and its power tables (~16 KiB) into the wasm for this one header.
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    if fraction.contains('.') || (whole.is_empty() && fraction.is_empty()) {
        return None;
    }
    // Bounded so nothing overflows: a day is more than anyone waits.
    const DAY_MS: u64 = 86_400_000;
    let mut ms: u64 = 0;
    for digit in whole.bytes() {
        ms = (ms * 10 + u64::from(digit - b'0')).min(DAY_MS);
    }
    ms *= 1000;
    // Milliseconds from the first three fraction digits, rounded half up by the fourth.
    let mut scale = 100;
    for (i, digit) in fraction.bytes().enumerate() {
        let digit = u64::from(digit - b'0');
        if i < 3 {
            ms += digit * scale;
            scale /= 10;
        } else {
            ms += u64::from(digit >= 5);
            break;
        }
    }
    Some(ms.min(DAY_MS))
}

/// Unix milliseconds of an HTTP date in any of the three forms.
pub fn parse_http_date(value: &str) -> Option<u64> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let (day, month, year, time) = match words[..] {
        // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        [_, day, month, year, time, "GMT"] => (day, month, year.parse().ok()?, time),
        // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        [_, date, time, "GMT"] => {
            let mut parts = date.split('-');
            let (day, month, yy) = (parts.next()?, parts.next()?, parts.next()?);
            let yy: i64 = yy.parse().ok()?;
            // Two-digit years: RFC 9110 says a year more than 50 years ahead is in
            // the past century; for a Retry-After that means 19xx only above 69.
            let year = if yy < 70 { 2000 + yy } else { 1900 + yy };
            (day, month, year, time)
        }
        // asctime: Sun Nov  6 08:49:37 1994
        [_, month, day, time, year] => (day, month, year.parse().ok()?, time),
        _ => return None,
    };
    let day: i64 = day.parse().ok()?;
    let month = month_number(month)?;
    let mut clock = time.split(':').map(|p| p.parse::<i64>().ok());
    let (h, m, s) = (clock.next()??, clock.next()??, clock.next()??);
    if !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + h * 3600 + m * 60 + s;
    u64::try_from(seconds).ok().map(|s| s * 1000)
}

fn month_number(name: &str) -> Option<i64> {
    let lower = name.to_ascii_lowercase();
    let index = MONTHS.iter().position(|m| *m == lower)?;
    i64::try_from(index).ok().map(|i| i + 1)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm,
/// http://howardhinnant.github.io/date_algorithms.html#days_from_civil).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::parse_retry_after;

    #[test]
    fn seconds_are_read_whole_and_with_a_fraction() {
        let wait = |v: &str| parse_retry_after(v, 0);
        assert_eq!(wait("7"), Some(7_000));
        assert_eq!(wait(" 120 "), Some(120_000));
        assert_eq!(wait("1.5"), Some(1_500));
        assert_eq!(wait(".25"), Some(250));
        assert_eq!(wait("2."), Some(2_000));
        assert_eq!(
            wait("0.0015"),
            Some(2),
            "rounded half up at the fourth digit"
        );
        assert_eq!(wait("0.0014"), Some(1));
        assert_eq!(
            wait("99999999999999999999999"),
            Some(86_400_000),
            "capped at a day"
        );
        for bad in [".", "1.2.3", "-1", "1e3", "soon"] {
            assert_eq!(wait(bad), None, "{bad}");
        }
    }
}
