//! Agent-run exports: the worker keeps the run's state as an opaque JSON string (in
//! `chrome.storage.local`, with the pending command) and passes it in and out of each
//! call. Config and events may be plain JS objects or their JSON text; both are read
//! through the same serde_json path as the native tests. Commands cross as plain JS
//! objects made from their JSON (`js.rs`).

use super::js::to_js;
use super::Thrown;
use hopbench::agent::{Agent, AgentConfig, AgentError, AgentEvent, Command};
use hopbench::boundary::{AgentStarted, AgentStepped, MemoryShown};
use hopbench::evaluator::Verdict;
use hopbench::memory::MemoryRecord;
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};

/// `agent_start(taskText, fileName, config, memory?)` → `{state, commands, ignored:
/// null, memory: {k, policy, tasks}}`. `config = {max_steps, prompt_style,
/// observation_mode, temperature, max_tokens, replay, memory: {k, policy}}`, every
/// field optional. `memory` is the pool of memory records to choose from (an array,
/// or JSON / JSON Lines text; oldest run first), used when `config.memory.k` > 0;
/// `tasks` are the ids of the records the prompt shows. Errors name the task problem,
/// the bad setting or the unreadable record.
#[wasm_bindgen]
pub fn agent_start(
    task_text: &str,
    file_name: &str,
    config: JsValue,
    memory: JsValue,
) -> Result<JsValue, Thrown> {
    let config = AgentConfig::from_json(&json_text(&config, "config")?)?;
    let pool = if config.memory.k == 0 || memory.is_undefined() || memory.is_null() {
        Vec::new()
    } else {
        MemoryRecord::parse_pool(&json_text(&memory, "memory")?).map_err(AgentError::Config)?
    };
    let (agent, commands) = Agent::start_with_memory(task_text, file_name, config, &pool)?;
    let started = AgentStarted {
        stepped: AgentStepped {
            state: agent.to_json()?,
            commands: &commands,
            ignored: None,
        },
        memory: MemoryShown {
            k: agent.config().memory.k,
            policy: agent.config().memory.policy,
            tasks: agent.memory_tasks(),
        },
    };
    to_js(&started)
}

/// `agent_memory_record(state, verdict)` → the finished run's memory record, or
/// `null` (still running, or an ending that says nothing about the task). `verdict`
/// is the session tracker's (`tracker_verdict`); only its pass and hop steps are read.
#[wasm_bindgen]
pub fn agent_memory_record(state: &str, verdict: JsValue) -> Result<JsValue, Thrown> {
    let agent = Agent::from_json(state)?;
    let verdict: Verdict = hopbench::json_read::from_str(&json_text(&verdict, "verdict")?)
        .map_err(|e| AgentError::Event(format!("the verdict: {e}")))?;
    to_js(&agent.memory_record(&verdict))
}

/// `agent_feed(state, event)` → `{state, commands, ignored}`. A stale or duplicated
/// event gives no commands, the state unchanged and `ignored` saying why.
#[wasm_bindgen]
pub fn agent_feed(state: &str, event: JsValue) -> Result<JsValue, Thrown> {
    let mut agent = Agent::from_json(state)?;
    let text = json_text(&event, "event")?;
    let event: AgentEvent =
        hopbench::json_read::from_str(&text).map_err(|e| AgentError::Event(e.to_string()))?;
    let fed = agent.feed(event);
    stepped(&agent, &fed.commands, fed.ignored)
}

fn stepped(
    agent: &Agent,
    commands: &[Command],
    ignored: Option<String>,
) -> Result<JsValue, Thrown> {
    let value = AgentStepped {
        state: agent.to_json()?,
        commands,
        ignored,
    };
    to_js(&value)
}

/// A JS string is taken as JSON text; anything else is stringified. `undefined`
/// stands for `{}` so `agent_start(text, name)` runs with the default settings.
fn json_text(value: &JsValue, what: &str) -> Result<String, Thrown> {
    if value.is_undefined() || value.is_null() {
        return Ok("{}".to_string());
    }
    if let Some(text) = value.as_string() {
        return Ok(text);
    }
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Thrown::input(format!("the {what} cannot be turned into JSON")))
}
