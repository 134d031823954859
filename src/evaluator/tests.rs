//! Evaluator behaviour: ordering, idempotence, monotone progress, answers, judge use.

use super::*;
use crate::condition::{AnswerCondition, Condition, PageTextCondition, UrlCondition};
use crate::judge::{Judgement, MapJudge, NoJudge};
use crate::task::{FinalAnswer, Hop, Task};
use proptest::prelude::*;

fn url_hop(keyword: &str, tokens: &[&str]) -> Hop {
    Hop::new(
        None,
        Condition::Url(UrlCondition::contains(
            keyword,
            tokens.iter().map(|t| t.to_string()).collect(),
        )),
    )
}

fn task(hops: Vec<Hop>, final_answer: Option<FinalAnswer>) -> Task {
    Task {
        schema: None,
        id: "t".into(),
        intent: "do things".into(),
        start_urls: vec!["http://127.0.0.1:1/".into()],
        reference_sites: vec![],
        hops,
        final_answer,
        reference_trajectory: Vec::new(),
        alternative_trajectories: Vec::new(),
        source: None,
    }
}

fn three_sites() -> Task {
    task(
        vec![
            url_hop("wiki.test", &[]),
            url_hop("flights.test", &["nrt"]),
            url_hop("hotels.test", &["tokyo"]),
        ],
        None,
    )
}

fn nav(step: u32, tab: u32, url: &str) -> Event {
    Event::navigation(step, u64::from(step) * 1000, tab, url)
}

#[test]
fn hops_complete_in_order_and_record_the_event() {
    let mut q = HopQueue::new(&three_sites());
    let mut j = NoJudge;
    // Hop 2's page first: it does not count, the head is still hop 1.
    assert_eq!(
        q.consume(&nav(1, 0, "http://flights.test/search?to=NRT"), &mut j)
            .unwrap()
            .completed_hop,
        None
    );
    assert_eq!(
        q.consume(&nav(2, 0, "http://wiki.test/A/Tokyo"), &mut j)
            .unwrap()
            .completed_hop,
        Some(0)
    );
    // The flight page must be reached again now that hop 2 is the head; tab 1 counts.
    assert_eq!(
        q.consume(&nav(3, 1, "http://flights.test/search?to=NRT"), &mut j)
            .unwrap()
            .completed_hop,
        Some(1)
    );
    let p = q.progress();
    assert_eq!((p.done, p.total, p.at_end), (2, 3, false));
    assert_eq!(
        p.current.as_deref(),
        Some("reach a page whose URL contains \"hotels.test\" with \"tokyo\" in the URL")
    );
    assert_eq!(
        p.hops[1].state,
        HopState::Done {
            step: 3,
            time_ms: 3000
        }
    );
    assert_eq!(p.hops[2].state, HopState::Current);
    assert_eq!(
        q.completions()[1].event,
        nav(3, 1, "http://flights.test/search?to=NRT")
    );
    q.consume(&nav(4, 1, "http://hotels.test/list?city=Tokyo"), &mut j)
        .unwrap();
    let v = q.verdict();
    assert!(v.passed && q.at_end());
    assert_eq!(v.hop_steps, vec![2, 3, 4]);
    assert_eq!(v.reason, "all hops completed");
}

#[test]
fn a_single_event_credits_one_hop_only() {
    // Both hops accept the same URL: one navigation may not complete both.
    let t = task(
        vec![url_hop("site.test", &[]), url_hop("site.test", &[])],
        None,
    );
    let mut q = HopQueue::new(&t);
    let e = nav(1, 0, "http://site.test/a");
    assert_eq!(q.consume(&e, &mut NoJudge).unwrap().completed_hop, Some(0));
    assert_eq!(q.consume(&e, &mut NoJudge).unwrap().completed_hop, None);
    // A duplicate report at a later step of the same page is still the same page.
    assert_eq!(
        q.consume(&nav(2, 0, "http://site.test/a"), &mut NoJudge)
            .unwrap()
            .completed_hop,
        None
    );
    assert_eq!(
        q.consume(&nav(3, 0, "http://site.test/b"), &mut NoJudge)
            .unwrap()
            .completed_hop,
        Some(1)
    );
}

