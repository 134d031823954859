//! Reading our task format: valid files load, bad ones name the field.

use super::*;
use crate::condition::{Condition, MatchOp, UrlPart};

const VALID: &str = r#"{
  "id": "demo/tower-events",
  "intent": "Which city has a red tower, Tokyo or San Francisco? Find events there.",
  "start_urls": ["http://127.0.0.1:8101/"],
  "reference_sites": [{"label": "Events", "url": "http://127.0.0.1:8106/"}],
  "hops": [
    {"description": "Find the tower article", "condition": {"kind": "url", "part": "path", "op": "prefix", "value": "/wiki/"}},
    {"condition": {"kind": "all", "of": [
      {"kind": "url", "part": "param", "param": "city", "op": "equals", "value": "tokyo"},
      {"kind": "url", "op": "regex", "value": "^http://127\\.0\\.0\\.1:8106/", "tokens": ["events"]}
    ]}}
  ],
  "final_answer": {"condition": {"must_include": ["tokyo"]}}
}"#;

fn errors_of(text: &str) -> Vec<String> {
    match parse_task(text) {
        Ok(_) => vec![],
        Err(e) => e
            .field_errors()
            .into_iter()
            .map(|f| f.to_string())
            .collect(),
    }
}

#[test]
fn a_valid_task_loads() {
    let t = parse_task(VALID).unwrap();
    assert_eq!(t.hops.len(), 2);
    assert_eq!(t.hops[0].label(), "Find the tower article");
    let Condition::Url(u) = &t.hops[0].condition else {
        panic!("url condition expected")
    };
    assert_eq!((u.part, u.op), (UrlPart::Path, Some(MatchOp::Prefix)));
    assert!(
        t.final_answer.as_ref().unwrap().required,
        "required defaults to true"
    );
    // What we write we can read back unchanged.
    assert_eq!(parse_task(&serde_json::to_string(&t).unwrap()).unwrap(), t);
}

#[test]
fn bad_json_reports_line_and_column() {
    let errors = errors_of("{\n  \"id\": \"x\",\n  \"intent\": }");
    assert_eq!(errors.len(), 1);
    assert!(errors[0].contains("line 3"), "{errors:?}");
}

