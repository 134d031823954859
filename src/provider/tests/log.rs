use super::*;
use crate::model::Usage;

fn ok_reply() -> ModelReply {
    ModelReply {
        text: "done".to_string(),
        usage: Usage {
            input_tokens: 3,
            output_tokens: 1,
            cached_input_tokens: 2,
        },
        reasoning: None,
    }
}

#[test]
fn two_transient_failures_then_success_are_all_recorded() {
    let mut log = CallLog::new(RetryPolicy::with_max_tries(4));
    let mut limited = CallError::new(ErrorKind::RateLimited, "HTTP 429");
    limited.retry_after_ms = Some(2_000);
    assert_eq!(log.failed(&limited), Some(2_000));
    assert_eq!(
        log.failed(&CallError::new(ErrorKind::Server, "HTTP 500")),
        Some(2_000)
    );
    let outcome = log.succeeded(ok_reply());
    assert!(outcome.ok);
    assert_eq!(outcome.reply, Some(ok_reply()));
    let kinds: Vec<_> = outcome
        .attempts
        .iter()
        .map(|a| (a.kind, a.delay_ms))
        .collect();
    assert_eq!(
        kinds,
        [
            (ErrorKind::RateLimited, Some(2_000)),
            (ErrorKind::Server, Some(2_000))
        ]
    );
}

#[test]
fn exhausted_tries_say_how_many_in_the_final_message() {
    let mut log = CallLog::new(RetryPolicy::with_max_tries(3));
    let timeout = CallError::new(ErrorKind::Timeout, "no reply within 1 s");
    assert!(log.failed(&timeout).is_some());
    assert!(log.failed(&timeout).is_some());
    assert_eq!(log.failed(&timeout), None);
    let outcome = log.gave_up(timeout, "raise the timeout".to_string());
    assert!(!outcome.ok);
    let error = outcome.error.unwrap();
    assert_eq!(error.kind, ErrorKind::Timeout);
    assert_eq!(error.message, "no reply within 1 s (gave up after 3 tries)");
    assert_eq!(error.hint, "raise the timeout");
    assert_eq!(outcome.attempts.len(), 3);
    assert_eq!(outcome.attempts[2].delay_ms, None);
}

#[test]
fn a_final_error_on_the_first_try_is_one_attempt_without_count() {
    let mut log = CallLog::new(RetryPolicy::default());
    let auth = CallError::new(ErrorKind::Auth, "HTTP 401");
    assert_eq!(log.failed(&auth), None);
    let outcome = log.gave_up(auth, "check the key".to_string());
    assert_eq!(outcome.error.unwrap().message, "HTTP 401");
    assert_eq!(outcome.attempts.len(), 1);
}

#[test]
fn cancellation_is_never_retried() {
    let mut log = CallLog::new(RetryPolicy::default());
    assert_eq!(
        log.failed(&CallError::new(ErrorKind::Cancelled, "stopped")),
        None
    );
}

#[test]
fn outcome_serialises_to_the_documented_shape() {
    let outcome = CallOutcome::failed_before_sending(
        CallError::config("no model name is set"),
        "fix it".to_string(),
    );
    let json = serde_json::to_value(&outcome).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "ok": false,
            "error": {"kind": "config", "message": "no model name is set", "hint": "fix it"},
            "attempts": [{"kind": "config", "message": "no model name is set", "delay_ms": null}],
        })
    );
    let ok =
        serde_json::to_value(CallLog::new(RetryPolicy::default()).succeeded(ok_reply())).unwrap();
    assert_eq!(
        ok,
        serde_json::json!({
            "ok": true,
            "reply": {"text": "done", "usage": {"input_tokens": 3, "output_tokens": 1, "cached_input_tokens": 2}},
            "attempts": [],
        })
    );
}

#[test]
fn a_usage_stored_before_cached_tokens_were_counted_still_loads() {
    let old: Usage =
        serde_json::from_str(r#"{"input_tokens": 1200, "output_tokens": 30}"#).unwrap();
    assert_eq!(
        old,
        Usage {
            input_tokens: 1200,
            output_tokens: 30,
            cached_input_tokens: 0,
        }
    );
}

#[test]
fn a_context_overflow_keeps_its_sizes_in_the_final_message() {
    let cfg = config(ProviderKind::Openai, "http://127.0.0.1:8080/v1");
    let err = parse_reply(
        &cfg,
        &reply(400, &fixture("openai/llamacpp_400_context.json")),
    )
    .unwrap_err();
    let mut log = CallLog::new(RetryPolicy::default());
    assert_eq!(log.failed(&err), None, "an overflow is not tried again");
    let outcome = log.gave_up(err.clone(), hint(&err, &cfg, ""));
    let error = outcome.error.unwrap();
    assert_eq!(error.kind, ErrorKind::ContextOverflow);
    assert!(
        error
            .message
            .ends_with("The prompt is 2480 tokens; the model's context holds 1024."),
        "{}",
        error.message
    );
    assert_eq!(outcome.attempts.len(), 1);
}
