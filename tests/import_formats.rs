//! WebArena configs, our own format, and format detection.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use hopbench::condition::Condition;
use hopbench::evaluator::HopQueue;
use hopbench::event::Event;
use hopbench::import::{detect_format, import_file, import_str, Format, ImportError};
use hopbench::judge::NoJudge;
use hopbench::task::Task;
use serde_json::json;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

fn imported(rel: &str) -> (Format, Task) {
    let result = import_file(&fixture(rel));
    let format = result.format.unwrap();
    (format, result.outcome.unwrap())
}

fn notes(task: &Task) -> &[String] {
    &task.source.as_ref().unwrap().notes
}

#[test]
fn detects_formats_from_fields() {
    assert_eq!(
        detect_format(&json!({"id": "a", "hops": []})),
        Some(Format::Hopbench)
    );
    assert_eq!(
        detect_format(&json!({"task_id": 1, "procedure": ["end"]})),
        Some(Format::Mmina)
    );
    assert_eq!(
        detect_format(&json!({"task_id": 1, "cnt_hop": 1, "eval": {}})),
        Some(Format::Mmina)
    );
    assert_eq!(
        detect_format(&json!({"task_id": 1, "eval": {}})),
        Some(Format::Webarena)
    );
    assert_eq!(detect_format(&json!({"task_id": 1})), None);
    assert_eq!(detect_format(&json!([1, 2])), None);
}

#[test]
fn unknown_format_is_an_error_naming_the_file() {
    let result = import_str(r#"{"name": "x"}"#, Path::new("odd.json"));
    assert_eq!(result.format, None);
    let error = result.outcome.unwrap_err();
    assert!(matches!(error, ImportError::UnknownFormat { .. }));
    assert!(error
        .to_string()
        .starts_with("odd.json: unknown task format"));
}

#[test]
fn a_one_hop_file_in_an_mmina_subset_folder_is_mmina_without_cnt_hop() {
    let text = r#"{"task_id": 7, "start_url": "http://localhost:7770/", "intent": "Price of X?",
        "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["9.99"]}}}"#;
    let in_subset = import_str(text, Path::new("data/mmina/shopping/7.json"));
    assert_eq!(in_subset.format, Some(Format::Mmina));
    assert_eq!(in_subset.outcome.unwrap().id, "mmina/shopping/7");
    let elsewhere = import_str(text, Path::new("configs/7.json"));
    assert_eq!(elsewhere.format, Some(Format::Webarena));
    assert_eq!(elsewhere.outcome.unwrap().id, "webarena/7");
}

#[test]
fn webarena_fuzzy_na_string_becomes_exact_na() {
    let (format, t) = imported("webarena/21.json");
    assert_eq!(format, Format::Webarena);
    assert_eq!(t.id, "webarena/21");
    match &t.hops[0].condition {
        Condition::Answer(a) => {
            assert_eq!(a.exact_match.as_deref(), Some("N/A"));
            assert!(a.fuzzy_match.is_empty());
        }
        other => panic!("expected an answer hop, got {other:?}"),
    }
    assert!(notes(&t).iter().any(|n| n.contains("\"N/A\"")));
    let mut queue = HopQueue::new(&t);
    queue
        .consume(&Event::answer(3, 0, "n/a"), &mut NoJudge)
        .unwrap();
    assert!(queue.verdict().passed);
}

#[test]
fn webarena_program_html_on_two_pages_is_two_ordered_hops() {
    let (_, t) = imported("webarena/174.json");
    assert_eq!(t.hops.len(), 2);
    assert!(notes(&t).iter().any(|n| n.contains("2 different pages")));
    let members = "http://localhost:8023/byteblaze/dotfiles/-/project_members";
    let mut queue = HopQueue::new(&t);
    let mut feed = |e: Event| queue.consume(&e, &mut NoJudge).unwrap().completed_hop;
    assert_eq!(feed(Event::navigation(1, 0, 0, members)), None);
    // The right page without the text, then the text on another page: neither counts.
    assert_eq!(
        feed(Event::page_text(2, 0, 0, members, "No members yet")),
        None
    );
    assert_eq!(
        feed(Event::page_text(
            3,
            0,
            0,
            "http://localhost:8023/",
            "@vinta Developer"
        )),
        None
    );
    assert_eq!(
        feed(Event::page_text(
            4,
            0,
            0,
            members,
            "Vinta Chen @vinta  Maintainer"
        )),
        Some(0)
    );
    assert_eq!(
        feed(Event::page_text(
            5,
            0,
            0,
            members,
            "Members were successfully added"
        )),
        Some(1)
    );
}

#[test]
fn webarena_url_and_string_checks_both_required() {
    let (_, t) = imported("webarena/265.json");
    assert!(t.final_answer.as_ref().unwrap().required);
    let route = "http://localhost:3000/directions?engine=fossgis_osrm_car&route=40.44%2C-79.94%3B40.49%2C-80.23";
    let run = |answer: &str| {
        let mut queue = HopQueue::new(&t);
        queue
            .consume(&Event::navigation(1, 0, 0, route), &mut NoJudge)
            .unwrap();
        queue
            .consume(&Event::answer(2, 0, answer), &mut NoJudge)
            .unwrap();
        queue.verdict().passed
    };
    assert!(run("pittsburgh"));
    assert!(!run("Philadelphia"));
}

#[test]
fn webarena_placeholders_are_reported_per_field() {
    let result = import_file(&fixture("webarena/500.json"));
    assert_eq!(result.format, Some(Format::Webarena));
    let errors = result.outcome.unwrap_err().field_errors();
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["start_url", "eval.reference_url"]);
    assert!(errors[0].message.contains("__SHOPPING__"));
    assert!(errors[0].message.contains("substitute"));
}

#[test]
fn own_format_valid_and_invalid() {
    let (format, t) = imported("hopbench/valid.json");
    assert_eq!(format, Format::Hopbench);
    assert_eq!(t.id, "demo/red-tower-events");
    assert_eq!(t.hops.len(), 2);

    let result = import_file(&fixture("hopbench/bad_token_and_regex.json"));
    let error = result.outcome.unwrap_err();
    assert!(matches!(error, ImportError::Invalid { .. }));
    let paths: Vec<String> = error.field_errors().into_iter().map(|e| e.path).collect();
    assert_eq!(
        paths,
        ["hops[0].condition.value", "hops[1].condition.tokens[1]"]
    );
}