#[test]
fn missing_and_mistyped_fields_are_named() {
    let missing = VALID.replace(
        r#""intent": "Which city has a red tower, Tokyo or San Francisco? Find events there.","#,
        "",
    );
    assert!(
        errors_of(&missing)[0].contains("missing field `intent`"),
        "{:?}",
        errors_of(&missing)
    );
    let mistyped = VALID.replace(
        r#""start_urls": ["http://127.0.0.1:8101/"]"#,
        r#""start_urls": "http://x""#,
    );
    let e = errors_of(&mistyped);
    assert!(
        e[0].starts_with("start_urls: invalid type: string"),
        "{e:?}"
    );
    let unknown_op = VALID.replace(r#""op": "prefix""#, r#""op": "startswith""#);
    let e = errors_of(&unknown_op);
    assert!(
        e[0].starts_with("hops[0].condition") && e[0].contains("unknown variant `startswith`"),
        "{e:?}"
    );
    let unknown_field = VALID.replace(r#""reference_sites""#, r#""reference_site""#);
    assert!(errors_of(&unknown_field)[0].contains("unknown field `reference_site`"));
}

/// The format's objects are objects: a hop written as the array of its fields, which
/// serde's derive would take in field order, is a wrong type at that hop.
#[test]
fn an_array_in_place_of_an_object_is_named() {
    let arrayed = VALID.replace(
        r#"{"description": "Find the tower article", "condition": {"kind": "url", "part": "path", "op": "prefix", "value": "/wiki/"}}"#,
        r#"["Find the tower article", {"kind": "url", "part": "path", "op": "prefix", "value": "/wiki/"}]"#,
    );
    assert_ne!(arrayed, VALID);
    assert_eq!(
        errors_of(&arrayed),
        vec!["hops[0]: invalid type: sequence, expected struct Hop (line 7, column 4)".to_string()]
    );
}

#[test]
fn content_problems_are_all_reported_with_paths() {
    let bad = VALID
        .replace(r#""tokens": ["events"]"#, r#""tokens": ["events", " "]"#)
        .replace(
            r#""value": "^http://127\\.0\\.0\\.1:8106/""#,
            r#""value": "(unclosed""#,
        )
        .replace(r#""http://127.0.0.1:8101/""#, r#""ftp://x""#)
        .replace(r#""must_include": ["tokyo"]"#, r#""must_include": []"#);
    let e = errors_of(&bad);
    assert_eq!(
        e.iter()
            .map(|s| s.split(':').next().unwrap_or_default())
            .collect::<Vec<_>>(),
        vec![
            "start_urls[0]",
            "hops[1].condition.of[1].value",
            "hops[1].condition.of[1].tokens[1]",
            "final_answer.condition"
        ],
        "{e:?}"
    );
    assert!(e[1].contains("invalid regex"));
    assert!(e[2].contains("empty token"));
}

#[test]
fn a_task_needs_hops() {
    let none = VALID.split("\"hops\"").next().unwrap().to_string() + "\"hops\": []}";
    assert_eq!(
        errors_of(&none),
        vec!["hops: needs at least one hop".to_string()]
    );
}

#[test]
fn reference_trajectory_steps_must_be_actions_once_their_element_is_an_id() {
    let with = |steps: &str| {
        VALID.replace(
            r#""final_answer""#,
            &format!(r#""reference_trajectory": {steps}, "final_answer""#),
        )
    };
    let good = with(
        r#"["click {link 'Tokyo Tower'}", "type {searchbox 'Search'} [tokyo] [1]", "stop [Tokyo]"]"#,
    );
    assert_eq!(errors_of(&good), Vec::<String>::new());
    assert_eq!(parse_task(&good).unwrap().reference_trajectory.len(), 3);

    let bad = with(
        r#"["click {link 'Tokyo Tower'}", "click [4]", "scrol [down]", "stop [x]", "go_back"]"#,
    );
    let e = errors_of(&bad);
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(
        e[0].starts_with("reference_trajectory[1]: \"click [4]\": `click` needs its element written as {role 'name'}"),
        "{e:?}"
    );
    assert!(
        e[1].starts_with("reference_trajectory[2]") && e[1].contains("unknown action `scrol`"),
        "{e:?}"
    );
    assert!(
        e[2].starts_with("reference_trajectory[4]") && e[2].contains("after the stop"),
        "{e:?}"
    );
}

#[test]
fn a_negation_and_a_passed_on_event_load_and_are_checked() {
    let leave = VALID
        .replace(
            r#"{"description": "Find the tower article", "condition": {"kind": "url", "part": "path", "op": "prefix", "value": "/wiki/"}}"#,
            r#"{"pass_event_on": true, "condition": {"kind": "all", "of": [
              {"kind": "not", "condition": {"kind": "url", "op": "contains", "value": "kiwix"}},
              {"kind": "url", "op": "contains", "value": "8106"}]}}"#,
        );
    let t = parse_task(&leave).unwrap();
    assert!(t.hops[0].pass_event_on && !t.hops[1].pass_event_on);
    assert_eq!(parse_task(&serde_json::to_string(&t).unwrap()).unwrap(), t);

    // An empty value inside the negation is named by its path; the last hop has no
    // next hop to pass its event to.
    let bad = leave
        .replace(r#""value": "kiwix""#, r#""value": """#)
        .replace(
            r#"{"condition": {"kind": "all""#,
            r#"{"pass_event_on": true, "condition": {"kind": "all""#,
        );
    let e = errors_of(&bad);
    assert_eq!(
        e.iter()
            .map(|s| s.split(':').next().unwrap_or_default())
            .collect::<Vec<_>>(),
        vec![
            "hops[0].condition.of[0].condition.value",
            "hops[1].pass_event_on"
        ],
        "{e:?}"
    );
}
