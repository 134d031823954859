//! The published JSON Schema must describe exactly the fields the loader accepts.
#![allow(
    clippy::unwrap_used,
    reason = "test helpers fail the test on bad fixtures"
)]

use hopbench::task::parse_task;
use serde_json::Value;
use std::collections::BTreeSet;

fn schema() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schema/task.schema.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

/// A task using every field, as the loader writes it back.
const FULL: &str = r#"{
  "$schema": "schema/task.schema.json", "id": "x", "intent": "y", "start_urls": ["http://a.test/"],
  "reference_sites": [{"label": "A", "url": "http://a.test/"}],
  "hops": [{"description": "d", "pass_event_on": true, "condition": {"kind": "all", "of": [
    {"kind": "url", "part": "param", "param": "q", "op": "equals", "value": "v", "tokens": ["t"], "case_sensitive": true},
    {"kind": "page_text", "contains": ["c"], "case_sensitive": true},
    {"kind": "answer", "must_include": ["m"], "exact_match": "e", "fuzzy_match": ["f"]},
    {"kind": "not", "condition": {"kind": "url", "op": "contains", "value": "n"}}]}},
    {"condition": {"kind": "url", "tokens": ["next"]}}],
  "final_answer": {"condition": {"must_include": ["m"], "exact_match": "e", "fuzzy_match": ["f"]}, "required": false},
  "reference_trajectory": ["click {link 'A'}", "stop [m]"],
  "alternative_trajectories": [["click {button 'A'}", "stop [m]"]],
  "source": {"format": "hopbench", "file": "f.json", "notes": ["n"]}
}"#;

#[test]
fn schema_properties_match_the_task_type() {
    let s = schema();
    let task = serde_json::to_value(parse_task(FULL).unwrap()).unwrap();
    assert_eq!(keys(&s["properties"]), keys(&task));
    let defs = &s["$defs"];
    let of = &task["hops"][0]["condition"]["of"];
    assert_eq!(keys(&defs["url_condition"]["properties"]), keys(&of[0]));
    assert_eq!(
        keys(&defs["page_text_condition"]["properties"]),
        keys(&of[1])
    );
    assert_eq!(keys(&defs["answer_condition"]["properties"]), keys(&of[2]));
    assert_eq!(keys(&defs["not_condition"]["properties"]), keys(&of[3]));
    let kinds: BTreeSet<String> = defs["condition"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["$ref"].as_str().unwrap().to_string())
        .collect();
    assert!(kinds.contains("#/$defs/not_condition"), "{kinds:?}");
    assert_eq!(
        keys(&s["properties"]["hops"]["items"]["properties"]),
        keys(&task["hops"][0])
    );
    assert_eq!(
        keys(&defs["answer_checks"]["properties"]),
        keys(&task["final_answer"]["condition"])
    );
    assert_eq!(
        keys(&s["properties"]["final_answer"]["properties"]),
        keys(&task["final_answer"])
    );
    assert_eq!(
        keys(&s["properties"]["source"]["properties"]),
        keys(&task["source"])
    );
}

#[test]
fn schema_enums_match_the_loader() {
    let s = schema();
    let url = &s["$defs"]["url_condition"]["properties"];
    for part in url["part"]["enum"].as_array().unwrap() {
        let text = FULL.replace(
            r#""part": "param", "param": "q""#,
            &format!(r#""part": {part}"#),
        );
        let needs_param = part == "param";
        let loaded = parse_task(&text);
        assert_eq!(loaded.is_ok(), !needs_param, "part {part}: {loaded:?}");
    }
    for op in url["op"]["enum"].as_array().unwrap() {
        let text = FULL.replace(r#""op": "equals""#, &format!(r#""op": {op}"#));
        assert!(parse_task(&text).is_ok(), "op {op}");
    }
}
