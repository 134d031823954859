#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests: a panic with the value is the failure report"
)]

use super::*;
use crate::action::ActionKind;

fn el(role: &str, name: &str) -> Element {
    Element {
        role: role.into(),
        name: format!("'{name}'"),
    }
}

fn click(role: &str, name: &str) -> Triplet {
    Triplet {
        element: Some(el(role, name)),
        op: ActionKind::Click,
        value: None,
    }
}

fn reference(steps: &[&str]) -> Vec<Triplet> {
    steps
        .iter()
        .map(|s| Triplet::of_reference(s).unwrap())
        .collect()
}

fn log(
    sections: Vec<Vec<Element>>,
    plan: Option<Element>,
    grounded: Vec<Option<Triplet>>,
    selected: Option<Triplet>,
) -> StepLog {
    StepLog {
        sections,
        plan_target: plan,
        grounded,
        executed: selected.clone(),
        selected,
    }
}

fn acc(correct: usize, total: usize) -> Accuracy {
    Accuracy { correct, total }
}

#[test]
fn reference_steps_and_observed_actions_become_comparable_triplets() {
    let observation = "Tab 0 (current): x\n\n[1] RootWebArea 'x'\n\t[5] searchbox 'Search' focused: True\n\t[6] link 'Tokyo'";
    let typed = crate::action::Action::parse("type [5] [Tokyo ] [1]").unwrap();
    let from_page = Triplet::of_action(&typed, observation);
    let from_reference = Triplet::of_reference("type {searchbox 'Search'} [tokyo] [0]").unwrap();
    assert!(
        from_page.matches(&from_reference),
        "{from_page:?} vs {from_reference:?}"
    );
    let clicked = Triplet::of_action(&crate::action::Action::Click { id: 6 }, observation);
    assert!(clicked.matches(&click("link", "Tokyo")));
    assert!(!clicked.matches(&click("button", "Tokyo")));
    assert!(Triplet::of_reference("stop [anything]")
        .unwrap()
        .matches(&Triplet::of_reference("stop [else]").unwrap()));
    assert!(Triplet::of_reference("goto [http://a.test/]")
        .unwrap()
        .matches(&Triplet::of_reference("goto [http://A.test]").unwrap()));
    assert_eq!(
        Element::all_in_observation(observation),
        [
            el("RootWebArea", "x"),
            el("searchbox", "Search"),
            el("link", "Tokyo")
        ]
    );
}

// The run below, worked by hand. Reference R: type {searchbox 'Search'} [tokyo],
// click {link 'Tokyo'}, click {link 'Events'}, stop. Alternative A (a person's
// demonstration): click {link 'Cities'}, click {link 'Tokyo'}, click {link 'Events'},
// stop.
//
// step  sections                     plan     grounded                 selected
// 1     [Search, Home] [Cities, About] Cities [None, click Cities]     click Cities
// 2     [Tokyo, Paris]               Tokyo    [click Tokyo]            click Tokyo
// 3     [Hotels] [Events]            Events   [click Hotels, click Events] click Events
// 4     [Home]                       -        [stop]                   stop
// 5     [Search]                     Search   [type Search [Tokyo]]    type Search [Tokyo]
//
// Strict (R only; the agent never does R's first step until step 5, so R expects it
// at every step): RE 1 yes, 2-4 no, 5 yes = 2/5; AP over 1 and 5: Cities no, Search
// yes = 1/2; grounding over 1 and 5: None no, 5 yes = 1/2; first viable 5 only = 1/5;
// select 5 only = 1/5.
//
// With A: step 1 expects {type Search, click Cities}: RE yes (section 1 has Search),
// AP yes (Cities), grounding in section 1 (the first with a truth): None, no; first
// viable click Cities yes; select yes; A moves on and R is dropped. Step 2 expects
// click Tokyo: all yes. Step 3 expects click Events: RE yes (section 2), AP yes,
// grounding in section 2 yes, first viable click Hotels no, select yes. Step 4
// expects stop (no element): grounding yes, first viable yes, select yes. A has
// ended: step 5 is not scored. RE 3/3, AP 3/3, grounding 3/4, first viable 3/4,
// select 4/4, 4 steps.
#[test]
fn stage_accuracies_match_the_numbers_worked_by_hand() {
    let r = reference(&[
        "type {searchbox 'Search'} [tokyo] [1]",
        "click {link 'Tokyo'}",
        "click {link 'Events'}",
        "stop [Tokyo]",
    ]);
    let a = reference(&[
        "click {link 'Cities'}",
        "click {link 'Tokyo'}",
        "click {link 'Events'}",
        "stop [Tokyo]",
    ]);
    let stop = Triplet::of_reference("stop [x]").unwrap();
    let typed = Triplet::of_reference("type {searchbox 'Search'} [Tokyo] [1]").unwrap();
    let steps = vec![
        log(
            vec![
                vec![el("searchbox", "Search"), el("link", "Home")],
                vec![el("link", "Cities"), el("link", "About")],
            ],
            Some(el("link", "Cities")),
            vec![None, Some(click("link", "Cities"))],
            Some(click("link", "Cities")),
        ),
        log(
            vec![vec![el("link", "Tokyo"), el("link", "Paris")]],
            Some(el("link", "Tokyo")),
            vec![Some(click("link", "Tokyo"))],
            Some(click("link", "Tokyo")),
        ),
        log(
            vec![vec![el("link", "Hotels")], vec![el("link", "Events")]],
            Some(el("link", "Events")),
            vec![Some(click("link", "Hotels")), Some(click("link", "Events"))],
            Some(click("link", "Events")),
        ),
        log(
            vec![vec![el("link", "Home")]],
            None,
            vec![Some(stop.clone())],
            Some(stop),
        ),
        log(
            vec![vec![el("searchbox", "Search")]],
            Some(el("searchbox", "Search")),
            vec![Some(typed.clone())],
            Some(typed),
        ),
    ];
    let steps: Vec<Option<StepLog>> = steps.into_iter().map(Some).collect();
    let d = align_and_score(&steps, &r, &[a]);
    assert_eq!(d.without_reply, 0);
    assert_eq!(
        d.strict,
        StageScores {
            steps: 5,
            relevant_element: acc(2, 5),
            action_prediction: acc(1, 2),
            grounding: acc(1, 2),
            first_viable: acc(1, 5),
            model_select: acc(1, 5),
        }
    );
    assert_eq!(
        d.with_alternatives,
        StageScores {
            steps: 4,
            relevant_element: acc(3, 3),
            action_prediction: acc(3, 3),
            grounding: acc(3, 4),
            first_viable: acc(3, 4),
            model_select: acc(4, 4),
        }
    );
    assert_eq!(d.strict.relevant_element.rate(), Some(0.4));
    assert_eq!(Accuracy::default().rate(), None);
    // Per suite: runs add up.
    let mut suite = Diagnosis::default();
    suite += d;
    suite += d;
    assert_eq!(suite.strict.relevant_element, acc(4, 10));
}

