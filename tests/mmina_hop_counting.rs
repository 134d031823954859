//! MMInA-shaped tasks, imported and scored, against hop counts worked out by hand from
//! the rules of MMInA's released counting loop (docs/mmina-mapping.md):
//! `kiwix` completes on leaving Kiwix for a page that contains the next checkpoint,
//! `momondo` needs the flight code, `7770` the shop keyword, every other checkpoint the
//! city (each word), and the last hop also holds when every `must_include` reference
//! is in the URL. Rows marked "released code:" are where we deliberately differ.
//!
//! Each row feeds one URL per step (step 0 is the start page, as the browser reports
//! it: full loads, `history.pushState` paths and `#fragment` routes alike), then an
//! optional answer, and lists the step at which each hop completed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use hopbench::evaluator::HopQueue;
use hopbench::event::Event;
use hopbench::import::{import_str, Format};
use hopbench::judge::NoJudge;
use hopbench::task::Task;
use serde_json::json;
use std::path::Path;

const LANDING: &str =
    "http://kiwix.localhost:8201/viewer#wikipedia_en/A/User:The_other_Kiwix_guy/Landing";
const KIWIX_TOKYO: &str = "http://kiwix.localhost:8201/viewer#wikipedia_en/A/Tokyo";
const KIWIX_TOWER: &str = "http://kiwix.localhost:8201/viewer#wikipedia_en/A/Tokyo_Tower";
const KIWIX_PARIS: &str = "http://kiwix.localhost:8201/viewer#wikipedia_en/A/Paris";
const EVENTS_HOME: &str = "https://www.eventbrite.com/";
const EVENTS_TOKYO: &str = "https://www.eventbrite.com/d/japan--tokyo/events/";
const EVENTS_PARIS: &str = "https://www.eventbrite.com/d/france--paris/events/";
const HOTELS_HOME: &str = "https://sg.trip.com/hotels/?locale=en-SG&curr=USD";

struct Case {
    name: &'static str,
    procedure: &'static [&'static str],
    city: &'static str,
    flight: &'static str,
    shop: &'static str,
    must_include: &'static [&'static str],
    urls: &'static [&'static str],
    answer: Option<&'static str>,
    /// The step at which each completed hop completed.
    steps: &'static [u32],
    why: &'static str,
}

/// Defaults for a Wikipedia-first task about Tokyo events; rows override fields.
const BASE: Case = Case {
    name: "",
    procedure: &["kiwix", "event"],
    city: "tokyo",
    flight: "",
    shop: "",
    must_include: &["eventbrite", "tokyo"],
    urls: &[LANDING],
    answer: None,
    steps: &[],
    why: "",
};

