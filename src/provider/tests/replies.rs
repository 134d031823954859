use super::*;
use crate::model::Usage;

fn parse(kind: ProviderKind, status: u16, body: &str) -> Result<ModelReply, CallError> {
    parse_reply(&default_config(kind), &reply(status, body))
}

fn parse_fixture(kind: ProviderKind, path: &str) -> Result<ModelReply, CallError> {
    parse(kind, 200, &fixture(path))
}

fn usage(input_tokens: u64, output_tokens: u64) -> Usage {
    Usage {
        input_tokens,
        output_tokens,
        cached_input_tokens: 0,
    }
}

fn cached(input_tokens: u64, output_tokens: u64, cached_input_tokens: u64) -> Usage {
    Usage {
        input_tokens,
        output_tokens,
        cached_input_tokens,
    }
}

#[test]
fn openai_success_gives_text_and_usage() {
    let reply = parse_fixture(ProviderKind::Openai, "openai/success.json").unwrap();
    assert!(reply.text.ends_with("```click [12]```"), "{}", reply.text);
    assert_eq!(reply.usage, usage(1834, 27));
}

#[test]
fn openai_content_as_parts_is_joined_and_missing_usage_is_zero() {
    let reply = parse_fixture(ProviderKind::Openai, "openai/content_parts.json").unwrap();
    assert_eq!(reply.text, "stop [Paris]");
    assert_eq!(reply.usage, usage(0, 0));
}

#[test]
fn openai_empty_choices_and_length_stop_are_empty_errors_saying_why() {
    let err = parse_fixture(ProviderKind::Openai, "openai/empty_choices.json").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Empty);
    assert_eq!(err.message, "the reply has no choices");
    let err = parse_fixture(ProviderKind::Openai, "openai/length_no_text.json").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Empty);
    assert!(err.message.contains("max tokens"), "{}", err.message);
}

#[test]
fn openai_error_object_in_a_200_reply_keeps_its_status_meaning() {
    let err = parse_fixture(ProviderKind::Openai, "openai/error_in_200.json").unwrap_err();
    assert_eq!(err.kind, ErrorKind::RateLimited);
    assert!(err.message.contains("free-models-per-min"));
}

#[test]
fn anthropic_success_gives_text_and_usage() {
    let reply = parse_fixture(ProviderKind::Anthropic, "anthropic/success.json").unwrap();
    assert_eq!(reply.text, "The answer is on the page. ```stop [1889]```");
    assert_eq!(reply.usage, usage(2048, 19));
}

#[test]
fn anthropic_thinking_is_skipped_and_cached_input_counted() {
    let reply =
        parse_fixture(ProviderKind::Anthropic, "anthropic/thinking_then_text.json").unwrap();
    assert_eq!(reply.text, "```goto [http://127.0.0.1:8001/flights]```");
    // input_tokens (300) leaves out the cache write (100) and the cache read (1200):
    // the input is the whole prompt, of which the read part came from the cache.
    assert_eq!(reply.usage, cached(300 + 100 + 1200, 40, 1200));
}

#[test]
fn openai_cached_prompt_tokens_are_part_of_the_input() {
    let reply = parse_fixture(ProviderKind::Openai, "openai/success_cached.json").unwrap();
    assert_eq!(reply.text, "```go_back```");
    assert_eq!(reply.usage, cached(2306, 6, 1920));
}

#[test]
fn llama_server_cache_hits_are_read_from_usage_or_from_timings() {
    let current =
        parse_fixture(ProviderKind::Openai, "openai/llamacpp_success_cached.json").unwrap();
    assert!(current.text.ends_with("```type [21] [tokyo tower] [1]```"));
    assert_eq!(current.usage, cached(2210, 31, 1984));
    // Builds whose usage has no prompt_tokens_details say it only in timings.cache_n.
    let older = parse_fixture(
        ProviderKind::Openai,
        "openai/llamacpp_success_timings_only.json",
    )
    .unwrap();
    assert_eq!(older.usage, cached(1530, 7, 1402));
}

#[test]
fn gemini_cached_content_is_part_of_the_prompt_count() {
    let reply = parse_fixture(ProviderKind::Gemini, "gemini/success_cached.json").unwrap();
    assert_eq!(reply.text, "```click [44]```");
    assert_eq!(reply.usage, cached(4210, 9 + 41, 3904));
}

#[test]
fn a_cache_count_larger_than_the_prompt_is_capped_at_the_prompt() {
    let body = r#"{"choices": [{"message": {"content": "```go_back```"}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 2, "prompt_tokens_details": {"cached_tokens": 50}}}"#;
    let reply = parse(ProviderKind::Openai, 200, body).unwrap();
    assert_eq!(reply.usage, cached(10, 2, 10));
}

#[test]
fn anthropic_no_content_at_max_tokens_is_empty() {
    let err =
        parse_fixture(ProviderKind::Anthropic, "anthropic/max_tokens_empty.json").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Empty);
    assert!(err.message.contains("stop_reason: max_tokens"));
}

#[test]
fn gemini_success_joins_parts_and_reads_usage_metadata() {
    let reply = parse_fixture(ProviderKind::Gemini, "gemini/success.json").unwrap();
    assert_eq!(
        reply.text,
        "I need to open the second result. ```click [31]```"
    );
    assert_eq!(reply.usage, usage(1520, 22));
}

#[test]
fn gemini_thoughts_are_not_text_but_count_as_output() {
    let reply = parse_fixture(ProviderKind::Gemini, "gemini/thoughts.json").unwrap();
    assert_eq!(reply.text, "```scroll [down]```");
    assert_eq!(reply.usage, usage(700, 128));
}

#[test]
fn gemini_blocked_prompt_and_thinking_budget_are_empty_errors() {
    let err = parse_fixture(ProviderKind::Gemini, "gemini/blocked.json").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Empty);
    assert_eq!(err.message, "the prompt was blocked (blockReason: SAFETY)");
    let err = parse_fixture(ProviderKind::Gemini, "gemini/max_tokens_empty.json").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Empty);
    assert!(err.message.contains("MAX_TOKENS"));
}

#[test]
fn malformed_json_is_its_own_error_for_every_api() {
    for kind in [
        ProviderKind::Openai,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ] {
        for body in [
            "{\"choices\": [",
            "<html><body>Welcome to nginx!</body></html>",
            "",
        ] {
            let err = parse(kind, 200, body).unwrap_err();
            assert_eq!(err.kind, ErrorKind::Malformed, "{kind:?} {body:?}");
            assert!(
                err.message.starts_with("the reply is not"),
                "{}",
                err.message
            );
        }
    }
}

#[test]
fn a_reply_of_another_api_is_malformed_never_a_success() {
    let bodies = [
        (ProviderKind::Openai, "openai/success.json"),
        (ProviderKind::Anthropic, "anthropic/success.json"),
        (ProviderKind::Gemini, "gemini/success.json"),
    ];
    for (kind, _) in bodies {
        for (other, path) in bodies.iter().filter(|(k, _)| *k != kind) {
            let err = parse(kind, 200, &fixture(path)).unwrap_err();
            assert_eq!(
                err.kind,
                ErrorKind::Malformed,
                "{other:?} reply read as {kind:?}"
            );
        }
    }
}

#[test]
fn empty_and_malformed_are_final_not_retried() {
    let policy = RetryPolicy::default();
    for err in [
        parse(ProviderKind::Openai, 200, "nope").unwrap_err(),
        parse_fixture(ProviderKind::Openai, "openai/empty_choices.json").unwrap_err(),
    ] {
        assert_eq!(retry_delay(&policy, 1, &err), None, "{err:?}");
    }
}
