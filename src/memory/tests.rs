#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests: a panic with the value is the failure report"
)]

use super::*;
use crate::action::Action;
use crate::agent::FinishCause;

const PAGE: &str = "Tab 0 (current): Events

[1] RootWebArea 'Events' focused: True
\t[40] combobox 'City' expanded: False
\t[41] button 'Find events'
\t[42] link \"Rock 'n' roll night\"
\t[43] img";

fn record(id: &str, intent: &str, sites: &[&str]) -> MemoryRecord {
    MemoryRecord {
        task_id: id.to_string(),
        subset: subset_of(id).to_string(),
        intent: intent.to_string(),
        sites: sites.iter().map(|s| s.to_string()).collect(),
        steps: vec![MemoryStep {
            action: Some("click {link 'Hotels'}".into()),
            site: sites.first().map(|s| s.to_string()),
        }],
        hops_total: 2,
        hop_steps: vec![1],
        verdict: MemoryVerdict::Fail,
        ended: FinishCause::EarlyStop,
        by_person: false,
    }
}

fn query(id: &str, intent: &str, sites: &[&str]) -> MemoryQuery {
    MemoryQuery {
        task_id: id.to_string(),
        subset: subset_of(id).to_string(),
        intent: intent.to_string(),
        sites: sites.iter().map(|s| s.to_string()).collect(),
    }
}

fn ids(records: &[&MemoryRecord]) -> Vec<String> {
    records.iter().map(|r| r.task_id.clone()).collect()
}