#[test]
fn page_text_does_not_recredit_a_url_hop() {
    let t = task(
        vec![url_hop("site.test", &[]), url_hop("site.test", &[])],
        None,
    );
    let mut q = HopQueue::new(&t);
    q.consume(&nav(1, 0, "http://site.test/a"), &mut NoJudge)
        .unwrap();
    let text = Event::page_text(1, 1000, 0, "http://site.test/a", "hello");
    assert_eq!(q.consume(&text, &mut NoJudge).unwrap().completed_hop, None);
}

#[test]
fn page_text_and_url_combination() {
    let cond = Condition::All {
        of: vec![
            Condition::Url(UrlCondition::contains("wiki.test", vec![])),
            Condition::PageText(PageTextCondition {
                contains: vec!["red tower".into()],
                case_sensitive: false,
            }),
        ],
    };
    let t = task(
        vec![Hop::new(Some("read about the tower".into()), cond)],
        None,
    );
    let mut q = HopQueue::new(&t);
    assert_eq!(
        q.consume(&nav(1, 0, "http://wiki.test/Tokyo_Tower"), &mut NoJudge)
            .unwrap()
            .completed_hop,
        None
    );
    let wrong_site = Event::page_text(1, 1, 0, "http://other.test/", "a Red Tower");
    assert_eq!(
        q.consume(&wrong_site, &mut NoJudge).unwrap().completed_hop,
        None
    );
    let seen = Event::page_text(
        2,
        2,
        0,
        "http://wiki.test/Tokyo_Tower",
        "Tokyo Tower is a red tower",
    );
    assert_eq!(
        q.consume(&seen, &mut NoJudge).unwrap().completed_hop,
        Some(0)
    );
    assert_eq!(q.progress().hops[0].description, "read about the tower");
}

#[test]
fn answer_hop_uses_the_judge_and_errors_change_nothing() {
    let hop = Hop::new(
        None,
        Condition::Answer(AnswerCondition {
            fuzzy_match: vec!["gold".into()],
            ..Default::default()
        }),
    );
    let mut q = HopQueue::new(&task(vec![url_hop("shop.test", &[]), hop], None));
    q.consume(&nav(1, 0, "http://shop.test/item/1"), &mut NoJudge)
        .unwrap();
    let answer = Event::answer(2, 2000, "the colour is yellow");
    assert_eq!(q.judge_requests(&answer).len(), 1);
    let before = q.clone();
    assert!(q.consume(&answer, &mut NoJudge).is_err());
    assert_eq!(q, before, "a judge failure must leave the queue untouched");
    let mut judge = MapJudge::default();
    judge.insert("the colour is yellow", "gold", true);
    assert_eq!(
        q.consume(&answer, &mut judge).unwrap().completed_hop,
        Some(1)
    );
    assert!(q.verdict().passed);
}

#[test]
fn an_answer_hop_the_judge_could_not_decide_stays_open_and_the_verdict_says_why() {
    let hop = Hop::new(
        Some("Name the colour".into()),
        Condition::Answer(AnswerCondition {
            fuzzy_match: vec!["gold".into()],
            ..Default::default()
        }),
    );
    let mut q = HopQueue::new(&task(vec![url_hop("shop.test", &[]), hop], None));
    q.consume(&nav(1, 0, "http://shop.test/item/1"), &mut NoJudge)
        .unwrap();
    let answer = Event::answer(2, 2000, "the colour is yellow");
    let failed = Judgement::failed(&q.judge_requests(&answer)[0], "openai judge", "timeout");
    let outcome = q.consume_judged(&answer, vec![failed.clone()]).unwrap();
    assert_eq!(outcome.completed_hop, None);
    assert!(outcome.answer_scored);
    let v = q.verdict();
    assert!(!v.passed);
    assert_eq!(
        v.reason,
        "stopped at hop 2 of 2: Name the colour \
         (the judge gave no verdict on the answer: the judge call failed: timeout)"
    );
    assert_eq!(v.answer.unwrap().judgements, vec![failed]);
}

#[test]
fn final_answer_is_reported_alongside_and_required_when_asked() {
    let fa = |required| FinalAnswer {
        condition: AnswerCondition {
            must_include: vec!["tokyo".into()],
            ..Default::default()
        },
        required,
    };
    for required in [false, true] {
        let mut q = HopQueue::new(&task(vec![url_hop("events.test", &[])], Some(fa(required))));
        q.consume(&nav(1, 0, "http://events.test/"), &mut NoJudge)
            .unwrap();
        assert!(
            q.consume(&Event::answer(2, 2, "San Francisco"), &mut NoJudge)
                .unwrap()
                .answer_scored
        );
        let v = q.verdict();
        assert_eq!(v.passed, !required);
        let check = v.answer.as_ref().and_then(|a| a.check.clone()).unwrap();
        assert!(!check.passed);
        if required {
            assert!(v.reason.contains("answer failed"), "{}", v.reason);
        }
    }
}

