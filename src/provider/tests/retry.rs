use super::*;

fn transient(kind: ErrorKind) -> CallError {
    CallError::new(kind, "x")
}

#[test]
fn backoff_doubles_from_the_base_and_is_capped() {
    let policy = RetryPolicy {
        max_tries: 10,
        base_delay_ms: 1_000,
        max_delay_ms: 5_000,
        max_retry_after_ms: 60_000,
    };
    let err = transient(ErrorKind::Server);
    let delays: Vec<Option<u64>> = (1..=5).map(|a| retry_delay(&policy, a, &err)).collect();
    assert_eq!(
        delays,
        [
            Some(1_000),
            Some(2_000),
            Some(4_000),
            Some(5_000),
            Some(5_000)
        ]
    );
}

#[test]
fn only_429_5xx_timeouts_and_network_errors_are_retried() {
    let policy = RetryPolicy::default();
    for kind in [
        ErrorKind::RateLimited,
        ErrorKind::Server,
        ErrorKind::Timeout,
        ErrorKind::Network,
    ] {
        assert!(
            retry_delay(&policy, 1, &transient(kind)).is_some(),
            "{kind:?}"
        );
    }
    for kind in [
        ErrorKind::Auth,
        ErrorKind::NotFound,
        ErrorKind::BadRequest,
        ErrorKind::UnsupportedInput,
        ErrorKind::ContextOverflow,
        ErrorKind::OriginRejected,
        ErrorKind::Malformed,
        ErrorKind::Empty,
        ErrorKind::Cancelled,
        ErrorKind::Config,
    ] {
        assert_eq!(retry_delay(&policy, 1, &transient(kind)), None, "{kind:?}");
    }
}

#[test]
fn tries_are_bounded_by_max_tries() {
    let policy = RetryPolicy::with_max_tries(3);
    let err = transient(ErrorKind::Timeout);
    assert!(retry_delay(&policy, 1, &err).is_some());
    assert!(retry_delay(&policy, 2, &err).is_some());
    assert_eq!(retry_delay(&policy, 3, &err), None);
    assert_eq!(RetryPolicy::with_max_tries(0).max_tries, 1);
}

#[test]
fn retry_after_replaces_the_backoff_unless_it_is_too_long() {
    let policy = RetryPolicy::default();
    let mut err = transient(ErrorKind::RateLimited);
    err.retry_after_ms = Some(2_500);
    assert_eq!(retry_delay(&policy, 3, &err), Some(2_500));
    err.retry_after_ms = Some(0);
    assert_eq!(retry_delay(&policy, 1, &err), Some(0));
    err.retry_after_ms = Some(policy.max_retry_after_ms + 1);
    assert_eq!(retry_delay(&policy, 1, &err), None);
}

#[test]
fn retry_after_seconds_and_the_three_date_forms() {
    let date_ms = 784_111_777_000; // Sun, 06 Nov 1994 08:49:37 GMT
    assert_eq!(parse_retry_after("120", 0), Some(120_000));
    assert_eq!(parse_retry_after(" 1.5 ", 0), Some(1_500));
    assert_eq!(parse_retry_after("2.", 0), Some(2_000));
    assert_eq!(parse_retry_after(".25", 0), Some(250));
    assert_eq!(
        parse_retry_after("0.0015", 0),
        Some(2),
        "the fourth decimal rounds"
    );
    assert_eq!(parse_retry_after("0.0014", 0), Some(1));
    assert_eq!(
        parse_retry_after("99999999999999999999999", 0),
        Some(86_400_000),
        "at most a day, without overflowing"
    );
    for form in [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ] {
        assert_eq!(
            parse_retry_after(form, date_ms - 3_000),
            Some(3_000),
            "{form}"
        );
    }
    // A date already past means go now.
    assert_eq!(
        parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", date_ms + 60_000),
        Some(0)
    );
    for junk in [
        "",
        "-5",
        "soon",
        ".",
        "1.2.3",
        "1e3",
        "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT",
    ] {
        assert_eq!(parse_retry_after(junk, 0), None, "{junk:?}");
    }
}

#[test]
fn a_leap_day_date_is_exact() {
    // 2024-02-29T12:00:00Z = 1709208000 s.
    assert_eq!(
        parse_retry_after("Thu, 29 Feb 2024 12:00:00 GMT", 1_709_208_000_000 - 1_000),
        Some(1_000)
    );
}
