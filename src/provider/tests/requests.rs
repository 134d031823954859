use super::*;
use serde_json::json;

#[test]
fn openai_request_has_endpoint_bearer_key_and_data_url_image() {
    let req = build_request(&default_config(ProviderKind::Openai), &request()).unwrap();
    assert_eq!(req.url, "https://api.openai.com/v1/chat/completions");
    assert_eq!(
        req.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(req.header("content-type"), Some("application/json"));
    let body = body_json(&req);
    assert_eq!(body["model"], "gpt-4o-mini");
    assert_eq!(body["max_tokens"], 300);
    assert_eq!(body["temperature"], 0.5);
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages[0],
        json!({"role": "system", "content": "You are a web agent."})
    );
    // Text-only turns stay plain strings; the turn with an image becomes parts.
    assert_eq!(
        messages[1],
        json!({"role": "user", "content": "OBSERVATION 1"})
    );
    assert_eq!(
        messages[2],
        json!({"role": "assistant", "content": "```click [3]```"})
    );
    assert_eq!(
        messages[3]["content"],
        json!([
            {"type": "text", "text": "OBSERVATION 2"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG_1X1}")}},
        ])
    );
}

#[test]
fn cache_prompt_goes_only_to_local_servers_that_may_be_llama_server() {
    let asks = |base: &str| {
        let body =
            body_json(&build_request(&config(ProviderKind::Openai, base), &request()).unwrap());
        body.get("cache_prompt").cloned()
    };
    for base in [
        "http://127.0.0.1:8080/v1",
        "http://localhost:8080",
        "http://192.168.1.20:8000/v1",
        "http://gpu-box.local:8080/v1",
    ] {
        assert_eq!(asks(base), Some(json!(true)), "{base}");
    }
    // OpenAI refuses fields it does not know; Ollama and LM Studio do not read it.
    for base in [
        "",
        "https://api.openai.com/v1",
        "https://openrouter.ai/api/v1",
        "https://llama.example.com/v1",
        "http://localhost:11434/v1",
        "http://127.0.0.1:1234/v1",
    ] {
        assert_eq!(asks(base), None, "{base:?}");
    }
}

/// The request's body with the prompt cache set as given.
fn body_with(kind: ProviderKind, base: &str, cache: PromptCache) -> serde_json::Value {
    let mut cfg = config(kind, base);
    cfg.prompt_cache = cache;
    body_json(&build_request(&cfg, &request()).unwrap())
}

#[test]
fn prompt_cache_off_tells_llama_server_not_to_cache_and_on_to_cache() {
    // The request's field overrides llama-server's own default (--no-cache-prompt
    // included), so off is false, not a field left out.
    for base in ["http://127.0.0.1:8080/v1", "http://192.168.1.20:8000/v1"] {
        let on = body_with(ProviderKind::Openai, base, PromptCache::On);
        let off = body_with(ProviderKind::Openai, base, PromptCache::Off);
        assert_eq!(on.get("cache_prompt"), Some(&json!(true)), "{base}");
        assert_eq!(off.get("cache_prompt"), Some(&json!(false)), "{base}");
    }
    // Where the field cannot go (OpenAI refuses it; Ollama and LM Studio do not read
    // it) neither setting sends it: those servers cache as they are set up to.
    for base in [
        "https://api.openai.com/v1",
        "http://localhost:11434/v1",
        "http://127.0.0.1:1234/v1",
    ] {
        for cache in PromptCache::ALL {
            assert_eq!(
                body_with(ProviderKind::Openai, base, *cache).get("cache_prompt"),
                None,
                "{base} {cache:?}"
            );
        }
    }
}

#[test]
fn prompt_cache_off_sends_anthropic_no_cache_marks() {
    let on = body_with(ProviderKind::Anthropic, "", PromptCache::On);
    assert_eq!(
        on["system"],
        json!([{"type": "text", "text": "You are a web agent.", "cache_control": {"type": "ephemeral"}}])
    );
    // Anthropic caches only what is marked: without the mark nothing is cached.
    let off = body_with(ProviderKind::Anthropic, "", PromptCache::Off);
    assert_eq!(
        off["system"],
        json!([{"type": "text", "text": "You are a web agent."}])
    );
    assert!(!off.to_string().contains("cache_control"), "{off}");
    // Everything else is the same request.
    let strip = |mut body: serde_json::Value| {
        body["system"] = json!(null);
        body
    };
    assert_eq!(strip(on), strip(off));
}

