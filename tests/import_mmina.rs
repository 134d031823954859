//! The MMInA fixture folder (all six subsets) and the malformed files.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use hopbench::condition::{Condition, MatchOp};
use hopbench::evaluator::HopQueue;
use hopbench::event::Event;
use hopbench::import::{import_path, FileResult, Format, ImportError};
use hopbench::judge::{MapJudge, NoJudge};
use hopbench::task::Task;
use std::path::{Path, PathBuf};

fn fixtures(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(sub)
}

fn mmina() -> Vec<FileResult> {
    import_path(&fixtures("mmina")).unwrap()
}

fn task(id: &str) -> Task {
    mmina()
        .into_iter()
        .filter_map(|r| r.outcome.ok())
        .find(|t| t.id == id)
        .unwrap_or_else(|| panic!("no task {id}"))
}

fn contains(condition: &Condition) -> (String, Vec<String>) {
    match condition {
        Condition::Url(c) => {
            assert_eq!(c.op, Some(MatchOp::Contains));
            (c.value.clone().unwrap(), c.tokens.clone())
        }
        other => panic!("not a URL condition: {other:?}"),
    }
}

/// The checkpoint's page of hop `i`: its URL condition, or for the last hop the first
/// alternative (the second is MMInA's "every must_include reference in the URL").
fn url_hop(task: &Task, i: usize) -> (String, Vec<String>) {
    let hop = &task.hops[i];
    assert!(!hop.pass_event_on, "hop {i} of {}", task.id);
    match &hop.condition {
        Condition::Any { of } if i + 1 == task.hops.len() => {
            assert_eq!(of.len(), 2, "{of:?}");
            contains(&of[0])
        }
        other => contains(other),
    }
}

/// A Wikipedia hop: (the keyword its page must not contain, the next checkpoint).
fn leaving_hop(task: &Task, i: usize) -> (String, String) {
    let hop = &task.hops[i];
    assert!(hop.pass_event_on, "hop {i} of {}", task.id);
    let Condition::All { of } = &hop.condition else {
        panic!("hop {i} of {}: {:?}", task.id, hop.condition);
    };
    let Condition::Not(not) = &of[0] else {
        panic!("{of:?}");
    };
    let (left, none) = contains(&not.condition);
    assert!(none.is_empty());
    let (next, tokens) = contains(&of[1]);
    assert!(tokens.is_empty(), "MMInA checks the next checkpoint alone");
    (left, next)
}

fn notes(task: &Task) -> Vec<String> {
    task.source.as_ref().unwrap().notes.clone()
}

/// Feeds navigations (tab 0) and returns how many hops were completed.
fn hops_done(task: &Task, urls: &[&str]) -> usize {
    let mut queue = HopQueue::new(task);
    for (step, url) in urls.iter().enumerate() {
        queue
            .consume(&Event::navigation(step as u32, 0, 0, url), &mut NoJudge)
            .unwrap();
    }
    queue.hops_done()
}

