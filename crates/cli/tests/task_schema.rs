//! `schema/task.schema.json` is generated from the task types (`hopbench schema`). These
//! tests keep the checked-in file current, and check that schema and loader agree: every
//! bundled task and every imported fixture validates, and what the loader rejects for
//! its shape the schema rejects too.
#![allow(
    clippy::unwrap_used,
    reason = "test helpers fail the test on bad fixtures"
)]

use hopbench::import::import_path;
use hopbench::task::parse_task;
use hopbench_cli::cli::schema::task_schema_text;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn checked_in() -> Value {
    let text = std::fs::read_to_string(root().join("schema/task.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&checked_in()).unwrap()
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

/// The schema of one condition kind: the `Condition` variant whose `kind` is `kind`.
fn condition_kind<'a>(s: &'a Value, kind: &str) -> &'a Value {
    s["$defs"]["Condition"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["properties"]["kind"]["const"] == kind)
        .unwrap_or_else(|| panic!("no condition of kind {kind}"))
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
fn the_checked_in_schema_is_the_generated_one() {
    let file = std::fs::read_to_string(root().join("schema/task.schema.json")).unwrap();
    assert!(
        file == task_schema_text(),
        "schema/task.schema.json is out of date: run \
         `cargo run -p hopbench-cli -- schema --out schema/task.schema.json` (or ./build.sh schema)"
    );
}

#[test]
fn the_schema_documents_the_fields() {
    let s = checked_in();
    for field in ["id", "intent", "start_urls", "hops", "reference_trajectory"] {
        let text = s["properties"][field]["description"].as_str().unwrap_or("");
        assert!(text.len() > 20, "{field} has no description: {text:?}");
    }
    let url = condition_kind(&s, "url");
    assert!(url["properties"]["tokens"]["description"]
        .as_str()
        .unwrap()
        .contains("Words that must all appear"));
    assert!(
        !url["properties"]["tokens"]["description"]
            .as_str()
            .unwrap()
            .contains('\n'),
        "doc-comment line breaks are unwrapped"
    );
}

#[test]
fn schema_properties_match_the_task_type() {
    let s = checked_in();
    let defs = &s["$defs"];
    let task = serde_json::to_value(parse_task(FULL).unwrap()).unwrap();
    assert_eq!(keys(&s["properties"]), keys(&task));
    let of = &task["hops"][0]["condition"]["of"];
    for (i, kind) in ["url", "page_text", "answer", "not"].iter().enumerate() {
        assert_eq!(
            keys(&condition_kind(&s, kind)["properties"]),
            keys(&of[i]),
            "{kind}"
        );
    }
    assert_eq!(
        keys(&condition_kind(&s, "all")["properties"]),
        keys(&task["hops"][0]["condition"])
    );
    assert_eq!(keys(&defs["Hop"]["properties"]), keys(&task["hops"][0]));
    assert_eq!(
        keys(&defs["AnswerCondition"]["properties"]),
        keys(&task["final_answer"]["condition"])
    );
    assert_eq!(
        keys(&defs["FinalAnswer"]["properties"]),
        keys(&task["final_answer"])
    );
    assert_eq!(
        keys(&defs["TaskSource"]["properties"]),
        keys(&task["source"])
    );
    assert!(validator().is_valid(&task), "the full task as written back");
}

#[test]
fn schema_enums_match_the_loader() {
    let s = checked_in();
    let parts: Vec<Value> = s["$defs"]["UrlPart"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|v| match v.get("const") {
            Some(c) => vec![c.clone()],
            None => v["enum"].as_array().unwrap().clone(),
        })
        .collect();
    assert_eq!(parts.len(), 6, "{parts:?}");
    for part in parts {
        let text = FULL.replace(
            r#""part": "param", "param": "q""#,
            &format!(r#""part": {part}"#),
        );
        let needs_param = part == "param";
        let loaded = parse_task(&text);
        assert_eq!(loaded.is_ok(), !needs_param, "part {part}: {loaded:?}");
    }
    for op in s["$defs"]["MatchOp"]["enum"].as_array().unwrap() {
        let text = FULL.replace(r#""op": "equals""#, &format!(r#""op": {op}"#));
        assert!(parse_task(&text).is_ok(), "op {op}");
    }
}

#[test]
fn every_bundled_task_and_the_valid_fixture_validate() {
    let validator = validator();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tasks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    assert!(files.len() >= 30, "bundled tasks: {}", files.len());
    files.push(root().join("tests/fixtures/hopbench/valid.json"));
    for file in files {
        let task: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&task)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", file.display());
    }
}

#[test]
fn imported_mmina_and_webarena_tasks_validate_as_written_back() {
    let validator = validator();
    let mut imported = 0;
    for dir in ["tests/fixtures/mmina", "tests/fixtures/webarena"] {
        for result in import_path(&root().join(dir)).unwrap() {
            let Ok(task) = result.outcome else { continue };
            let value = serde_json::to_value(&task).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| format!("{}: {e}", e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", result.file.display());
            imported += 1;
        }
    }
    assert!(imported >= 5, "imported {imported}");
}

#[test]
fn the_schema_rejects_what_the_loader_rejects_for_its_shape() {
    let validator = validator();
    let bad =
        std::fs::read_to_string(root().join("tests/fixtures/hopbench/bad_token_and_regex.json"))
            .unwrap();
    assert!(parse_task(&bad).is_err());
    assert!(
        !validator.is_valid(&serde_json::from_str(&bad).unwrap()),
        "a blank token"
    );
    let cases = [
        ("no hops", FULL.replace(r#""hops": ["#, r#""hops_": ["#)),
        (
            "an unknown field",
            FULL.replace(r#""id": "x""#, r#""id": "x", "name": "x""#),
        ),
        (
            "op without value",
            FULL.replace(r#""op": "contains", "value": "n""#, r#""op": "contains""#),
        ),
        (
            "an empty page text list",
            FULL.replace(r#""contains": ["c"]"#, r#""contains": []"#),
        ),
        (
            "an empty start URL list",
            FULL.replace(r#"["http://a.test/"]"#, "[]"),
        ),
        (
            "a start URL without scheme",
            FULL.replace(r#"["http://a.test/"]"#, r#"["a.test"]"#),
        ),
        ("an empty id", FULL.replace(r#""id": "x""#, r#""id": """#)),
        (
            "an answer check with no check",
            FULL.replace(
                r#"{"must_include": ["m"], "exact_match": "e", "fuzzy_match": ["f"]}, "required""#,
                r#"{}, "required""#,
            ),
        ),
    ];
    for (what, text) in cases {
        assert_ne!(text, FULL, "{what}: the replacement matched nothing");
        assert!(parse_task(&text).is_err(), "the loader accepts {what}");
        let value: Value = serde_json::from_str(&text).unwrap();
        assert!(!validator.is_valid(&value), "the schema accepts {what}");
    }
}
