//! A person's own agent: the protocol's request is the body, sent to the URL as typed;
//! replies become the step's action (or the agent's name for a hello); failures get
//! the model providers' kinds and retries, and hints about the agent's server.

use super::*;
use serde_json::json;

fn agent_config(url: &str, key: &str) -> ProviderConfig {
    ProviderConfig {
        provider: ProviderKind::Agent,
        base_url: url.to_string(),
        model: String::new(),
        api_key: key.to_string(),
        prompt_cache: PromptCache::On,
    }
}

fn step_request() -> ModelRequest {
    ModelRequest {
        agent: Some(json!({"protocol": 1, "kind": "step", "step": 1})),
        ..request()
    }
}

#[test]
fn the_body_is_the_protocols_request_posted_to_the_url_as_typed() {
    let http = build_request(
        &agent_config("http://127.0.0.1:8700/act/", ""),
        &step_request(),
    )
    .unwrap();
    assert_eq!(http.url, "http://127.0.0.1:8700/act");
    assert_eq!(
        body_json(&http),
        json!({"protocol": 1, "kind": "step", "step": 1})
    );
    assert_eq!(
        http.headers,
        [("content-type".to_string(), "application/json".to_string())],
        "no key, no authorization header"
    );
    let keyed = build_request(
        &agent_config("http://127.0.0.1:8700/", KEY),
        &step_request(),
    )
    .unwrap();
    assert!(keyed
        .headers
        .contains(&("authorization".to_string(), format!("Bearer {KEY}"))));
}

#[test]
fn an_agent_needs_its_url_but_no_model_name_or_key() {
    let error = build_request(&agent_config("  ", ""), &step_request()).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Config);
    assert!(
        error.message.contains("no agent URL is set"),
        "{}",
        error.message
    );
    assert!(build_request(&agent_config("http://127.0.0.1:8700", ""), &step_request()).is_ok());
}

#[test]
fn a_prompt_never_goes_to_an_agent_nor_a_protocol_request_to_a_model() {
    let to_agent =
        build_request(&agent_config("http://127.0.0.1:8700", ""), &request()).unwrap_err();
    assert_eq!(to_agent.kind, ErrorKind::Config);
    assert!(
        to_agent.message.contains("built a prompt"),
        "{}",
        to_agent.message
    );
    let to_model =
        build_request(&default_config(ProviderKind::Openai), &step_request()).unwrap_err();
    assert_eq!(to_model.kind, ErrorKind::Config);
    assert!(
        to_model.message.contains("agent protocol"),
        "{}",
        to_model.message
    );
}

#[test]
fn test_connection_sends_hello_and_shows_the_agents_name() {
    let config = agent_config("http://127.0.0.1:8700", "");
    let check = connection_check_request(ProviderKind::Agent);
    let http = build_request(&config, &check).unwrap();
    assert_eq!(body_json(&http), json!({"protocol": 1, "kind": "hello"}));
    let reply = parse_reply(
        &config,
        &reply(200, r#"{"name": "follow-links", "version": "0.1.0"}"#),
    )
    .unwrap();
    assert_eq!(reply.text, "follow-links 0.1.0");
}

#[test]
fn a_step_reply_becomes_the_action_with_reasoning_and_tokens() {
    let config = agent_config("http://127.0.0.1:8700", "");
    let body = r#"{"action": "click [12]", "reasoning": "the plan says Tokyo", "usage": {"input_tokens": 300, "output_tokens": 12}}"#;
    let reply = parse_reply(&config, &reply(200, body)).unwrap();
    assert_eq!(reply.text, "click [12]");
    assert_eq!(reply.reasoning.as_deref(), Some("the plan says Tokyo"));
    assert_eq!(
        (reply.usage.input_tokens, reply.usage.output_tokens),
        (300, 12)
    );
}

#[test]
fn failures_get_the_model_kinds_and_hints_about_the_agents_server() {
    let config = agent_config("http://127.0.0.1:8700", KEY);
    let server = parse_reply(
        &config,
        &reply(500, r#"{"error": {"message": "KeyError: 'x'"}}"#),
    )
    .unwrap_err();
    assert_eq!(server.kind, ErrorKind::Server);
    assert!(
        server.kind.is_transient(),
        "a crash in the agent is tried again"
    );
    assert!(server.message.contains("KeyError"), "{}", server.message);
    let auth =
        parse_reply(&config, &reply(401, r#"{"error": {"message": "bad key"}}"#)).unwrap_err();
    assert_eq!(auth.kind, ErrorKind::Auth);
    assert!(hint(&auth, &config, "").contains("Your agent refused the key"));
    let malformed = parse_reply(&config, &reply(200, "<html>hi</html>")).unwrap_err();
    assert_eq!(malformed.kind, ErrorKind::Malformed);
    assert!(hint(&malformed, &config, "").contains("docs/agent-protocol.md"));
    let network = CallError::new(ErrorKind::Network, "fetch failed");
    assert!(hint(&network, &config, "").contains("is your agent's server running"));
    // A key the agent echoes back never reaches a message.
    let echoed = parse_reply(
        &config,
        &reply(400, &format!(r#"{{"error": {{"message": "got {KEY}"}}}}"#)),
    )
    .unwrap_err();
    assert!(!echoed.message.contains(KEY));
}