#[test]
fn every_subset_imports_in_folder_then_numeric_order() {
    let results = mmina();
    let got: Vec<(String, usize)> = results
        .iter()
        .map(|r| {
            assert_eq!(r.format, Some(Format::Mmina), "{}", r.file.display());
            let t = r.outcome.as_ref().unwrap();
            (t.id.clone(), t.hops.len())
        })
        .collect();
    let expected = [
        ("mmina/compare/1", 3),
        ("mmina/compare/2", 4),
        ("mmina/multi567/1", 5),
        ("mmina/multi567/2", 7),
        ("mmina/multipro/1", 8),
        ("mmina/multipro/2", 10),
        ("mmina/normal/1", 2),
        ("mmina/normal/2", 2),
        ("mmina/normal/3", 2),
        ("mmina/shopping/1", 1),
        ("mmina/shopping/2", 1),
        ("mmina/shopping/3", 1),
        ("mmina/shopping/10", 1),
        ("mmina/wikipedia/1", 1),
        ("mmina/wikipedia/2", 1),
        ("mmina/wikipedia/3", 1),
        ("mmina/wikipedia/4", 1),
    ];
    let expected: Vec<(String, usize)> = expected
        .iter()
        .map(|(id, n)| (id.to_string(), *n))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn procedure_checkpoints_become_ordered_url_hops_with_tokens() {
    let t = task("mmina/normal/1");
    assert_eq!(leaving_hop(&t, 0), ("kiwix".into(), "hotel".into()));
    assert_eq!(url_hop(&t, 1), ("hotel".into(), vec!["paris".into()]));
    assert_eq!(
        t.hops[1].description.as_deref(),
        Some(
            "Hop 2: reach a page whose URL contains \"hotel\" and mentions \"paris\", \
             or reach a page whose URL contains every reference answer (\"trip.com\", \"paris\")"
        )
    );
    let answer = t.final_answer.as_ref().unwrap();
    assert!(!answer.required);
    assert_eq!(answer.condition.must_include, ["trip.com", "paris"]);
    assert_eq!(t.source.as_ref().unwrap().format, "mmina");

    // Only a `momondo` checkpoint takes the airport code: a checkpoint named "flight"
    // is an ordinary one in MMInA's loop and needs the city (split in words).
    let t = task("mmina/compare/2");
    assert_eq!(
        url_hop(&t, 1),
        ("flight".into(), vec!["new".into(), "york".into()])
    );
    assert_eq!(
        url_hop(&t, 3),
        ("car".into(), vec!["new".into(), "york".into()])
    );
    let kiwix =
        "https://library.kiwix.org/viewer#wikipedia_en_all_maxi_2024-01/A/Statue_of_Liberty";
    let flight = "https://sg.trip.com/flights/london-to-new-york/airfares-lon-nyc/";
    let hotel = "https://sg.trip.com/hotels/list?city=633&cityName=New%20York";
    let car = "https://sg.trip.com/carhire/?pickupCity=new-york";
    // Leaving Kiwix for the flight page completes hops 1 and 2 at once.
    assert_eq!(hops_done(&t, &[kiwix, flight, hotel, car]), 4);
    // Strictly in order: the hotel before the flight does not count, and neither does
    // the Kiwix page the agent started on.
    assert_eq!(hops_done(&t, &[kiwix, hotel, car]), 0);
    // An airport code without the city completes the Kiwix hop only.
    let momondo = "https://www.momondo.com/flight-search/LON-JFK/2024-06-01";
    assert_eq!(hops_done(&t, &[kiwix, momondo, hotel, car]), 1);

    let t = task("mmina/multipro/2");
    assert_eq!(url_hop(&t, 9), ("youtube".into(), vec!["barcelona".into()]));
}

#[test]
fn wikipedia_first_tasks_can_pass() {
    let t = task("mmina/normal/1");
    let done = hops_done(
        &t,
        &[
            "https://library.kiwix.org/viewer#wikipedia_en_all_maxi_2024-01/A/Louvre",
            "https://sg.trip.com/hotels/list?city=192&cityName=Paris",
        ],
    );
    assert_eq!(done, 2);
}

#[test]
fn empty_tokens_give_no_token_and_a_note() {
    let t = task("mmina/normal/2");
    assert_eq!(url_hop(&t, 1), ("car".into(), vec![]));
    assert!(notes(&t)
        .iter()
        .any(|n| n.contains("hop 2") && n.contains("`city` is empty")));

    let t = task("mmina/compare/1");
    assert_eq!(url_hop(&t, 1), ("7770".into(), vec![]));
    let shop_notes = notes(&t)
        .iter()
        .filter(|n| n.contains("`shop` is empty"))
        .count();
    assert_eq!(shop_notes, 2);
}

#[test]
fn cnt_hop_mismatch_is_a_note() {
    let t = task("mmina/multi567/2");
    assert_eq!(t.hops.len(), 7);
    assert!(notes(&t).iter().any(|n| n.contains("cnt_hop is 7")));
    // cnt_hop counts END: 5 checkpoints and cnt_hop 6 is no mismatch.
    assert!(!notes(&task("mmina/multi567/1"))
        .iter()
        .any(|n| n.contains("cnt_hop")));
}

#[test]
fn reference_sites_come_from_the_intent() {
    let t = task("mmina/multipro/1");
    assert_eq!(t.reference_sites.len(), 11);
    assert_eq!(t.reference_sites[0].label, "Wiki");
    assert_eq!(t.reference_sites[9].label, "Exchange dollars");
    assert_eq!(t.reference_sites[9].url, "https://www.xe.com/");
    assert!(t
        .intent
        .ends_with("Plan a full trip there and exchange dollars."));
}

fn answer_hop_passes(task: &Task, answer: &str, judge: &mut MapJudge) -> bool {
    let mut queue = HopQueue::new(task);
    queue.consume(&Event::answer(1, 0, answer), judge).unwrap();
    queue.verdict().passed
}

#[test]
fn string_match_one_hop_tasks_are_answer_hops() {
    let mut judge = MapJudge::default();
    let t = task("mmina/shopping/1");
    assert!(matches!(t.hops[0].condition, Condition::Answer(_)));
    assert!(t.final_answer.is_none());
    assert!(answer_hop_passes(&t, "It costs $24.99", &mut judge));
    assert!(!answer_hop_passes(&t, "It costs $29.99", &mut judge));

    let t = task("mmina/wikipedia/1");
    assert!(answer_hop_passes(&t, "\"1958\"", &mut judge));
    assert!(!answer_hop_passes(&t, "1958 or 1957", &mut judge));

    let t = task("mmina/wikipedia/2");
    judge.insert("It is made of puddled iron", "wrought iron", true);
    judge.insert("It is made of steel", "wrought iron", false);
    assert!(answer_hop_passes(
        &t,
        "It is made of puddled iron",
        &mut judge
    ));
    assert!(!answer_hop_passes(&t, "It is made of steel", &mut judge));
}

#[test]
fn url_match_exact_and_gold_in_pred() {
    let t = task("mmina/shopping/3");
    let sorted = "http://localhost:7770/electronics/headphones.html?product_list_order=price";
    assert_eq!(hops_done(&t, &[sorted]), 1);
    assert_eq!(hops_done(&t, &[&format!("{sorted}&p=2")]), 0);

    let t = task("mmina/wikipedia/3");
    let page = "https://library.kiwix.org/viewer#wikipedia_en_all_maxi_2024-01/A/Tokyo_Skytree";
    assert_eq!(hops_done(&t, &[page]), 1);
    assert_eq!(
        hops_done(
            &t,
            &["https://library.kiwix.org/viewer#wikipedia_en_all_maxi_2024-01/A/Tokyo_Tower"]
        ),
        0
    );
}

#[test]
fn url_check_is_the_hop_and_string_check_a_required_answer() {
    let t = task("mmina/wikipedia/4");
    assert_eq!(t.hops.len(), 1);
    assert!(t.final_answer.as_ref().unwrap().required);
    let page = "https://library.kiwix.org/viewer#wikipedia_en_all_maxi_2024-01/A/Tokyo_Tower";
    let run = |answer: &str| {
        let mut queue = HopQueue::new(&t);
        queue
            .consume(&Event::navigation(1, 0, 0, page), &mut NoJudge)
            .unwrap();
        queue
            .consume(&Event::answer(2, 0, answer), &mut NoJudge)
            .unwrap();
        queue.verdict()
    };
    assert!(run("333 m").passed);
    let wrong = run("300 m");
    assert!(!wrong.passed);
    assert_eq!(wrong.hops_done, 1);
}

#[test]
fn program_html_checks_page_text_with_or_alternatives() {
    let t = task("mmina/shopping/2");
    assert!(notes(&t).iter().any(|n| n.contains("locator")));
    let url = "http://localhost:7770/anker-powercore-10000.html";
    let seen = |text: &str| {
        let mut queue = HopQueue::new(&t);
        queue
            .consume(&Event::navigation(1, 0, 0, url), &mut NoJudge)
            .unwrap();
        queue
            .consume(&Event::page_text(1, 0, 0, url, text), &mut NoJudge)
            .unwrap();
        queue.hops_done()
    };
    assert_eq!(
        seen("Anker PowerCore 10000  $25.99  Available  Add to Cart"),
        1
    );
    assert_eq!(seen("Anker PowerCore 10000 IN STOCK"), 1);
    assert_eq!(seen("Anker PowerCore 10000 Out of stock"), 0);
}

fn error_of(file: &str) -> ImportError {
    let path = fixtures("malformed").join(file);
    let results = import_path(&path).unwrap();
    assert_eq!(results.len(), 1);
    let result = results.into_iter().next().unwrap();
    let error = result
        .outcome
        .expect_err("a malformed file must not import");
    assert_eq!(error.file(), path.as_path());
    assert!(error.to_string().contains(file), "{error}");
    error
}

fn assert_field(file: &str, path: &str, message_part: &str) {
    let errors = error_of(file).field_errors();
    assert!(
        errors
            .iter()
            .any(|e| e.path == path && e.message.contains(message_part)),
        "{file}: expected {path}: ...{message_part}..., got {errors:?}"
    );
}

#[test]
fn malformed_files_name_the_file_and_the_field() {
    assert_field("bad_json.json", "(file)", "not valid JSON");
    assert_field("bad_json.json", "(file)", "line 31");
    assert_field(
        "missing_field.json",
        "(top level)",
        "missing field `start_url`",
    );
    assert_field(
        "mistyped_field.json",
        "eval.reference_answers.must_include[1]",
        "expected a string",
    );
    assert_field(
        "unknown_eval_type.json",
        "eval.eval_types[1]",
        "unknown eval type \"html_match\" (expected string_match, url_match or program_html)",
    );
    assert_field("no_end.json", "procedure", "\"end\" is missing");
    assert_field("end_not_last.json", "procedure[1]", "must be last");
    assert_field(
        "empty_keyword.json",
        "final_answer.condition.must_include[1]",
        "empty keyword",
    );
    assert!(matches!(
        error_of("empty_keyword.json"),
        ImportError::Invalid { .. }
    ));
}

#[test]
fn bad_files_do_not_stop_the_others() {
    let results = import_path(&fixtures("")).unwrap();
    let failed: Vec<String> = results
        .iter()
        .filter(|r| r.outcome.is_err())
        .map(|r| {
            let rel = r.file.strip_prefix(fixtures("")).unwrap();
            rel.to_string_lossy().into_owned()
        })
        // tests/fixtures/cdp/ holds CDP captures for the observation tests,
        // tests/fixtures/report/ run folders for the report tests and
        // tests/fixtures/wrong-trajectories/ trajectories for the suite replay: not tasks.
        .filter(|rel| {
            !["cdp/", "report/", "wrong-trajectories/"]
                .iter()
                .any(|dir| rel.starts_with(dir))
        })
        .collect();
    assert_eq!(
        failed,
        [
            "hopbench/bad_token_and_regex.json",
            "malformed/bad_json.json",
            "malformed/empty_keyword.json",
            "malformed/end_not_last.json",
            "malformed/missing_field.json",
            "malformed/mistyped_field.json",
            "malformed/no_end.json",
            "malformed/unknown_eval_type.json",
            "webarena/500.json",
        ]
    );
    assert_eq!(results.iter().filter(|r| r.outcome.is_ok()).count(), 21);
}