#[test]
fn roles_and_names_are_read_as_the_observation_prints_them() {
    assert_eq!(
        role_and_name("link 'Tokyo' focused: True"),
        Some(("link", "'Tokyo'"))
    );
    assert_eq!(
        role_and_name(r#"link "Rock 'n' roll night""#),
        Some(("link", r#""Rock 'n' roll night""#))
    );
    assert_eq!(
        role_and_name(r"button 'it\'s here' disabled: True"),
        Some(("button", r"'it\'s here'"))
    );
    assert_eq!(role_and_name("img"), Some(("img", "")));
    assert_eq!(role_and_name(""), None);
}

#[test]
fn actions_name_their_element_and_a_stop_keeps_no_answer() {
    let text = |a: Action| memory_action_text(&a, PAGE);
    assert_eq!(
        text(Action::Click { id: 41 }),
        "click {button 'Find events'}"
    );
    assert_eq!(
        text(Action::Type {
            id: 40,
            text: "Sydney".into(),
            press_enter: false
        }),
        "type {combobox 'City'} [Sydney] [0]"
    );
    assert_eq!(
        text(Action::Hover { id: 42 }),
        r#"hover {link "Rock 'n' roll night"}"#
    );
    assert_eq!(text(Action::Click { id: 43 }), "click {img}");
    assert_eq!(
        text(Action::Click { id: 99 }),
        "click [99] (not in the observation)"
    );
    let stop = text(Action::Stop {
        answer: "Manly Pines Hotel".into(),
    });
    assert!(!stop.contains("Manly"), "{stop}");
    assert!(stop.starts_with("stop"));
    assert_eq!(
        text(Action::Scroll {
            direction: crate::action::ScrollDirection::Down
        }),
        "scroll [down]"
    );
}

#[test]
fn subsets_and_sites_come_from_ids_and_urls() {
    assert_eq!(subset_of("mmina/shopping/12"), "mmina/shopping");
    assert_eq!(subset_of("sb-01-beanie"), "");
    assert_eq!(
        site_of("http://127.0.0.1:8605/events?city=x"),
        Some("127.0.0.1:8605".into())
    );
    assert_eq!(
        site_of("https://WWW.Momondo.com/"),
        Some("www.momondo.com".into())
    );
    assert_eq!(site_of("about:blank"), None);
}

#[test]
fn recent_takes_the_last_k_of_the_same_subset_in_the_order_they_ran() {
    let pool = vec![
        record("mmina/shopping/1", "buy a hat", &[]),
        record("mmina/wikipedia/1", "a tower", &[]),
        record("mmina/shopping/2", "buy shoes", &[]),
        record("mmina/shopping/3", "buy a bag", &[]),
        record("mmina/shopping/9", "an earlier run of the task itself", &[]),
        record("mmina/wikipedia/2", "a bridge", &[]),
    ];
    let q = query("mmina/shopping/9", "buy a scarf", &[]);
    let chosen = |k| {
        ids(&select(
            &pool,
            &q,
            MemorySettings {
                k,
                policy: MemoryPolicy::Recent,
            },
        ))
    };
    assert_eq!(chosen(0), Vec::<String>::new());
    assert_eq!(chosen(1), ["mmina/shopping/3"]);
    assert_eq!(chosen(2), ["mmina/shopping/2", "mmina/shopping/3"]);
    assert_eq!(
        chosen(5),
        ["mmina/shopping/1", "mmina/shopping/2", "mmina/shopping/3"]
    );
}

#[test]
fn similar_picks_the_related_task_whatever_its_place_in_the_pool() {
    let pool = vec![
        record(
            "sb-21-tokyo-hotel-rating",
            "On StayFinder, find hotels in Tokyo and open the one with the best guest rating.",
            &["127.0.0.1:8603"],
        ),
        record(
            "sb-09-quickest-korean-recipe",
            "On the recipe site, find the quickest Korean recipe and give its time.",
            &["127.0.0.1:8606"],
        ),
        record(
            "sb-04-london-paris-flights",
            "Search flights from London to Paris and open the cheapest one.",
            &["127.0.0.1:8602"],
        ),
        record(
            "sb-17-kimchi-recipe-time",
            "How long does the kimchi recipe take on the recipe site?",
            &["127.0.0.1:8606"],
        ),
    ];
    let q = query(
        "sb-29-bondi-yoga-then-hotel",
        "Follow the link to hotels in Sydney, then open the page of the hotel with the best guest rating.",
        &["127.0.0.1:8605", "127.0.0.1:8603"],
    );
    let similar = |k| {
        ids(&select(
            &pool,
            &q,
            MemorySettings {
                k,
                policy: MemoryPolicy::Similar,
            },
        ))
    };
    assert_eq!(similar(1), ["sb-21-tokyo-hotel-rating"]);
    let q = query(
        "sb-44-bangkok-pad-thai",
        "Find the pad thai recipe on the recipe site and say how long it takes.",
        &["127.0.0.1:8606"],
    );
    let chosen = select(
        &pool,
        &q,
        MemorySettings {
            k: 2,
            policy: MemoryPolicy::Similar,
        },
    );
    let mut got = ids(&chosen);
    got.sort();
    assert_eq!(
        got,
        ["sb-09-quickest-korean-recipe", "sb-17-kimchi-recipe-time"]
    );
}

#[test]
fn similar_never_offers_the_task_itself_nor_unrelated_records() {
    let pool = vec![
        record("t1", "hotels in Tokyo best rating", &["a.test"]),
        record("t2", "zebra quantum marmalade", &["z.test"]),
    ];
    let index = SimilarityIndex::build(
        &pool,
        &query("t1", "hotels in Tokyo best rating", &["a.test"]),
    );
    let ranked = index.rank(5);
    assert!(ranked.is_empty(), "{ranked:?}");
}

#[test]
fn equal_scores_go_to_the_more_recent_record() {
    let pool = vec![
        record("old", "hotels in Tokyo", &[]),
        record("new", "hotels in Tokyo", &[]),
    ];
    let index = SimilarityIndex::build(&pool, &query("q", "hotels in Tokyo", &[]));
    let ranked = index.rank(1);
    assert_eq!(ranked.len(), 1);
    assert_eq!(pool[ranked[0].0].task_id, "new");
}

#[test]
fn the_section_lists_each_past_task_with_steps_and_outcome() {
    let mut a = record(
        "sb-21",
        "Find the best-rated Tokyo hotel.",
        &["127.0.0.1:8603"],
    );
    a.steps.push(MemoryStep {
        action: None,
        site: None,
    });
    a.steps.push(MemoryStep {
        action: Some(memory_action_text(
            &Action::Stop {
                answer: "Hotel Sakura".into(),
            },
            "",
        )),
        site: Some("127.0.0.1:8603".into()),
    });
    a.verdict = MemoryVerdict::Pass;
    a.ended = FinishCause::Answered;
    a.hop_steps = vec![1, 3];
    let b = record("sb-09", "Find the quickest recipe.\n\nReference: x", &[]);
    let text = memory_section(&[&a, &b], MemoryPolicy::Recent).unwrap();
    assert!(text.starts_with(MEMORY_HEADING), "{text}");
    assert!(text.contains("Below are 2 earlier tasks"));
    assert!(text.contains(
        "Past task 1:\nINTENT: Find the best-rated Tokyo hotel.\nSITES: 127.0.0.1:8603\nACTIONS:\n\
         1. click {link 'Hotels'} (on 127.0.0.1:8603)\n2. (no action)\n3. stop (with an answer, \
         not kept in memory) (on 127.0.0.1:8603)\nOUTCOME: PASS: the task was solved; 2 of 2 hops \
         completed (hop 1 at step 1, hop 2 at step 3); the agent stopped with an answer."
    ), "{text}");
    assert!(text.contains("Past task 2:\nINTENT: Find the quickest recipe.\nReference: x\n"));
    assert!(text.contains("OUTCOME: FAIL: the task was not solved; 1 of 2 hops completed"));
    assert!(!text.contains("Hotel Sakura"));
    assert_eq!(memory_section(&[], MemoryPolicy::Recent), None);
}

#[test]
fn pools_read_as_a_json_array_or_json_lines() {
    let a = record("t1", "one", &[]);
    let b = record("t2", "two", &[]);
    let array = serde_json::to_string(&vec![a.clone(), b.clone()]).unwrap();
    assert_eq!(
        MemoryRecord::parse_pool(&array).unwrap(),
        vec![a.clone(), b.clone()]
    );
    let lines = format!(
        "{}\n\n{}\n",
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert_eq!(
        MemoryRecord::parse_pool(&lines).unwrap(),
        vec![a.clone(), b]
    );
    assert_eq!(MemoryRecord::parse_pool("  \n").unwrap(), vec![]);
    let bad = format!(
        "{}\n{{\"task_id\": 3}}\n",
        serde_json::to_string(&a).unwrap()
    );
    let err = MemoryRecord::parse_pool(&bad).unwrap_err();
    assert!(err.starts_with("memory record line 2:"), "{err}");
}

#[test]
fn settings_allow_k_up_to_ten() {
    let ok = MemorySettings {
        k: MAX_MEMORY_K,
        policy: MemoryPolicy::Similar,
    };
    assert!(ok.check().is_ok());
    let too_many = MemorySettings { k: 11, ..ok };
    assert!(too_many.check().unwrap_err().contains("from 0 to 10"));
    let read: MemorySettings = serde_json::from_str(r#"{"k": 2, "policy": "similar"}"#).unwrap();
    assert_eq!(read, MemorySettings { k: 2, ..ok });
    assert!(serde_json::from_str::<MemorySettings>(r#"{"k": 2, "polcy": "similar"}"#).is_err());
}

#[test]
fn words_fold_ascii_case_and_drop_stopwords_and_single_letters() {
    assert_eq!(
        similar::words("The HOTEL, the hotel; a Hotel in Tokyo"),
        similar::words("hotel tokyo")
    );
    assert_eq!(similar::words("a I x"), Vec::<u64>::new());
    assert_ne!(similar::words("Zürich"), similar::words("zurich"));
}

#[test]
fn stopwords_are_sorted_for_the_binary_search() {
    let words = similar::stopwords();
    assert!(words.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_persons_demonstration_becomes_a_record_without_the_answer() {
    let task = crate::task::parse_task(
        r#"{"id": "sb/events-sydney", "intent": "Find a rock night in Sydney and say its name.",
            "start_urls": ["http://events.test:8603/"],
            "hops": [{"condition": {"kind": "url", "op": "contains", "value": "city=sydney"}}],
            "final_answer": {"condition": {"must_include": ["Harbour Stomp"]}, "required": true}}"#,
    )
    .unwrap();
    let step = |action: &str, url: &str| crate::agent::RecordedStep {
        action: action.into(),
        observation: PAGE.into(),
        url: Some(url.into()),
    };
    let steps = [
        step("type [40] [Sydney] [1]", "http://events.test:8603/"),
        step("click [42]", "http://events.test:8603/?city=sydney"),
        step("stop [Harbour Stomp]", "http://events.test:8603/e/7"),
    ];
    let record = MemoryRecord::of_demonstration(&task, &steps, true, vec![1]);
    assert!(record.by_person);
    assert_eq!(record.verdict, MemoryVerdict::Pass);
    assert_eq!(record.ended, FinishCause::Answered);
    assert_eq!(record.sites, ["events.test:8603"]);
    let actions: Vec<&str> = record
        .steps
        .iter()
        .filter_map(|s| s.action.as_deref())
        .collect();
    assert_eq!(
        actions,
        [
            "type {combobox 'City'} [Sydney] [1]",
            r#"click {link "Rock 'n' roll night"}"#,
            "stop (with an answer, not kept in memory)",
        ]
    );
    assert!(record
        .steps
        .iter()
        .all(|s| s.site.as_deref() == Some("events.test:8603")));
    // Neither the person's answer nor the task's reference answer is kept or shown.
    let json = serde_json::to_string(&record).unwrap();
    assert!(!json.contains("Harbour"), "{json}");
    assert!(json.contains(r#""by_person":true"#));
    let section = memory_section(&[&record], MemoryPolicy::Recent).unwrap();
    assert!(!section.contains("Harbour"), "{section}");
    assert!(
        section.contains("a person did it and gave an answer"),
        "{section}"
    );
    // An agent's record leaves `by_person` out of its JSON, so older readers are unaffected.
    let agent_json = serde_json::to_string(&record_of_agent()).unwrap();
    assert!(!agent_json.contains("by_person"));
}

fn record_of_agent() -> MemoryRecord {
    record("a/b", "x", &[])
}