// Reference: click {link 'Tokyo'}, stop. Six steps: the model call failed at steps 1,
// 2, 4 and 5; step 3 clicked Tokyo, step 6 stopped. Scored are steps 3 and 6 alone,
// each expecting what the reference expects next (the failed steps did nothing, so
// they do not move the path): step 3 expects click Tokyo, RE yes (1/1), AP yes,
// grounding yes, first viable yes, select yes; step 6 expects stop (no element):
// grounding, first viable and select yes. 2 steps: RE 1/1, AP 1/1, grounding 2/2,
// first viable 2/2, select 2/2; 4 steps without a reply. Scored as a step, a failed
// call would have counted the link on the page as a relevant element.
#[test]
fn steps_whose_model_call_failed_are_counted_apart_and_scored_nowhere() {
    let r = reference(&["click {link 'Tokyo'}", "stop [Tokyo]"]);
    let stop = Triplet::of_reference("stop [x]").unwrap();
    let clicked = log(
        vec![vec![el("link", "Tokyo"), el("link", "Paris")]],
        Some(el("link", "Tokyo")),
        vec![Some(click("link", "Tokyo"))],
        Some(click("link", "Tokyo")),
    );
    let stopped = log(
        vec![vec![el("link", "Tokyo")]],
        None,
        vec![Some(stop.clone())],
        Some(stop),
    );
    let steps = vec![None, None, Some(clicked), None, None, Some(stopped)];
    let d = align_and_score(&steps, &r, &[]);
    let want = StageScores {
        steps: 2,
        relevant_element: acc(1, 1),
        action_prediction: acc(1, 1),
        grounding: acc(2, 2),
        first_viable: acc(2, 2),
        model_select: acc(2, 2),
    };
    assert_eq!((d.strict, d.with_alternatives), (want, want));
    assert_eq!(d.without_reply, 4);
    let mut suite = Diagnosis::default();
    suite += d;
    suite += d;
    assert_eq!(suite.without_reply, 8);
}

fn at(url: &str, action: &str) -> TraceStep {
    TraceStep {
        url: Some(url.into()),
        action: Some(action.into()),
        model_failed: false,
    }
}

fn no_action(url: &str, model_failed: bool) -> TraceStep {
    TraceStep {
        url: Some(url.into()),
        action: None,
        model_failed,
    }
}

fn trace(hops: usize, hop_steps: &[Option<u32>], steps: Vec<TraceStep>) -> RunTrace {
    RunTrace {
        error: false,
        passed: false,
        hops_total: hops,
        hop_steps: hop_steps.to_vec(),
        answered: false,
        steps,
        hop_sites: Vec::new(),
    }
}

fn mode(run: &RunTrace) -> Option<FailureMode> {
    classify(run).map(|f| f.mode)
}

