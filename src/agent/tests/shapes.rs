//! The JSON the driver exchanges with the machine, field by field, as
//! docs/agent-run.md promises it.

use serde_json::{json, Value};

use super::harness::*;
use crate::agent::{AgentConfig, AgentEvent, Command};

fn to_value(command: &Command) -> Value {
    serde_json::to_value(command).unwrap()
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[test]
fn commands_and_records_have_the_documented_fields() {
    let (agent, first) = start(&task_json(&[]), config());
    assert_eq!(
        to_value(&first[0]),
        json!({"kind": "observe", "step": 1, "mode": "text", "whole_page": false})
    );
    let run = drive(
        agent,
        first,
        Script::new(vec![TOKYO_PAGE], vec![reply("```stop [Tokyo]```")]),
        false,
    );
    let call = to_value(&run.commands[1]);
    assert_eq!(keys(&call), ["kind", "request", "step"]);
    assert_eq!(
        keys(&call["request"]),
        ["max_tokens", "messages", "system", "temperature"]
    );
    assert_eq!(call["request"]["messages"][0]["role"], "user");
    assert_eq!(call["request"]["messages"][0]["parts"][0]["type"], "text");
    assert_eq!(
        to_value(&run.commands[2]),
        json!({"kind": "act", "step": 1, "action_text": "stop [Tokyo]"})
    );
    let record = to_value(&run.commands[3]);
    assert_eq!(keys(&record), ["kind", "record", "step"]);
    assert_eq!(
        keys(&record["record"]),
        [
            "action",
            "judgements",
            "model_error",
            "note",
            "observation",
            "progress",
            "prompt",
            "reply",
            "result",
            "stages",
            "step",
            "tokens"
        ]
    );
    // The prompt agent's one stage is its prompt and reply.
    assert_eq!(record["record"]["stages"], Value::Null);
    assert_eq!(
        keys(&record["record"]["prompt"]),
        ["observation_cut", "system", "user"]
    );
    assert_eq!(record["record"]["prompt"]["observation_cut"], Value::Null);
    assert_eq!(
        keys(&record["record"]["reply"]),
        ["attempts", "text", "usage"]
    );
    assert_eq!(
        record["record"]["tokens"],
        json!({"input": 1000, "output": 50, "cached_input": 0})
    );
    assert_eq!(
        to_value(&run.commands[4]),
        json!({"kind": "finish", "cause": "answered",
               "reason": "the agent stopped with the answer \"Tokyo\"", "answer": "Tokyo"})
    );
}

#[test]
fn events_read_from_driver_json_with_optional_fields_left_out() {
    let observed: AgentEvent = serde_json::from_value(json!({
        "kind": "observed", "step": 1, "text": "[1] RootWebArea 'x'", "url": "http://x.test/",
        "images": [{"id": 7, "mime": "image/png", "base64": "AAAA"}],
        "screenshot": null
    }))
    .unwrap();
    assert_eq!(observed.step(), Some(1));
    let acted: AgentEvent = serde_json::from_value(json!({
        "kind": "acted", "step": 2, "effect": {"answer": "Tokyo"}, "settle": {"ms": 40},
        "progress": {"done": 2, "total": 2, "at_end": true, "current": null,
                     "hops": [{"index": 0, "description": "a", "state": "done", "step": 1, "time_ms": 5}]}
    }))
    .unwrap();
    let AgentEvent::Acted {
        error, progress, ..
    } = acted
    else {
        panic!("acted expected")
    };
    assert_eq!(error, None);
    assert!(progress.unwrap().at_end);
    let failed: AgentEvent = serde_json::from_value(json!({
        "kind": "model_failed", "step": 3, "error": {"kind": "auth", "message": "401"}
    }))
    .unwrap();
    assert_eq!(failed.kind(), "model_failed");
    let replied: AgentEvent = serde_json::from_value(json!({
        "kind": "model_replied", "step": 3,
        "reply": {"text": "```go_back```", "usage": {"input_tokens": 3, "output_tokens": 4}}
    }))
    .unwrap();
    assert_eq!(replied.step(), Some(3));
    let interrupted: AgentEvent = serde_json::from_value(json!({
        "kind": "interrupted", "reason": "interrupted by browser exit"
    }))
    .unwrap();
    assert_eq!(interrupted.kind(), "interrupted");
    assert_eq!(interrupted.step(), None);
}

#[test]
fn a_compact_run_asks_for_compact_observations_and_says_so_in_its_prompt() {
    let mut compact = config();
    compact.observation_format = crate::observation::ObservationFormat::Compact;
    let (agent, first) = start(&task_json(&[]), compact);
    assert_eq!(
        to_value(&first[0]),
        json!({"kind": "observe", "step": 1, "mode": "text", "whole_page": false, "format": "compact"})
    );
    let run = drive(
        agent,
        first,
        Script::new(vec![TOKYO_PAGE], vec![reply("```stop [Tokyo]```")]),
        false,
    );
    let system = to_value(&run.commands[1])["request"]["system"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        system.contains("text on the page as a plain line"),
        "{system}"
    );
    let read: AgentConfig =
        serde_json::from_value(json!({"observation_format": "compact"})).unwrap();
    assert_eq!(
        read.observation_format,
        crate::observation::ObservationFormat::Compact
    );
    assert!(AgentConfig::from_json(r#"{"observation_format": "tiny"}"#).is_err());
}
