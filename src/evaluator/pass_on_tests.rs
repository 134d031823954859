//! A hop that passes its completing event on to the next hop (MMInA's Wikipedia hop):
//! one event may then complete both, never more than the chain allows, and repeated
//! deliveries still change nothing.

use super::*;
use crate::condition::{Condition, NotCondition, UrlCondition};
use crate::judge::NoJudge;
use crate::task::{Hop, Task};
use proptest::prelude::*;

fn url(keyword: &str, tokens: &[&str]) -> Condition {
    Condition::Url(UrlCondition::contains(
        keyword,
        tokens.iter().map(|t| t.to_string()).collect(),
    ))
}

/// Leave Kiwix for the events site; Tokyo events; a Tokyo hotel.
fn kiwix_events_hotel() -> Task {
    let leave = Hop {
        description: None,
        condition: Condition::All {
            of: vec![
                Condition::Not(NotCondition::new(url("kiwix", &[]))),
                url("event", &[]),
            ],
        },
        pass_event_on: true,
    };
    Task {
        schema: None,
        id: "t".into(),
        intent: "hop".into(),
        start_urls: vec!["http://kiwix.test/".into()],
        reference_sites: vec![],
        hops: vec![
            leave,
            Hop::new(None, url("event", &["tokyo"])),
            Hop::new(None, url("hotel", &["tokyo"])),
        ],
        final_answer: None,
        reference_trajectory: Vec::new(),
        alternative_trajectories: Vec::new(),
        source: None,
    }
}

const NONE: [usize; 0] = [];

fn nav(step: u32, tab: u32, url: &str) -> Event {
    Event::navigation(step, u64::from(step), tab, url)
}

#[test]
fn one_event_completes_the_passing_hop_and_the_next() {
    let mut q = HopQueue::new(&kiwix_events_hotel());
    let tokyo = nav(1, 0, "http://events.test/d/tokyo?hotel=no");
    let outcome = q.consume(&tokyo, &mut NoJudge).unwrap();
    assert_eq!(outcome.completed_hops, [0, 1]);
    assert_eq!(outcome.completed_hop, Some(1));
    assert_eq!(q.verdict().hop_steps, [1, 1]);
    // The chain ends at a hop that does not pass its event on: the page also mentions
    // "hotel" and "tokyo", yet hop 3 is not completed by it.
    assert_eq!(q.hops_done(), 2);
    assert_eq!(
        q.consume(&tokyo, &mut NoJudge).unwrap().completed_hops,
        NONE
    );
}

#[test]
fn the_chain_stops_where_the_next_hop_fails_and_a_duplicate_cannot_resume_it() {
    let mut q = HopQueue::new(&kiwix_events_hotel());
    assert_eq!(
        q.consume(&nav(1, 0, "http://kiwix.test/A/Tokyo"), &mut NoJudge)
            .unwrap()
            .completed_hops,
        NONE
    );
    let home = nav(2, 0, "http://events.test/");
    assert_eq!(q.consume(&home, &mut NoJudge).unwrap().completed_hops, [0]);
    assert_eq!(
        q.consume(&nav(3, 0, "http://events.test/"), &mut NoJudge)
            .unwrap()
            .completed_hops,
        NONE
    );
    assert_eq!(
        q.consume(&nav(4, 1, "http://events.test/d/tokyo"), &mut NoJudge)
            .unwrap()
            .completed_hops,
        [1]
    );
}

const URLS: [&str; 6] = [
    "http://kiwix.test/viewer#A/Tokyo",
    "http://kiwix.test/viewer#A/events_in_tokyo",
    "http://events.test/",
    "http://events.test/d/tokyo",
    "http://events.test/d/tokyo/hotel",
    "http://hotel.test/list?city=Tokyo",
];

fn events() -> impl Strategy<Value = Vec<Event>> {
    prop::collection::vec((0u32..2, 0usize..URLS.len()), 0..30).prop_map(|picks| {
        picks
            .into_iter()
            .enumerate()
            .map(|(i, (tab, u))| nav(i as u32, tab, URLS[u]))
            .collect()
    })
}

/// Reference model: MMInA's rules for ["kiwix", "event", "hotel"] with the city
/// Tokyo, where the page that completes the Wikipedia hop is checked against the
/// event hop at once, and no page counts twice otherwise.
fn expected_done(evs: &[Event]) -> usize {
    let holds = |hop: usize, url: &str| match hop {
        0 => !url.contains("kiwix") && url.contains("event"),
        1 => url.contains("event") && url.contains("tokyo"),
        2 => url.contains("hotel") && url.to_lowercase().contains("tokyo"),
        _ => false,
    };
    let mut done = 0;
    let mut last: Option<&EventBody> = None;
    for e in evs {
        let EventBody::Navigation { url, .. } = &e.body else {
            continue;
        };
        if last == Some(&e.body) || !holds(done, url) {
            continue;
        }
        done += 1;
        last = Some(&e.body);
        if done == 1 && holds(1, url) {
            done += 1;
        }
    }
    done
}

proptest! {
    #[test]
    fn chains_match_the_reference_and_duplicates_change_nothing(evs in events()) {
        let mut once = HopQueue::new(&kiwix_events_hotel());
        let mut twice = HopQueue::new(&kiwix_events_hotel());
        for e in &evs {
            let before = once.hops_done();
            let outcome = once.consume(e, &mut NoJudge).unwrap();
            // Only the Wikipedia hop passes its event on: at most two per event.
            prop_assert!(outcome.completed_hops.len() <= 2);
            prop_assert_eq!(once.hops_done(), before + outcome.completed_hops.len());
            twice.consume(e, &mut NoJudge).unwrap();
            let again = twice.consume(e, &mut NoJudge).unwrap();
            prop_assert!(again.completed_hops.is_empty());
        }
        prop_assert_eq!(once.hops_done(), expected_done(&evs));
        prop_assert_eq!(&twice, &once);
    }
}

#[test]
fn judge_questions_cover_the_hop_an_answer_could_be_passed_on_to() {
    use crate::condition::AnswerCondition;
    let answer = |reference: &str| {
        Condition::Answer(AnswerCondition {
            fuzzy_match: vec![reference.into()],
            ..Default::default()
        })
    };
    let mut t = kiwix_events_hotel();
    t.hops = vec![
        Hop {
            description: None,
            condition: answer("tokyo"),
            pass_event_on: true,
        },
        Hop::new(None, answer("red tower")),
        Hop::new(None, answer("hotel")),
    ];
    let q = HopQueue::new(&t);
    let event = Event::answer(1, 0, "Tokyo has the red tower");
    let asked: Vec<String> = q
        .judge_requests(&event)
        .into_iter()
        .map(|r| r.reference)
        .collect();
    assert_eq!(asked, ["red tower", "tokyo"]);
}
