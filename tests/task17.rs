//! The one real MMInA task we have (2 checkpoints + END), imported and evaluated.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

mod common;

use hopbench::evaluator::{HopQueue, Verdict};
use hopbench::event::{Event, EventBody};
use hopbench::import::{import_file, Format};
use hopbench::judge::NoJudge;
use hopbench::task::Task;

const LANDING: &str = "https://library.kiwix.org/viewer#wikipedia_en_all_maxi_2024-01/A/User%3AThe_other_Kiwix_guy/Landing";
const ARTICLE: &str =
    "https://library.kiwix.org/viewer#wikipedia_en_all_maxi_2024-01/A/Tokyo_Tower";
const EVENTS_HOME: &str = "https://www.eventbrite.com/";
const TOKYO: &str = "https://www.eventbrite.com/d/japan--tokyo/events/";
const SAN_FRANCISCO: &str = "https://www.eventbrite.com/d/ca--san-francisco/events/";

fn task17() -> Task {
    let path = common::task17_path();
    let result = import_file(&path);
    assert_eq!(result.format, Some(Format::Mmina));
    result.outcome.unwrap()
}

/// Navigations as (tab, url), then an optional answer; returns the queue.
fn run(navigations: &[(u32, &str)], answer: Option<&str>) -> HopQueue {
    let task = task17();
    let mut queue = HopQueue::new(&task);
    for (step, (tab, url)) in navigations.iter().enumerate() {
        queue
            .consume(
                &Event::navigation(step as u32, step as u64 * 1000, *tab, url),
                &mut NoJudge,
            )
            .unwrap();
    }
    if let Some(text) = answer {
        queue
            .consume(&Event::answer(99, 99_000, text), &mut NoJudge)
            .unwrap();
    }
    queue
}

fn answer_passed(verdict: &Verdict) -> bool {
    verdict
        .answer
        .as_ref()
        .and_then(|a| a.check.as_ref())
        .unwrap()
        .passed
}

#[test]
fn imports_as_two_hops_with_an_unrequired_answer() {
    let t = task17();
    assert_eq!(t.id, "mmina/mmina-task-17");
    assert_eq!(t.start_urls, [LANDING]);
    assert_eq!(t.hops.len(), 2);
    assert_eq!(
        t.hops[0].label(),
        "Hop 1: leave Wikipedia (Kiwix viewer) for the next site \
         (a page whose URL contains \"event\", not \"kiwix\")"
    );
    assert!(t.hops[0].pass_event_on);
    assert_eq!(
        t.hops[1].label(),
        "Hop 2: reach a page whose URL contains \"event\" and mentions \"tokyo\", \
         or reach a page whose URL contains every reference answer (\"eventbrite\", \"tokyo\")"
    );
    let answer = t.final_answer.as_ref().unwrap();
    assert!(!answer.required);
    assert_eq!(answer.condition.must_include, ["eventbrite", "tokyo"]);
    let labels: Vec<&str> = t.reference_sites.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels[..3], ["Wiki", "Rent a car", "Book a flight"]);
    assert_eq!(t.reference_sites.len(), 11);
    // cnt_hop 3 = 2 checkpoints + END: no mismatch note.
    let notes = &t.source.as_ref().unwrap().notes;
    assert!(!notes.iter().any(|n| n.contains("cnt_hop")), "{notes:?}");
    // The Kiwix start page no longer satisfies hop 1.
    assert!(!notes.iter().any(|n| n.contains("start URL")), "{notes:?}");
    assert!(
        notes.iter().any(|n| n.starts_with("hop 1 (\"kiwix\"")),
        "{notes:?}"
    );
}

#[test]
fn staying_on_kiwix_completes_nothing() {
    // The start page and an article: the agent never left Wikipedia, so 0 of 2 hops.
    let queue = run(&[(0, LANDING), (0, ARTICLE)], Some("Tokyo"));
    assert_eq!(queue.hops_done(), 0);
    assert!(queue.verdict().reason.starts_with("stopped at hop 1 of 2"));
}

#[test]
fn a_direct_jump_to_tokyo_events_completes_both_hops_at_once() {
    let queue = run(&[(0, LANDING), (0, TOKYO)], None);
    let verdict = queue.verdict();
    assert!(verdict.passed);
    assert_eq!(verdict.hop_steps, [1, 1]);
}

#[test]
fn events_home_page_does_not_complete_the_city_hop() {
    let queue = run(&[(0, LANDING), (0, ARTICLE), (0, EVENTS_HOME)], None);
    assert_eq!(queue.hops_done(), 1);
    // Hop 1 is the events home page: the agent left Kiwix for the next site there.
    assert_eq!(queue.completions()[0].event.step, 2);
    assert!(!queue.at_end());
    let verdict = queue.verdict();
    assert!(!verdict.passed);
    assert!(verdict.reason.starts_with("stopped at hop 2 of 2"));
}

#[test]
fn tokyo_events_complete_the_task_after_the_wikipedia_hop() {
    let queue = run(
        &[(0, LANDING), (0, ARTICLE), (0, EVENTS_HOME), (0, TOKYO)],
        Some(TOKYO),
    );
    assert!(queue.at_end());
    let verdict = queue.verdict();
    assert!(verdict.passed);
    assert_eq!(verdict.hops_done, 2);
    // Hop 1 on leaving Kiwix for the events home page (step 2), not on the start page.
    assert_eq!(verdict.hop_steps, [2, 3]);
    assert!(answer_passed(&verdict));
}

#[test]
fn san_francisco_events_fail_and_the_answer_is_reported_alongside() {
    let queue = run(
        &[
            (0, LANDING),
            (0, ARTICLE),
            (0, EVENTS_HOME),
            (0, SAN_FRANCISCO),
        ],
        Some(SAN_FRANCISCO),
    );
    let verdict = queue.verdict();
    assert!(!verdict.passed);
    assert_eq!(verdict.hops_done, 1);
    assert!(!answer_passed(&verdict));
}

#[test]
fn a_wrong_answer_does_not_change_the_hop_verdict() {
    // required = false: the hops decide PASS, the answer check is reported beside it.
    let queue = run(&[(0, LANDING), (0, TOKYO)], Some(SAN_FRANCISCO));
    let verdict = queue.verdict();
    assert!(verdict.passed);
    assert!(!answer_passed(&verdict));
}

#[test]
fn a_navigation_in_another_tab_counts() {
    let queue = run(&[(0, LANDING), (0, ARTICLE), (1, TOKYO)], None);
    assert!(queue.verdict().passed);
    let completion = &queue.completions()[1];
    assert_eq!(completion.hop, 1);
    assert!(matches!(
        completion.event.body,
        EventBody::Navigation { tab: 1, .. }
    ));
}