#[test]
fn the_failure_classifier_labels_the_fixture_as_expected() {
    let a = "http://a.test/p";
    let b = "http://b.test/q";
    let c = "http://c.test/r";
    let d = "http://d.test/s";

    let passed = RunTrace {
        passed: true,
        ..trace(1, &[Some(1)], vec![at(a, "click [1]")])
    };
    assert_eq!(mode(&passed), None);

    let broke = RunTrace {
        error: true,
        ..trace(2, &[None, None], vec![])
    };
    assert_eq!(mode(&broke), Some(FailureMode::StepError));

    let model_down = trace(
        1,
        &[None],
        vec![
            at(a, "click [1]"),
            no_action(a, true),
            no_action(a, true),
            no_action(a, true),
        ],
    );
    assert_eq!(mode(&model_down), Some(FailureMode::StepError));

    let nonsense = trace(
        1,
        &[None],
        vec![
            at(a, "click [1]"),
            no_action(a, false),
            no_action(a, false),
            no_action(a, false),
        ],
    );
    let found = classify(&nonsense).unwrap();
    assert_eq!(found.mode, FailureMode::UnparseableOutput);
    assert_eq!(found.why, "the last 3 replies held no action");
    let mostly_nonsense = trace(
        1,
        &[None],
        vec![
            no_action(a, false),
            at(a, "click [1]"),
            no_action(a, false),
            at(a, "click [2]"),
        ],
    );
    assert_eq!(mode(&mostly_nonsense), Some(FailureMode::UnparseableOutput));

    let same = trace(
        2,
        &[None, None],
        vec![
            at(a, "click [3]"),
            at(a, "scroll [down]"),
            at(a, "scroll [down]"),
            at(a, "scroll [down]"),
        ],
    );
    assert_eq!(
        classify(&same).unwrap().why,
        "`scroll [down]` three times in a row"
    );
    let typed = trace(
        1,
        &[None],
        vec![
            at(a, "type [4] [red] [1]"),
            at(a, "click [2]"),
            at(a, "type [4] [red] [1]"),
            at(a, "click [5]"),
            at(a, "type [4] [red] [1]"),
            at(a, "go_back"),
        ],
    );
    assert_eq!(mode(&typed), Some(FailureMode::Loop));
    let alternating = trace(
        1,
        &[None],
        (0..6)
            .map(|i| at(a, if i % 2 == 0 { "click [1]" } else { "go_back" }))
            .collect(),
    );
    assert_eq!(mode(&alternating), Some(FailureMode::Loop));

    // Hop 1 of 2 is on a.test (known from its conditions); the agent left for c.test.
    let wandered = RunTrace {
        hop_sites: vec![vec!["a.test".into()], vec!["b.test".into()]],
        ..trace(
            2,
            &[None, None],
            vec![at(a, "click [1]"), at(c, "click [2]"), at(c, "click [3]")],
        )
    };
    assert_eq!(
        classify(&wandered).unwrap().why,
        "stuck on hop 1 of 2, went to c.test"
    );
    // Unknown hop sites: one other site may be the hop's; two are wandering.
    let one_other = trace(
        2,
        &[None, None],
        vec![at(a, "click [1]"), at(b, "click [2]")],
    );
    assert_eq!(mode(&one_other), Some(FailureMode::FailedEarlyHop));
    let two_others = trace(
        2,
        &[None, None],
        vec![at(a, "click [1]"), at(b, "click [2]"), at(d, "click [3]")],
    );
    assert_eq!(mode(&two_others), Some(FailureMode::Wandered));

    // Hop 1 completed at step 2 (its page is step 3's); the agent stayed on b.test.
    let missed = RunTrace {
        hop_sites: vec![vec!["b.test".into()], vec!["c.test".into()]],
        ..trace(
            2,
            &[Some(2), None],
            vec![
                at(a, "click [1]"),
                at(a, "click [2]"),
                at(b, "click [3]"),
                at(b, "scroll [down]"),
                at(b, "click [4]"),
            ],
        )
    };
    assert_eq!(
        classify(&missed).unwrap().why,
        "completed hop 1 and stayed on b.test for the 3 steps after"
    );
    // The same with hop 2 on b.test too: a failure on its own site, in the second half.
    let own_site = RunTrace {
        hop_sites: vec![vec!["b.test".into()], vec!["b.test".into()]],
        ..missed.clone()
    };
    assert_eq!(mode(&own_site), Some(FailureMode::Other));

    let early = trace(
        3,
        &[None, None, None],
        vec![
            at(a, "click [1]"),
            at(a, "click [2]"),
            at(a, "type [3] [x] [1]"),
        ],
    );
    assert_eq!(classify(&early).unwrap().why, "stuck on hop 1 of 3");
    let second_of_three = trace(
        3,
        &[Some(1), None, None],
        vec![at(a, "click [1]"), at(b, "click [2]"), at(c, "click [3]")],
    );
    // Hop 2 of 3 is in the first half; moving on once is not wandering.
    assert_eq!(mode(&second_of_three), Some(FailureMode::FailedEarlyHop));

    let unanswered = trace(
        1,
        &[Some(1)],
        vec![at(a, "click [1]"), at(b, "scroll [down]")],
    );
    assert_eq!(mode(&unanswered), Some(FailureMode::MissedFinishedHop));
    let wrong_answer = RunTrace {
        answered: true,
        ..unanswered
    };
    assert_eq!(mode(&wrong_answer), Some(FailureMode::Other));
}
