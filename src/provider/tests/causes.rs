//! Errors whose words name their cause, read from real servers' replies (sources in
//! `tests/provider_replies/README.md`): the kind, the sizes, the message, no retry.

use super::*;

fn error_for(provider: ProviderKind, base: &str, status: u16, path: &str) -> CallError {
    parse_reply(&config(provider, base), &reply(status, &fixture(path))).unwrap_err()
}

const LLAMA_SERVER: &str = "http://127.0.0.1:8080/v1";

#[test]
fn images_a_text_only_model_cannot_take_are_unsupported_input_whatever_the_status() {
    for (base, status, path) in [
        (LLAMA_SERVER, 500, "openai/llamacpp_500_image.json"),
        ("", 400, "openai/openai_400_image.json"),
        ("http://10.0.0.5:8000/v1", 400, "openai/vllm_400_image.json"),
        (
            "http://localhost:11434/v1",
            500,
            "openai/ollama_500_image.json",
        ),
        (
            "http://localhost:1234/v1",
            400,
            "openai/lmstudio_400_image.json",
        ),
        (
            "https://openrouter.ai/api/v1",
            404,
            "openai/openrouter_404_image.json",
        ),
    ] {
        let err = error_for(ProviderKind::Openai, base, status, path);
        assert_eq!(
            err.kind,
            ErrorKind::UnsupportedInput,
            "{path}: {}",
            err.message
        );
        assert!(!err.kind.is_transient(), "{path}");
        assert!(err.kind.ends_run(), "{path}");
        assert_eq!(err.retry_after_ms, None, "{path}");
    }
}

#[test]
fn llama_servers_500_for_an_image_is_not_retried_and_says_its_words() {
    let err = error_for(
        ProviderKind::Openai,
        LLAMA_SERVER,
        500,
        "openai/llamacpp_500_image.json",
    );
    assert_eq!(
        err.message,
        "OpenAI-compatible server answered HTTP 500 for http://127.0.0.1:8080/v1/chat/completions: \
         image input is not supported - hint: if this is unexpected, you may need to provide the mmproj"
    );
    assert_eq!(retry_delay(&RetryPolicy::default(), 1, &err), None);
}

#[test]
fn context_overflows_of_every_server_carry_the_sizes_they_state() {
    let openai = ProviderKind::Openai;
    for (provider, base, path, prompt, context) in [
        (
            openai,
            LLAMA_SERVER,
            "openai/llamacpp_400_context.json",
            Some(2480),
            Some(1024),
        ),
        (
            openai,
            "",
            "openai/openai_400_context.json",
            Some(131_072),
            Some(128_000),
        ),
        (
            openai,
            "http://10.0.0.5:8000/v1",
            "openai/vllm_400.json",
            Some(8800),
            Some(8192),
        ),
        (
            openai,
            "http://10.0.0.5:8000/v1",
            "openai/vllm_400_context_input.json",
            Some(40_000),
            Some(32_768),
        ),
        (
            openai,
            "http://10.0.0.5:8000/v1",
            "openai/vllm_400_max_tokens.json",
            Some(3900),
            Some(4096),
        ),
        (
            openai,
            "http://10.0.0.5:8000/v1",
            "openai/vllm_400_context_total.json",
            Some(10_000),
            Some(8192),
        ),
        (
            openai,
            "http://10.0.0.5:8000/v1",
            "openai/vllm_400_context_passed.json",
            Some(9000),
            Some(8192),
        ),
        (
            openai,
            "http://localhost:1234/v1",
            "openai/lmstudio_400_context.json",
            None,
            Some(7866),
        ),
        (
            ProviderKind::Anthropic,
            "",
            "anthropic/error_400_too_long.json",
            Some(208_310),
            Some(200_000),
        ),
        (
            ProviderKind::Gemini,
            "",
            "gemini/error_400_too_long.json",
            Some(1_200_293),
            Some(1_048_576),
        ),
    ] {
        let err = error_for(provider, base, 400, path);
        assert_eq!(
            err.kind,
            ErrorKind::ContextOverflow,
            "{path}: {}",
            err.message
        );
        assert_eq!(
            (err.prompt_tokens, err.context_tokens),
            (prompt, context),
            "{path}"
        );
        assert!(!err.kind.is_transient(), "{path}");
        assert!(err.kind.ends_run(), "{path}");
    }
}

