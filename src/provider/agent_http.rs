//! A person's own agent over HTTP (`POST {base URL}` as given, no path added): the body
//! is the agent protocol's request the core built (`ModelRequest::agent`), and the
//! reply one action, or the agent's name to a hello. Errors are read as for the model
//! APIs (status + a JSON `error` object), so an agent gets the same retries and hints.

use super::config::ProviderConfig;
use super::error::CallError;
use super::Api;
use crate::agent_protocol::{read_reply, AgentReply};
use crate::model::{ModelReply, ModelRequest, Usage};
use serde_json::Value;

pub struct AgentHttp;

impl Api for AgentHttp {
    fn endpoint(&self, config: &ProviderConfig) -> String {
        // As typed: the agent decides its own path (`base()` only trims the slashes
        // at the end, so `http://host:8700/` is POSTed to `/`).
        config.base().to_string()
    }

    fn headers(&self, config: &ProviderConfig) -> Vec<(String, String)> {
        if config.api_key.is_empty() {
            return Vec::new();
        }
        vec![(
            "authorization".to_string(),
            format!("Bearer {}", config.api_key),
        )]
    }

    fn body(&self, _config: &ProviderConfig, request: &ModelRequest) -> Value {
        // `check_request` refused a request without it before this is called.
        request.agent.clone().unwrap_or(Value::Null)
    }

    fn parse_success(&self, body: &str) -> Result<ModelReply, CallError> {
        match read_reply(body).map_err(CallError::malformed)? {
            AgentReply::Step(step) => {
                let usage = step.usage.unwrap_or_default();
                Ok(ModelReply {
                    text: step.action,
                    usage: Usage {
                        input_tokens: usage.input_tokens,
                        output_tokens: usage.output_tokens,
                        cached_input_tokens: 0,
                    },
                    reasoning: step.reasoning.filter(|r| !r.trim().is_empty()),
                })
            }
            AgentReply::Hello(hello) => Ok(ModelReply {
                text: hello.label(),
                usage: Usage::default(),
                reasoning: None,
            }),
        }
    }
}