#[test]
fn verdict_names_the_hop_where_it_stopped() {
    let mut q = HopQueue::new(&three_sites());
    q.consume(&nav(1, 0, "http://wiki.test/"), &mut NoJudge)
        .unwrap();
    let v = q.verdict();
    assert!(!v.passed);
    assert_eq!(v.reason, "stopped at hop 2 of 3: reach a page whose URL contains \"flights.test\" with \"nrt\" in the URL");
}

#[test]
fn empty_token_never_matches() {
    let mut q = HopQueue::new(&task(vec![url_hop("events.test", &[""])], None));
    for url in [
        "http://events.test/",
        "http://events.test/d/tokyo",
        "http://x.test/",
    ] {
        q.consume(&nav(1, 0, url), &mut NoJudge).unwrap();
    }
    assert_eq!(q.hops_done(), 0);
}

#[test]
fn queue_survives_serialisation_mid_run() {
    let mut q = HopQueue::new(&three_sites());
    q.consume(&nav(1, 0, "http://wiki.test/"), &mut NoJudge)
        .unwrap();
    let restored: HopQueue = serde_json::from_str(&serde_json::to_string(&q).unwrap()).unwrap();
    assert_eq!(restored, q);
}

const URLS: [&str; 6] = [
    "http://wiki.test/A/Tokyo",
    "http://flights.test/search?to=NRT",
    "http://flights.test/search?to=SFO",
    "http://hotels.test/list?city=Tokyo",
    "http://hotels.test/list?city=Paris",
    "http://elsewhere.test/",
];

fn events() -> impl Strategy<Value = Vec<Event>> {
    prop::collection::vec((0u32..3, 0usize..URLS.len()), 0..40).prop_map(|picks| {
        picks
            .into_iter()
            .enumerate()
            .map(|(i, (tab, u))| nav(i as u32, tab, URLS[u]))
            .collect()
    })
}

/// Reference model of the paper's queue: walk the events, pop the head when it matches.
fn expected_done(evs: &[Event]) -> usize {
    let needles = [
        ("wiki.test", ""),
        ("flights.test", "nrt"),
        ("hotels.test", "tokyo"),
    ];
    let mut done = 0;
    let mut last: Option<&str> = None;
    for e in evs {
        let EventBody::Navigation { url, .. } = &e.body else {
            continue;
        };
        if let Some((site, token)) = needles.get(done) {
            let lower = url.to_lowercase();
            if Some(url.as_str()) != last && lower.contains(site) && lower.contains(token) {
                done += 1;
                last = Some(url.as_str());
            }
        }
    }
    done
}

proptest! {
    #[test]
    fn progress_is_monotone_ordered_and_matches_the_reference(evs in events()) {
        let mut q = HopQueue::new(&three_sites());
        let mut previous = 0;
        for e in &evs {
            q.consume(e, &mut NoJudge).unwrap();
            prop_assert!(q.hops_done() >= previous, "progress went back");
            prop_assert!(q.hops_done() <= previous + 1, "one event credited two hops");
            previous = q.hops_done();
        }
        prop_assert_eq!(q.hops_done(), expected_done(&evs));
        // Completions are recorded in hop order, at non-decreasing steps.
        for (i, c) in q.completions().iter().enumerate() {
            prop_assert_eq!(c.hop, i);
        }
        prop_assert!(q.completions().windows(2).all(|w| w[0].event.step <= w[1].event.step));
    }

    #[test]
    fn repeating_an_event_changes_nothing(evs in events()) {
        let mut once = HopQueue::new(&three_sites());
        let mut twice = HopQueue::new(&three_sites());
        for e in &evs {
            once.consume(e, &mut NoJudge).unwrap();
            twice.consume(e, &mut NoJudge).unwrap();
            let after_first = twice.clone();
            let again = twice.consume(e, &mut NoJudge).unwrap();
            prop_assert_eq!(again.completed_hop, None);
            prop_assert_eq!(&twice, &after_first);
        }
        // A stream with every event delivered twice scores exactly like the plain one.
        prop_assert_eq!(&twice, &once);
    }
}