const CASES: &[Case] = &[
    Case {
        name: "do-nothing agent",
        urls: &[LANDING],
        steps: &[],
        why: "being on Kiwix, the start page included, never credits the Wikipedia hop",
        ..BASE
    },
    Case {
        name: "reads articles through the viewer's # routes",
        urls: &[LANDING, KIWIX_TOWER, KIWIX_TOKYO],
        steps: &[],
        why: "fragment routes inside the viewer are still Kiwix: 0 of 2, not 1",
        ..BASE
    },
    Case {
        name: "events home, then Tokyo",
        urls: &[LANDING, KIWIX_TOWER, EVENTS_HOME, EVENTS_TOKYO],
        steps: &[2, 3],
        why: "the home page leaves Kiwix for a URL containing \"event\"; hop 2 needs tokyo",
        ..BASE
    },
    Case {
        name: "direct jump from a # article to the city's events",
        urls: &[LANDING, KIWIX_TOKYO, EVENTS_TOKYO],
        steps: &[2, 2],
        why: "the page that completes the Kiwix hop is checked against the event hop too",
        ..BASE
    },
    Case {
        name: "single-page events site with # routes",
        urls: &[
            LANDING,
            "http://events.localhost:8206/#/",
            "http://events.localhost:8206/#/search?city=Tokyo",
        ],
        steps: &[1, 2],
        why: "a #route URL counts like a page load: left Kiwix at step 1, Tokyo at step 2",
        ..BASE
    },
    Case {
        name: "wrong comparison city on the events site",
        city: "paris",
        must_include: &["eventbrite", "paris"],
        urls: &[LANDING, KIWIX_TOKYO, EVENTS_TOKYO],
        steps: &[2],
        why: "leaving Kiwix for an event page is hop 1, but the page lacks paris",
        ..BASE
    },
    Case {
        name: "wrong comparison city on a `wiki` checkpoint",
        procedure: &["wiki", "event"],
        city: "paris",
        must_include: &["eventbrite", "paris"],
        urls: &[LANDING, KIWIX_TOKYO, EVENTS_TOKYO],
        steps: &[],
        why: "only `kiwix` is token-free: `wiki` needs paris, and Tokyo's page has not",
        ..BASE
    },
    Case {
        name: "right city on a `wiki` checkpoint",
        procedure: &["wiki", "event"],
        city: "paris",
        must_include: &["eventbrite", "paris"],
        urls: &[LANDING, KIWIX_TOKYO, KIWIX_PARIS, EVENTS_PARIS],
        steps: &[2, 3],
        why: "the Paris article holds \"wiki\" and paris; the Paris events page is hop 2",
        ..BASE
    },
    Case {
        name: "pushState search on a hotel site, two-word city",
        procedure: &["kiwix", "hotel"],
        city: "new york",
        must_include: &["new york"],
        urls: &[
            LANDING,
            HOTELS_HOME,
            "https://sg.trip.com/hotels/list?cityName=York",
            "https://sg.trip.com/hotels/list?cityName=New%20York",
        ],
        steps: &[1, 3],
        why: "York alone is not both words; the pushState URL with New%20York is",
        ..BASE
    },
    Case {
        name: "momondo needs the flight code, not the city",
        procedure: &["kiwix", "momondo", "hotel"],
        city: "paris",
        flight: "cdg",
        must_include: &["paris"],
        urls: &[
            LANDING,
            KIWIX_PARIS,
            "https://www.momondo.com/",
            "https://www.momondo.com/flight-search/LON-CDG/2024-06-01",
            "https://sg.trip.com/hotels/list?cityName=Paris",
        ],
        steps: &[2, 3, 4],
        why: "momondo's home leaves Kiwix; the CDG search is hop 2; the Paris hotels hop 3",
        ..BASE
    },
    Case {
        name: "one momondo page credits one flight hop",
        procedure: &["kiwix", "momondo", "momondo"],
        city: "paris",
        flight: "cdg",
        must_include: &["cdg", "2024-06-02"],
        urls: &[
            LANDING,
            "https://www.momondo.com/flight-search/LON-CDG/2024-06-01?to=paris",
            "https://www.momondo.com/flight-search/LON-CDG/2024-06-01?to=paris",
            "https://www.momondo.com/flight-search/CDG-LON/2024-06-09",
        ],
        steps: &[1, 1, 3],
        why: "released code: its momondo and city branches both fired on one URL, and a \
              URL reported again counted again; here a page credits one hop per rule",
        ..BASE
    },
    Case {
        name: "repeated shop checkpoint needs a second page",
        procedure: &["kiwix", "7770", "7770"],
        city: "",
        shop: "headphones",
        must_include: &["anker"],
        urls: &[
            LANDING,
            "http://localhost:7770/catalogsearch/result/?q=headphones",
            "http://localhost:7770/catalogsearch/result/?q=headphones",
            "http://localhost:7770/electronics/headphones.html",
        ],
        steps: &[1, 1, 3],
        why: "7770 needs the shop keyword; the same search page cannot also be hop 3",
        ..BASE
    },
    Case {
        name: "last hop by every must_include reference in the URL",
        procedure: &["kiwix", "hotel"],
        city: "paris",
        must_include: &["trip.com", "paris"],
        urls: &[
            LANDING,
            HOTELS_HOME,
            "https://sg.trip.com/carhire/?city=london",
            "https://sg.trip.com/carhire/?pickupCity=paris",
        ],
        steps: &[1, 3],
        why: "not a hotel page, but trip.com and paris are both in the last URL",
        ..BASE
    },
    Case {
        name: "the first reference does not make the Wikipedia hop",
        procedure: &["kiwix", "hotel", "car"],
        city: "paris",
        must_include: &["trip.com", "paris"],
        urls: &[LANDING, "https://www.trip.com/?city=paris"],
        steps: &[],
        why: "released code: leaving Kiwix for a URL with the first reference was hop 1; \
              here hop 1 needs \"hotel\", and the reference rule is for the last hop only",
        ..BASE
    },
    Case {
        name: "crediting goes on after the Wikipedia hop",
        procedure: &["kiwix", "event", "food"],
        city: "barcelona",
        must_include: &["barcelona"],
        urls: &[
            LANDING,
            EVENTS_HOME,
            "https://www.eventbrite.com/d/spain--barcelona/events/",
            "https://www.timeout.com/barcelona/food-drink",
        ],
        steps: &[1, 2, 3],
        why: "released code: a flag stopped all crediting after the Wikipedia hop (1 of 3)",
        ..BASE
    },
    Case {
        name: "empty city adds no token, not an empty one",
        procedure: &["kiwix", "car"],
        city: "",
        must_include: &["carhire"],
        urls: &[
            LANDING,
            EVENTS_HOME,
            "https://sg.trip.com/carhire/?locale=en-SG",
        ],
        steps: &[2, 2],
        why: "released code: \"\" is in every URL; here the site must still match (\"car\")",
        ..BASE
    },
    Case {
        name: "Wikipedia as the last checkpoint is scored by the answer",
        procedure: &["kiwix"],
        city: "",
        must_include: &["1958"],
        urls: &[LANDING, KIWIX_TOWER],
        answer: Some("It opened in 1958."),
        steps: &[2],
        why: "no next site to leave for: MMInA scores 1-hop Wikipedia tasks by the answer",
        ..BASE
    },
    Case {
        name: "Wikipedia as the last checkpoint, no answer",
        procedure: &["kiwix"],
        city: "",
        must_include: &["1958"],
        urls: &[LANDING, KIWIX_TOWER, EVENTS_HOME],
        steps: &[],
        why: "leaving Kiwix completes nothing when no checkpoint follows",
        ..BASE
    },
];

