//! Agent-run exports: the worker keeps the run's state as an opaque JSON string (in
//! `chrome.storage.local`, with the pending command) and passes it in and out of each
//! call. Config and events may be plain JS objects or their JSON text; both are read
//! through the same serde_json path as the native tests. Commands cross as plain JS
//! objects (JSON-compatible serializer, as in `hops.rs`).

use super::to_js_error;
use crate::agent::{Agent, AgentConfig, AgentError, AgentEvent, Command};
use serde::Serialize;
use wasm_bindgen::prelude::{wasm_bindgen, JsError, JsValue};

#[derive(Serialize)]
struct Stepped<'a> {
    state: String,
    commands: &'a [Command],
    /// Why an event changed nothing (stale, duplicate, after the end); `null` otherwise.
    ignored: Option<String>,
}

/// `agent_start(taskText, fileName, config)` → `{state, commands, ignored: null}`.
/// `config = {max_steps, prompt_style, observation_mode, temperature, max_tokens,
/// replay}`, every field optional. Errors name the task problem or the bad setting.
#[wasm_bindgen]
pub fn agent_start(task_text: &str, file_name: &str, config: JsValue) -> Result<JsValue, JsError> {
    let config = AgentConfig::from_json(&json_text(&config, "config")?).map_err(to_js_error)?;
    let (agent, commands) = Agent::start(task_text, file_name, config).map_err(to_js_error)?;
    stepped(&agent, &commands, None)
}

/// `agent_feed(state, event)` → `{state, commands, ignored}`. A stale or duplicated
/// event gives no commands, the state unchanged and `ignored` saying why.
#[wasm_bindgen]
pub fn agent_feed(state: &str, event: JsValue) -> Result<JsValue, JsError> {
    let mut agent = Agent::from_json(state).map_err(to_js_error)?;
    let text = json_text(&event, "event")?;
    let event: AgentEvent =
        serde_json::from_str(&text).map_err(|e| to_js_error(AgentError::Event(e.to_string())))?;
    let fed = agent.feed(event);
    stepped(&agent, &fed.commands, fed.ignored)
}

fn stepped(
    agent: &Agent,
    commands: &[Command],
    ignored: Option<String>,
) -> Result<JsValue, JsError> {
    let value = Stepped {
        state: agent.to_json().map_err(to_js_error)?,
        commands,
        ignored,
    };
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(to_js_error)
}

/// A JS string is taken as JSON text; anything else is stringified. `undefined`
/// stands for `{}` so `agent_start(text, name)` runs with the default settings.
fn json_text(value: &JsValue, what: &str) -> Result<String, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok("{}".to_string());
    }
    if let Some(text) = value.as_string() {
        return Ok(text);
    }
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| JsError::new(&format!("the {what} cannot be turned into JSON")))
}