#[test]
fn gemini_requests_are_the_same_with_the_prompt_cache_on_or_off() {
    // Gemini's implicit cache takes no request field, and no request can turn it off.
    let on = body_with(ProviderKind::Gemini, "", PromptCache::On);
    let off = body_with(ProviderKind::Gemini, "", PromptCache::Off);
    assert_eq!(on, off);
    assert!(!on.to_string().contains("cache"), "{on}");
}

#[test]
fn the_prompt_cache_setting_is_read_from_the_endpoint_settings_with_on_by_default() {
    let read =
        |json: &str| crate::json_read::from_str::<ProviderConfig>(json).map(|c| c.prompt_cache);
    let base = r#""provider": "openai", "base_url": "", "model": "m""#;
    assert_eq!(read(&format!("{{{base}}}")).unwrap(), PromptCache::On);
    assert_eq!(
        read(&format!(r#"{{{base}, "prompt_cache": "off"}}"#)).unwrap(),
        PromptCache::Off
    );
    assert_eq!(
        read(&format!(r#"{{{base}, "prompt_cache": "on"}}"#)).unwrap(),
        PromptCache::On
    );
    let wrong = read(&format!(r#"{{{base}, "prompt_cache": "maybe"}}"#))
        .unwrap_err()
        .to_string();
    assert!(
        wrong.contains("unknown variant `maybe`, expected `on` or `off`"),
        "{wrong}"
    );
}

#[test]
fn other_apis_never_get_cache_prompt() {
    for kind in [ProviderKind::Anthropic, ProviderKind::Gemini] {
        let req = build_request(&config(kind, "http://127.0.0.1:8080"), &request()).unwrap();
        assert!(!req.body.contains("cache_prompt"), "{kind:?}");
    }
}

#[test]
fn openai_request_without_key_sends_no_authorization() {
    let mut cfg = config(ProviderKind::Openai, "http://localhost:11434/v1/");
    cfg.api_key.clear();
    let req = build_request(&cfg, &request()).unwrap();
    assert_eq!(req.url, "http://localhost:11434/v1/chat/completions");
    assert_eq!(req.header("authorization"), None);
}

#[test]
fn base_url_without_path_gets_the_api_version_and_a_full_endpoint_is_kept() {
    let bare = config(ProviderKind::Openai, "http://localhost:11434");
    assert_eq!(
        build_request(&bare, &request()).unwrap().url,
        "http://localhost:11434/v1/chat/completions"
    );
    let full = config(
        ProviderKind::Openai,
        "http://127.0.0.1:9/v1/chat/completions",
    );
    assert_eq!(
        build_request(&full, &request()).unwrap().url,
        "http://127.0.0.1:9/v1/chat/completions"
    );
    let anthropic = config(ProviderKind::Anthropic, "http://127.0.0.1:9");
    assert_eq!(
        build_request(&anthropic, &request()).unwrap().url,
        "http://127.0.0.1:9/v1/messages"
    );
}

#[test]
fn anthropic_request_has_key_version_browser_header_and_base64_source() {
    let req = build_request(&default_config(ProviderKind::Anthropic), &request()).unwrap();
    assert_eq!(req.url, "https://api.anthropic.com/v1/messages");
    assert_eq!(req.header("x-api-key"), Some(KEY));
    assert_eq!(req.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(
        req.header("anthropic-dangerous-direct-browser-access"),
        Some("true")
    );
    assert_eq!(req.header("authorization"), None);
    let body = body_json(&req);
    // One text block, marked as a cache breakpoint: the system prompt is the same at
    // every step, so later steps read it from the prompt cache.
    assert_eq!(
        body["system"],
        json!([{"type": "text", "text": "You are a web agent.", "cache_control": {"type": "ephemeral"}}])
    );
    assert_eq!(body["max_tokens"], 300);
    assert_eq!(body["model"], "claude-sonnet-4-5");
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "the system prompt is not a message");
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(
        messages[2]["content"][1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_1X1}})
    );
}

#[test]
fn gemini_request_puts_model_in_path_key_in_header_and_inline_data() {
    let req = build_request(&default_config(ProviderKind::Gemini), &request()).unwrap();
    assert_eq!(
        req.url,
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
    );
    assert_eq!(req.header("x-goog-api-key"), Some(KEY));
    assert!(!req.url.contains(KEY), "the key must not be in the URL");
    let body = body_json(&req);
    assert_eq!(
        body["systemInstruction"],
        json!({"parts": [{"text": "You are a web agent."}]})
    );
    assert_eq!(
        body["generationConfig"],
        json!({"temperature": 0.5, "maxOutputTokens": 300})
    );
    let contents = body["contents"].as_array().unwrap();
    assert_eq!(contents[1]["role"], "model");
    assert_eq!(
        contents[2]["parts"][1],
        json!({"inlineData": {"mimeType": "image/png", "data": PNG_1X1}})
    );
}

#[test]
fn gemini_model_name_may_carry_the_models_prefix_and_is_encoded() {
    let mut cfg = default_config(ProviderKind::Gemini);
    cfg.model = "models/gemini-2.0-flash".to_string();
    let url = build_request(&cfg, &request()).unwrap().url;
    assert!(
        url.ends_with("/models/gemini-2.0-flash:generateContent"),
        "{url}"
    );
    cfg.model = "odd name?x".to_string();
    let url = build_request(&cfg, &request()).unwrap().url;
    assert!(
        url.ends_with("/models/odd%20name%3Fx:generateContent"),
        "{url}"
    );
}

#[test]
fn empty_system_prompt_is_left_out() {
    let mut req = request();
    req.system.clear();
    for kind in [
        ProviderKind::Openai,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ] {
        let body = body_json(&build_request(&default_config(kind), &req).unwrap());
        assert!(body.get("system").is_none() && body.get("systemInstruction").is_none());
        if kind == ProviderKind::Openai {
            assert_eq!(body["messages"][0]["role"], "user");
        }
    }
}

#[test]
fn settings_that_cannot_work_are_config_errors_before_sending() {
    let mut no_model = default_config(ProviderKind::Openai);
    no_model.model = "  ".to_string();
    let mut no_key = default_config(ProviderKind::Anthropic);
    no_key.api_key.clear();
    let bad_url = config(ProviderKind::Gemini, "ftp://example.com");
    let mut bad_key = default_config(ProviderKind::Openai);
    bad_key.api_key = format!("{KEY}\n");
    for (cfg, expected) in [
        (no_model, "no model name is set"),
        (no_key, "no API key is set for Anthropic"),
        (
            bad_url,
            "base URL \"ftp://example.com\" is not an http:// or https:// URL",
        ),
        (bad_key, "the API key contains spaces, line breaks"),
    ] {
        let err = build_request(&cfg, &request()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Config);
        assert!(err.message.starts_with(expected), "{}", err.message);
        assert!(!err.message.contains(KEY));
    }
}

#[test]
fn malformed_requests_are_refused_with_the_reason() {
    let cfg = default_config(ProviderKind::Openai);
    let mut no_messages = request();
    no_messages.messages.clear();
    assert_eq!(
        build_request(&cfg, &no_messages).unwrap_err().message,
        "the request has no messages"
    );
    let mut not_image = request();
    not_image.messages[2].parts[1] = Part::Image {
        mime: "text/html".to_string(),
        base64: String::new(),
    };
    assert!(build_request(&cfg, &not_image)
        .unwrap_err()
        .message
        .contains("\"text/html\""));
}

#[test]
fn debug_output_never_shows_the_key() {
    let cfg = default_config(ProviderKind::Anthropic);
    let req = build_request(&cfg, &request()).unwrap();
    let printed = format!("{cfg:?} {req:?}");
    assert!(!printed.contains(KEY), "{printed}");
    assert!(printed.contains("api_key_set: true"));
    assert!(printed.contains("x-api-key"));
}

#[test]
fn connection_check_is_one_small_user_turn() {
    for kind in [
        ProviderKind::Openai,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ] {
        let check = connection_check_request(kind);
        assert_eq!(check.messages.len(), 1);
        assert_eq!(check.messages[0].role, Role::User);
        assert!(check.max_tokens <= 512);
        assert_eq!(check.agent, None, "a model gets a prompt");
        assert!(build_request(&default_config(kind), &check).is_ok());
    }
}