#[test]
fn the_message_says_the_sizes_in_one_wording_for_all_servers() {
    let llama = error_for(
        ProviderKind::Openai,
        LLAMA_SERVER,
        400,
        "openai/llamacpp_400_context.json",
    );
    assert_eq!(
        llama.message,
        "OpenAI-compatible server answered HTTP 400 for http://127.0.0.1:8080/v1/chat/completions: \
         request (2480 tokens) exceeds the available context size (1024 tokens), try increasing it. \
         The prompt is 2480 tokens; the model's context holds 1024."
    );
    // The prompt fits, the reply's allowance does not: said so, not as a contradiction.
    let vllm = error_for(
        ProviderKind::Openai,
        "http://10.0.0.5:8000/v1",
        400,
        "openai/vllm_400_max_tokens.json",
    );
    assert!(
        vllm.message
            .contains("(300 > 4096 - 3900). The prompt is 3900 tokens"),
        "{}",
        vllm.message
    );
    assert!(
        vllm.message.ends_with(
            "The prompt is 3900 tokens and the model's context holds 4096, which leaves too \
             little room for the reply (max tokens)."
        ),
        "{}",
        vllm.message
    );
    let lm_studio = error_for(
        ProviderKind::Openai,
        "http://localhost:1234/v1",
        400,
        "openai/lmstudio_400_context.json",
    );
    assert!(
        lm_studio
            .message
            .ends_with("The model's context holds 7866 tokens."),
        "{}",
        lm_studio.message
    );
}

#[test]
fn sizes_are_serialised_only_when_known() {
    let llama = error_for(
        ProviderKind::Openai,
        LLAMA_SERVER,
        400,
        "openai/llamacpp_400_context.json",
    );
    let json = serde_json::to_value(&llama).unwrap();
    assert_eq!(json["kind"], "context_overflow");
    assert_eq!(
        (
            json["prompt_tokens"].as_u64(),
            json["context_tokens"].as_u64()
        ),
        (Some(2480), Some(1024))
    );
    let plain = serde_json::to_value(CallError::new(ErrorKind::BadRequest, "x")).unwrap();
    assert_eq!(
        plain,
        serde_json::json!({"kind": "bad_request", "message": "x"})
    );
}

#[test]
fn the_overflow_code_alone_is_enough() {
    // OpenAI's newer wording for the same code names no sizes.
    let body = r#"{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}"#;
    let err = parse_reply(&default_config(ProviderKind::Openai), &reply(400, body)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::ContextOverflow);
    assert_eq!((err.prompt_tokens, err.context_tokens), (None, None));
    assert!(
        err.message
            .ends_with("Please adjust your input and try again."),
        "{}",
        err.message
    );
}

#[test]
fn an_overflow_reported_inside_a_200_reply_is_still_an_overflow() {
    let body = r#"{"error": {"message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens. Please reduce the length of the messages.", "code": 400}}"#;
    let err = parse_reply(&default_config(ProviderKind::Openai), &reply(200, body)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::ContextOverflow);
    assert_eq!(
        (err.prompt_tokens, err.context_tokens),
        (Some(9001), Some(8192))
    );
    assert!(err
        .message
        .starts_with("the server reported an error: This model's"));
}

#[test]
fn words_elsewhere_in_a_body_name_no_cause() {
    // A server that echoes the request must not be read by the page's words: only the
    // error's own message counts.
    let body = r#"{"detail": [{"loc": ["body", "messages"], "msg": "field required", "input": {"text": "image input is not supported"}}]}"#;
    let err = parse_reply(&default_config(ProviderKind::Openai), &reply(422, body)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::BadRequest, "{}", err.message);
    // And plain failures keep their status's kind.
    let err = parse_reply(
        &config(ProviderKind::Openai, LLAMA_SERVER),
        &reply(
            500,
            r#"{"error":{"code":500,"message":"failed to decode batch","type":"server_error"}}"#,
        ),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Server);
    assert!(err.kind.is_transient());
}
