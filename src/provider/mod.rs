//! Model providers: turn a provider-neutral [`ModelRequest`] into the HTTP request of
//! one API, and its HTTP reply back into a [`ModelReply`] or a [`CallError`] that says
//! what went wrong, whether trying again can help, and what the person should change.
//!
//! Pure: no I/O here. The glue (`src/glue/provider.rs`) sends the [`HttpRequest`] with
//! fetch, hands back an [`HttpReply`], sleeps for [`retry_delay`] between tries and
//! records every try in a [`CallLog`]. The contract is `docs/agent-run.md`.
//!
//! One module per API, each implementing [`Api`]:
//! - [`openai`]: Chat Completions, which every OpenAI-compatible server speaks
//!   (OpenAI, vLLM, Ollama, LM Studio, OpenRouter);
//! - [`anthropic`]: the Messages API;
//! - [`gemini`]: the Generative Language API's `generateContent`;
//! - [`agent_http`]: a person's own agent, spoken to in the agent protocol
//!   (`crate::agent_protocol`): the body is the protocol's request, not a prompt.

mod agent_http;
mod anthropic;
mod cause;
mod config;
mod error;
mod error_body;
mod gemini;
mod hint;
mod http;
mod http_date;
mod log;
mod openai;
mod retry;
mod url;

pub use config::{CallOptions, PromptCache, ProviderConfig, ProviderKind};
pub use error::{redact, CallError, ErrorKind};
pub use hint::hint;
pub use http::{HttpReply, HttpRequest};
pub use http_date::parse_retry_after;
pub use log::{Attempt, CallLog, CallOutcome, OutcomeError};
pub use retry::{retry_delay, RetryPolicy};

use crate::model::{Message, ModelReply, ModelRequest, Part, Role};

/// What each API module provides: its endpoint, headers and body, and how to read a
/// successful reply. Error statuses are classified once for all APIs ([`error`]),
/// because the three report failures the same way (status + a JSON `error` object).
trait Api {
    /// The full URL for this config (base URL + the API's path).
    fn endpoint(&self, config: &ProviderConfig) -> String;
    /// Headers besides `content-type`, including the key.
    fn headers(&self, config: &ProviderConfig) -> Vec<(String, String)>;
    /// The JSON body.
    fn body(&self, config: &ProviderConfig, request: &ModelRequest) -> serde_json::Value;
    /// Reads a 2xx body. `Err` for malformed JSON, no text, or an error object sent
    /// with status 200 (some OpenAI-compatible gateways do that).
    fn parse_success(&self, body: &str) -> Result<ModelReply, CallError>;
}

fn api(kind: ProviderKind) -> &'static dyn Api {
    match kind {
        ProviderKind::Openai => &openai::OpenAi,
        ProviderKind::Anthropic => &anthropic::Anthropic,
        ProviderKind::Gemini => &gemini::Gemini,
        ProviderKind::Agent => &agent_http::AgentHttp,
    }
}

/// The HTTP request (always a POST of JSON) for one model call.
pub fn build_request(
    config: &ProviderConfig,
    request: &ModelRequest,
) -> Result<HttpRequest, CallError> {
    config.check()?;
    check_request(config, request)?;
    let api = api(config.provider);
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    headers.extend(api.headers(config));
    Ok(HttpRequest {
        url: api.endpoint(config),
        headers,
        body: api.body(config, request).to_string(),
    })
}

/// The model's reply, or the error this HTTP reply stands for. Every message is
/// scrubbed of the key: servers sometimes echo what they were sent.
pub fn parse_reply(config: &ProviderConfig, reply: &HttpReply) -> Result<ModelReply, CallError> {
    let api = api(config.provider);
    let result = if (200..300).contains(&reply.status) {
        api.parse_success(&reply.body)
    } else {
        Err(error::from_status(config, &api.endpoint(config), reply))
    };
    result.map_err(|err| err.redacted(&config.api_key))
}

/// The tiny request "Test connection" sends: it proves the URL, key and model work.
/// The token allowance is generous because models that think before answering
/// (Gemini 2.5, reasoning models behind OpenAI-compatible servers) spend tokens
/// before the first visible word and would otherwise return no text at all. A
/// person's own agent gets the protocol's hello, which it answers with its name.
pub fn connection_check_request(kind: ProviderKind) -> ModelRequest {
    let agent = (kind == ProviderKind::Agent)
        .then(|| serde_json::to_value(crate::agent_protocol::HelloRequest::new()).ok())
        .flatten();
    ModelRequest {
        system: "You are answering a connection check. Reply with one short sentence.".to_string(),
        messages: vec![Message {
            role: Role::User,
            parts: vec![Part::text("Say hello and name the model you are.")],
        }],
        temperature: 0.0,
        max_tokens: 256,
        agent,
    }
}

/// Requests the agent builds are well formed by construction; this catches the
/// mistakes that would otherwise come back as a confusing 400 from the server.
fn check_request(config: &ProviderConfig, request: &ModelRequest) -> Result<(), CallError> {
    if request.agent.is_some() != (config.provider == ProviderKind::Agent) {
        // The agent machine builds protocol requests only for `agent` runs
        // (`AgentKind::Http`), and prompts only for the others.
        return Err(CallError::config(if request.agent.is_some() {
            "this run speaks the agent protocol, but its provider is a model API: choose \
             \"Your own agent (HTTP)\" as the provider, or another agent"
        } else {
            "the provider is your own agent (HTTP), but the run built a prompt for a model: \
             run it with the agent \"http\" (the runner and the popup do so for this provider)"
        }));
    }
    if request.messages.is_empty() {
        return Err(CallError::config("the request has no messages"));
    }
    if request.max_tokens == 0 {
        return Err(CallError::config("max tokens must be at least 1"));
    }
    if let Some(problem) = crate::model::temperature_problem(request.temperature) {
        return Err(CallError::config(problem));
    }
    for part in request.messages.iter().flat_map(|m| &m.parts) {
        if let Part::Image { mime, .. } = part {
            if !mime.starts_with("image/") {
                return Err(CallError::config(format!(
                    "an image part has MIME type {mime:?}, not image/*"
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
