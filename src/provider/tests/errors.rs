use super::*;

fn error_for(cfg: &ProviderConfig, status: u16, body: &str) -> CallError {
    parse_reply(cfg, &reply(status, body)).unwrap_err()
}

#[test]
fn statuses_map_to_kinds_for_a_remote_service() {
    let cfg = default_config(ProviderKind::Openai);
    for (status, kind) in [
        (400, ErrorKind::BadRequest),
        (401, ErrorKind::Auth),
        (403, ErrorKind::Auth),
        (404, ErrorKind::NotFound),
        (408, ErrorKind::Timeout),
        (413, ErrorKind::BadRequest),
        (422, ErrorKind::BadRequest),
        (429, ErrorKind::RateLimited),
        (500, ErrorKind::Server),
        (502, ErrorKind::Server),
        (503, ErrorKind::Server),
        (529, ErrorKind::Server),
    ] {
        assert_eq!(error_for(&cfg, status, "").kind, kind, "HTTP {status}");
    }
}

#[test]
fn message_names_provider_status_url_and_the_servers_words() {
    let cfg = default_config(ProviderKind::Anthropic);
    let err = error_for(&cfg, 401, &fixture("anthropic/error_401.json"));
    assert_eq!(
        err.message,
        "Anthropic answered HTTP 401 for https://api.anthropic.com/v1/messages: invalid x-api-key"
    );
    let err = error_for(&cfg, 529, &fixture("anthropic/error_529.json"));
    assert_eq!(err.kind, ErrorKind::Server);
    assert!(err.message.ends_with(": Overloaded"));
}

#[test]
fn error_bodies_of_compatible_servers_are_read() {
    let cfg = config(ProviderKind::Openai, "http://localhost:11434/v1");
    let err = error_for(&cfg, 404, &fixture("openai/ollama_404.json"));
    assert_eq!(err.kind, ErrorKind::NotFound);
    assert!(err
        .message
        .ends_with("/v1/chat/completions: model \"llava:13b\" not found, try pulling it first"));
    let err = error_for(&cfg, 400, &fixture("openai/vllm_400.json"));
    assert!(err
        .message
        .contains("maximum context length is 8192 tokens"));
    // A page of HTML becomes one shortened line, not a wall of markup.
    let html = format!("<html>\n<body>{}</body></html>", "x".repeat(2000));
    let err = error_for(&cfg, 502, &html);
    assert!(err.message.chars().count() < 450, "{}", err.message);
    assert!(!err.message.contains('\n'));
}

#[test]
fn gemini_invalid_key_is_auth_even_as_400() {
    let cfg = default_config(ProviderKind::Gemini);
    let err = error_for(&cfg, 400, &fixture("gemini/error_400_key.json"));
    assert_eq!(err.kind, ErrorKind::Auth);
    assert!(err.message.contains("API key not valid"));
    assert!(err.message.contains("API_KEY_INVALID"));
    let err = error_for(&cfg, 404, &fixture("gemini/error_404.json"));
    assert_eq!(err.kind, ErrorKind::NotFound);
    assert!(err
        .message
        .contains("models/gemini-2.5-flash:generateContent"));
    let err = error_for(&cfg, 429, &fixture("gemini/error_429.json"));
    assert_eq!(err.kind, ErrorKind::RateLimited);
    assert!(err.message.contains("Resource has been exhausted"));
}

#[test]
fn a_403_from_a_local_server_is_an_origin_rejection() {
    for base in [
        "http://localhost:11434/v1",
        "http://127.0.0.1:1234/v1",
        "http://192.168.1.20:8000/v1",
        "http://[::1]:8080/v1",
    ] {
        let cfg = config(ProviderKind::Openai, base);
        assert_eq!(
            error_for(&cfg, 403, "").kind,
            ErrorKind::OriginRejected,
            "{base}"
        );
    }
    let remote = default_config(ProviderKind::Openai);
    let err = error_for(
        &remote,
        403,
        r#"{"error":{"message":"CORS origin not allowed"}}"#,
    );
    assert_eq!(err.kind, ErrorKind::OriginRejected);
}

#[test]
fn retry_after_is_read_from_rate_limit_and_server_errors() {
    let cfg = default_config(ProviderKind::Openai);
    let mut r = reply(429, &fixture("openai/error_429_quota.json"));
    r.retry_after = Some("7".to_string());
    assert_eq!(
        parse_reply(&cfg, &r).unwrap_err().retry_after_ms,
        Some(7_000)
    );
    r.status = 503;
    r.retry_after = Some("Wed, 21 Oct 2015 07:28:00 GMT".to_string());
    r.now_ms = 1_445_412_470_000; // 10 s before that date
    assert_eq!(
        parse_reply(&cfg, &r).unwrap_err().retry_after_ms,
        Some(10_000)
    );
    // Retry-After on a final error means nothing.
    r.status = 400;
    assert_eq!(parse_reply(&cfg, &r).unwrap_err().retry_after_ms, None);
}

#[test]
fn the_key_is_scrubbed_from_anything_a_server_echoes() {
    let cfg = default_config(ProviderKind::Openai);
    let body = format!(r#"{{"error": {{"message": "key {KEY} is not allowed"}}}}"#);
    for status in [200, 401, 500] {
        let err = error_for(&cfg, status, &body);
        assert!(!err.message.contains(KEY), "{}", err.message);
        assert!(
            err.message.contains("key [API key] is not allowed"),
            "{}",
            err.message
        );
    }
}

#[test]
fn only_failures_of_the_settings_or_the_server_end_a_run() {
    use crate::provider::ErrorKind::*;
    let ending: Vec<_> = [
        RateLimited,
        Server,
        Timeout,
        Network,
        Auth,
        NotFound,
        BadRequest,
        UnsupportedInput,
        ContextOverflow,
        OriginRejected,
        Malformed,
        Empty,
        Cancelled,
        Config,
    ]
    .into_iter()
    .filter(|k| k.ends_run())
    .collect();
    assert_eq!(
        ending,
        [
            Network,
            Auth,
            NotFound,
            UnsupportedInput,
            ContextOverflow,
            OriginRejected,
            Config
        ]
    );
}

#[test]
fn kinds_are_found_by_their_json_name() {
    use crate::provider::ErrorKind;
    assert_eq!(
        ErrorKind::from_name("rate_limited"),
        Some(ErrorKind::RateLimited)
    );
    assert_eq!(
        ErrorKind::from_name("origin_rejected"),
        Some(ErrorKind::OriginRejected)
    );
    assert_eq!(
        ErrorKind::from_name("unsupported_input"),
        Some(ErrorKind::UnsupportedInput)
    );
    assert_eq!(
        ErrorKind::from_name("context_overflow"),
        Some(ErrorKind::ContextOverflow)
    );
    assert_eq!(ErrorKind::from_name("RateLimited"), None);
    assert_eq!(ErrorKind::from_name(""), None);
}
