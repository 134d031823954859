//! `schema/agent-protocol.schema.json` is generated from the protocol types (`hopbench
//! agent-schema`). These tests keep the checked-in file current and check that what
//! the agent machine really sends validates against it, as do the replies the
//! documentation shows.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers fail the test on bad fixtures"
)]

use hopbench::agent::{Agent, AgentConfig, AgentEvent, AgentKind, Command, ObservedImage};
use hopbench_cli::cli::schema::agent_schema_text;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn checked_in() -> Value {
    let text = std::fs::read_to_string(root().join("schema/agent-protocol.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A validator for one of the schema's definitions.
fn validator(def: &str) -> jsonschema::Validator {
    let mut schema = checked_in();
    schema["$ref"] = Value::from(format!("#/$defs/{def}"));
    jsonschema::validator_for(&schema).unwrap()
}

fn problems(def: &str, value: &Value) -> Vec<String> {
    validator(def)
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn the_checked_in_schema_is_current() {
    let file = std::fs::read_to_string(root().join("schema/agent-protocol.schema.json")).unwrap();
    assert!(
        file == agent_schema_text(),
        "schema/agent-protocol.schema.json is out of date: run \
         `cargo run -p hopbench-cli -- agent-schema --out schema/agent-protocol.schema.json` \
         (or ./build.sh schema)"
    );
}

/// The first two requests of a run of a bundled task, images included.
fn requests_of_a_run() -> Vec<Value> {
    let task = std::fs::read_to_string(root().join("tasks/sb-03-tower-height.json")).unwrap();
    let config: AgentConfig =
        serde_json::from_value(json!({"agent": "http", "observation_mode": "text+images"}))
            .unwrap();
    assert_eq!(config.agent, AgentKind::Http);
    let (mut agent, _) = Agent::start(&task, "sb-03.json", config).unwrap();
    let mut requests = Vec::new();
    let page = "Tab 0 (current): Towers\n\n[1] RootWebArea 'Towers' focused: True\n\t[5] link 'Tokyo Tower'\n\t[6] img 'Tower'";
    for step in 1..=2 {
        let fed = agent.feed(AgentEvent::Observed {
            step,
            text: page.to_string(),
            url: "http://127.0.0.1:8604/".to_string(),
            images: vec![ObservedImage {
                id: 6,
                mime: "image/png".to_string(),
                base64: "iVBORw0KGgo=".to_string(),
            }],
            screenshot: None,
            tabs: vec![hopbench::agent_protocol::TabBrief {
                title: "Towers".to_string(),
                current: true,
            }],
        });
        let [Command::CallModel { request, .. }] = fed.commands.as_slice() else {
            panic!("a call, got {:?}", fed.commands)
        };
        requests.push(request.agent.clone().expect("the protocol's request"));
        agent.feed(AgentEvent::ModelReplied {
            step,
            reply: serde_json::from_value(
                json!({"text": "scroll [down]", "usage": {"input_tokens": 0, "output_tokens": 0}}),
            )
            .unwrap(),
            attempts: Vec::new(),
            call: 0,
        });
        agent.feed(AgentEvent::Acted {
            step,
            effect: Value::Null,
            error: None,
            progress: None,
        });
    }
    requests
}

#[test]
fn what_the_machine_sends_validates() {
    let requests = requests_of_a_run();
    for request in &requests {
        assert_eq!(
            problems("StepRequest", request),
            Vec::<String>::new(),
            "{request:#}"
        );
    }
    assert_eq!(requests[1]["history"][0]["action"], "scroll [down]");
    assert_eq!(requests[0]["observation"]["images"][0]["id"], 6);
    assert_eq!(
        problems("HelloRequest", &json!({"protocol": 1, "kind": "hello"})),
        Vec::<String>::new()
    );
    assert!(!problems("HelloRequest", &json!({"protocol": 2, "kind": "hello"})).is_empty());
}

#[test]
fn replies_validate_as_documented_and_wrong_ones_do_not() {
    assert!(problems("StepReply", &json!({"action": "click [12]"})).is_empty());
    assert!(problems(
        "StepReply",
        &json!({"action": "stop [purple]", "reasoning": "seen in the picture", "usage": {"input_tokens": 10, "output_tokens": 2}})
    )
    .is_empty());
    assert!(problems(
        "HelloReply",
        &json!({"name": "follow-links", "version": "0.1.0"})
    )
    .is_empty());
    assert!(!problems("StepReply", &json!({"reasoning": "no action"})).is_empty());
    assert!(!problems("HelloReply", &json!({"version": "1"})).is_empty());
}
