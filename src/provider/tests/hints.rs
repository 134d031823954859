use super::*;

const ORIGIN: &str = "chrome-extension://jjdaobhejhabnghjfjdkebkafbaccnea";

fn hint_for(cfg: &ProviderConfig, status: u16, body: &str) -> String {
    let err = parse_reply(cfg, &reply(status, body)).unwrap_err();
    hint(&err, cfg, ORIGIN)
}

#[test]
fn bad_key_says_check_the_key() {
    let cfg = default_config(ProviderKind::Openai);
    let text = hint_for(&cfg, 401, &fixture("openai/error_401.json"));
    assert!(
        text.starts_with("Check the API key in the options"),
        "{text}"
    );
    assert!(!text.contains(KEY));
}

#[test]
fn missing_key_on_a_keyless_server_says_enter_one() {
    let mut cfg = config(ProviderKind::Openai, "https://openrouter.ai/api/v1");
    cfg.api_key.clear();
    let text = hint_for(&cfg, 401, "");
    assert!(text.contains("none is saved"), "{text}");
}

#[test]
fn not_found_names_the_url_tried_and_the_model() {
    let cfg = config(ProviderKind::Openai, "http://localhost:8000/v2");
    let err = parse_reply(&cfg, &reply(404, "")).unwrap_err();
    assert!(
        err.message
            .contains("http://localhost:8000/v2/chat/completions"),
        "{}",
        err.message
    );
    let text = hint(&err, &cfg, ORIGIN);
    assert!(
        text.contains("base URL (http://localhost:8000/v2)"),
        "{text}"
    );
    assert!(text.contains("model name (gpt-4o-mini)"), "{text}");
    assert!(text.contains("/v1"), "{text}");
}

#[test]
fn ollama_origin_rejection_says_set_ollama_origins_and_restart() {
    let cfg = config(ProviderKind::Openai, "http://localhost:11434/v1");
    let text = hint_for(&cfg, 403, "");
    assert!(text.contains(&format!("OLLAMA_ORIGINS={ORIGIN}")), "{text}");
    assert!(text.contains("restart Ollama"), "{text}");
    assert!(!text.contains("LM Studio"), "{text}");
}

#[test]
fn lm_studio_origin_rejection_says_enable_cors() {
    let cfg = config(ProviderKind::Openai, "http://127.0.0.1:1234/v1");
    let text = hint_for(&cfg, 403, "");
    assert!(text.contains("\"Enable CORS\""), "{text}");
}

#[test]
fn unknown_local_server_gets_both_and_a_placeholder_without_origin() {
    let cfg = config(ProviderKind::Openai, "http://127.0.0.1:5000/v1");
    let err = parse_reply(&cfg, &reply(403, "")).unwrap_err();
    let text = hint(&err, &cfg, "");
    assert!(
        text.contains("OLLAMA_ORIGINS=chrome-extension://<extension id>"),
        "{text}"
    );
    assert!(text.contains("LM Studio"), "{text}");
}

#[test]
fn quota_exhaustion_is_told_apart_from_a_rate_limit() {
    let cfg = default_config(ProviderKind::Openai);
    let quota = hint_for(&cfg, 429, &fixture("openai/error_429_quota.json"));
    assert!(quota.contains("no quota or credit left"), "{quota}");
    let plain = hint_for(&cfg, 429, r#"{"error":{"message":"Rate limit reached"}}"#);
    assert!(plain.contains("Wait a minute"), "{plain}");
}

#[test]
fn network_errors_to_local_servers_ask_whether_it_runs() {
    let cfg = config(ProviderKind::Openai, "http://localhost:11434/v1");
    let err = CallError::new(ErrorKind::Network, "Failed to fetch");
    assert!(hint(&err, &cfg, ORIGIN).contains("ollama serve"));
    let remote = default_config(ProviderKind::Gemini);
    assert!(hint(&err, &remote, ORIGIN).contains("internet connection"));
}

#[test]
fn every_kind_has_a_hint() {
    let cfg = default_config(ProviderKind::Anthropic);
    for kind in [
        ErrorKind::RateLimited,
        ErrorKind::Server,
        ErrorKind::Timeout,
        ErrorKind::Network,
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
        let text = hint(&CallError::new(kind, "x"), &cfg, ORIGIN);
        assert!(text.len() > 20, "{kind:?}: {text}");
        assert!(!text.contains(KEY));
    }
}

#[test]
fn images_refused_by_llama_server_point_to_the_text_observation_mode_not_to_waiting() {
    let cfg = config(ProviderKind::Openai, "http://127.0.0.1:8080/v1");
    let text = hint_for(&cfg, 500, &fixture("openai/llamacpp_500_image.json"));
    assert!(
        text.contains("Settings → Observation: text") && text.contains("`--observation text`"),
        "{text}"
    );
    assert!(text.contains("--mmproj"), "{text}");
    assert!(!text.to_lowercase().contains("try again later"), "{text}");
    // A 500 that names no cause still suggests waiting.
    let plain = hint_for(
        &cfg,
        500,
        r#"{"error":{"code":500,"message":"failed to decode batch"}}"#,
    );
    assert!(plain.contains("Try again later"), "{plain}");
}

#[test]
fn an_overflow_names_the_sizes_and_what_to_cut() {
    let local = config(ProviderKind::Openai, "http://127.0.0.1:8080/v1");
    let text = hint_for(&local, 400, &fixture("openai/llamacpp_400_context.json"));
    assert!(
        text.starts_with(
            "The prompt (2480 tokens) and the reply's allowance do not fit the model's \
             context (1024 tokens)."
        ),
        "{text}"
    );
    for fix in [
        "max_obs_tokens",
        "`--max-obs-tokens N`",
        "`--observation-format compact`",
        "llama-server `-c N`",
    ] {
        assert!(text.contains(fix), "{fix}: {text}");
    }
    // A hosted model's context cannot be raised: the hint says to pick another model.
    let remote = default_config(ProviderKind::Anthropic);
    let text = hint_for(&remote, 400, &fixture("anthropic/error_400_too_long.json"));
    assert!(
        text.contains("(208310 tokens)") && text.contains("(200000 tokens)"),
        "{text}"
    );
    assert!(text.contains("a model with a longer context"), "{text}");
    assert!(!text.contains("llama-server"), "{text}");
}