fn mmina_file(case: &Case) -> String {
    let mut procedure: Vec<&str> = case.procedure.to_vec();
    procedure.push("end");
    json!({
        "sites": ["wikipedia"],
        "task_id": 1,
        "require_login": false,
        "storage_state": null,
        "start_url": case.urls[0],
        "geolocation": null,
        "intent_template": "",
        "instantiation_dict": {},
        "intent": format!("{} (return the final url as the answer)", case.name),
        "require_reset": false,
        "eval": {
            "eval_types": ["string_match"],
            "reference_answers": {"must_include": case.must_include},
            "reference_url": "",
            "program_html": [],
            "string_note": "",
            "reference_answer_raw_annotation": []
        },
        "intent_template_id": 1,
        "cnt_hop": procedure.len(),
        "procedure": procedure,
        "shop": case.shop,
        "city": case.city,
        "flight": case.flight
    })
    .to_string()
}

fn import(case: &Case) -> Task {
    let result = import_str(&mmina_file(case), Path::new("mmina/compare/1.json"));
    assert_eq!(result.format, Some(Format::Mmina), "{}", case.name);
    let task = result
        .outcome
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    assert_eq!(task.hops.len(), case.procedure.len(), "{}", case.name);
    task
}

fn steps_of(case: &Case) -> Vec<u32> {
    let mut queue = HopQueue::new(&import(case));
    for (step, url) in case.urls.iter().enumerate() {
        let event = Event::navigation(step as u32, step as u64 * 1000, 0, url);
        queue.consume(&event, &mut NoJudge).unwrap();
    }
    if let Some(text) = case.answer {
        let step = case.urls.len() as u32;
        let event = Event::answer(step, u64::from(step) * 1000, text);
        queue.consume(&event, &mut NoJudge).unwrap();
    }
    queue.verdict().hop_steps
}

#[test]
fn hop_counts_follow_mmina_rules() {
    let mut wrong = Vec::new();
    for case in CASES {
        let got = steps_of(case);
        if got != case.steps {
            wrong.push(format!(
                "{}: hops completed at steps {got:?}, expected {:?} ({})",
                case.name, case.steps, case.why
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn notes_say_how_the_wikipedia_hop_and_the_last_hop_count() {
    let task = import(&CASES[0]);
    let notes = &task.source.as_ref().unwrap().notes;
    assert!(
        notes.iter().any(|n| n.starts_with("hop 1 (\"kiwix\"")
            && n.contains("\"event\"")
            && n.contains("one jump can complete both")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("the last hop (hop 2) also completes")),
        "{notes:?}"
    );
    let empty_city = CASES.iter().find(|c| c.procedure == ["kiwix", "car"]);
    let notes = import(empty_city.unwrap()).source.unwrap().notes;
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("hop 2 (\"car\"") && n.contains("`city` is empty")),
        "{notes:?}"
    );
}

#[test]
fn a_wikipedia_hop_that_cannot_complete_is_refused_with_the_reason() {
    let twice = Case {
        procedure: &["kiwix", "kiwix", "event"],
        ..BASE
    };
    let result = import_str(&mmina_file(&twice), Path::new("mmina/compare/1.json"));
    let errors = result.outcome.unwrap_err().field_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].path, "procedure[0]");
    assert!(errors[0].message.contains("no URL can do"), "{errors:?}");

    let no_answer = mmina_file(&Case {
        procedure: &["kiwix"],
        ..BASE
    })
    .replace(r#""eval_types":["string_match"]"#, r#""eval_types":[]"#);
    let result = import_str(&no_answer, Path::new("mmina/compare/1.json"));
    let errors = result.outcome.unwrap_err().field_errors();
    assert!(
        errors
            .iter()
            .any(|e| e.path == "procedure[0]" && e.message.contains("no next site")),
        "{errors:?}"
    );
}
