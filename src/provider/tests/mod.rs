//! Native tests of the provider core: request shapes per API, replies read from
//! fixture bodies (`tests/provider_replies/`), error kinds, retry timing and hints.

mod agent_http;
mod causes;
mod config;
mod errors;
mod hints;
mod log;
mod replies;
mod requests;
mod retry;

use super::*;
use crate::model::{Message, ModelRequest, Part, Role};

/// A real 1×1 PNG, so tests can check that image parts carry decodable base64.
const PNG_1X1: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+P+/HgAFhAJ/wlseKgAAAABJRU5ErkJggg==";

const KEY: &str = "sk-test-0123456789abcdefWXYZ";

fn config(provider: ProviderKind, base_url: &str) -> ProviderConfig {
    ProviderConfig {
        provider,
        base_url: base_url.to_string(),
        model: match provider {
            ProviderKind::Openai => "gpt-4o-mini",
            ProviderKind::Anthropic => "claude-sonnet-4-5",
            ProviderKind::Gemini => "gemini-2.5-flash",
            ProviderKind::Agent => "",
        }
        .to_string(),
        api_key: KEY.to_string(),
        prompt_cache: PromptCache::On,
    }
}

fn default_config(provider: ProviderKind) -> ProviderConfig {
    config(provider, "")
}

/// System prompt, a past exchange, and a user turn with text and an image.
fn request() -> ModelRequest {
    ModelRequest {
        system: "You are a web agent.".to_string(),
        messages: vec![
            Message {
                role: Role::User,
                parts: vec![Part::text("OBSERVATION 1")],
            },
            Message {
                role: Role::Assistant,
                parts: vec![Part::text("```click [3]```")],
            },
            Message {
                role: Role::User,
                parts: vec![
                    Part::text("OBSERVATION 2"),
                    Part::Image {
                        mime: "image/png".to_string(),
                        base64: PNG_1X1.to_string(),
                    },
                ],
            },
        ],
        temperature: 0.5,
        max_tokens: 300,
        agent: None,
    }
}

/// A fixture reply body by path under tests/provider_replies/.
fn fixture(path: &str) -> String {
    let full = format!(
        "{}/tests/provider_replies/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn reply(status: u16, body: &str) -> HttpReply {
    HttpReply {
        status,
        retry_after: None,
        body: body.to_string(),
        now_ms: 0,
    }
}

fn body_json(req: &HttpRequest) -> serde_json::Value {
    serde_json::from_str(&req.body).unwrap()
}
