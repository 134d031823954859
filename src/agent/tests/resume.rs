//! Resuming: a run whose state is stored and reloaded after every transition, and
//! whose events all arrive twice, issues exactly the commands of an undisturbed run,
//! with one record per step.

use proptest::prelude::*;

use super::harness::*;
use crate::agent::{AgentConfig, Command};

/// One scripted model turn, and whether its action completes the last hop.
#[derive(Debug, Clone)]
enum Turn {
    Click(u32),
    ClickMissing,
    Scroll,
    Malformed,
    Fail,
    /// A failure that ends the run (the server cannot be reached).
    Unreachable,
    Stop,
}

fn say(turn: &Turn) -> Say {
    match turn {
        Turn::Click(id) => reply(&format!(
            "In summary, the next action I will perform is ```click [{id}]```"
        )),
        Turn::ClickMissing => reply("```click [999]```"),
        Turn::Scroll => reply("```scroll [down]```"),
        Turn::Malformed => reply("I am not sure what to do."),
        Turn::Fail => Say::Fail,
        Turn::Unreachable => Say::FailWith("network"),
        Turn::Stop => reply("```stop [Tokyo]```"),
    }
}

fn turn() -> impl Strategy<Value = Turn> {
    prop_oneof![
        prop::sample::select(vec![12u32, 13, 20]).prop_map(Turn::Click),
        Just(Turn::ClickMissing),
        Just(Turn::Scroll),
        Just(Turn::Malformed),
        Just(Turn::Fail),
        Just(Turn::Unreachable),
        Just(Turn::Stop),
    ]
}

/// `judged`: the task's answer goes through the judge (a fuzzy final answer).
fn script(turns: &[Turn], end_on_act: Option<usize>) -> Script {
    let mut acts = 0;
    Script::new(
        vec![TOKYO_PAGE, EVENTS_PAGE],
        turns.iter().map(say).collect(),
    )
    .acting(move |action| {
        acts += 1;
        ActOutcome {
            error: (action == "click [999]").then(|| "no element [999] on this page".to_string()),
            at_end: Some(acts) == end_on_act,
        }
    })
    .judging(tokyo_judge)
}

fn both_ways(
    turns: &[Turn],
    end_on_act: Option<usize>,
    max_steps: u32,
    judged: bool,
) -> (Run, Run) {
    let config = AgentConfig {
        max_steps,
        ..config()
    };
    let task = if judged {
        fuzzy_task_json(&[])
    } else {
        task_json(&[])
    };
    let (agent, first) = start(&task, config);
    let plain = drive(
        agent.clone(),
        first.clone(),
        script(turns, end_on_act),
        false,
    );
    let resumed = drive(agent, first, script(turns, end_on_act), true);
    (plain, resumed)
}

fn check(plain: &Run, resumed: &Run) {
    assert_eq!(plain.commands, resumed.commands);
    assert_eq!(
        plain
            .commands
            .last()
            .map(|c| matches!(c, Command::Finish { .. })),
        Some(true)
    );
    // Every observed step has exactly one record, in order.
    let observed: Vec<u32> = plain
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Observe { step, .. } => Some(*step),
            _ => None,
        })
        .collect();
    let recorded: Vec<u32> = plain.records().iter().map(|r| r.step).collect();
    assert_eq!(recorded, observed);
    assert_eq!(recorded, (1..=recorded.len() as u32).collect::<Vec<_>>());
}

#[test]
fn a_resumed_run_with_duplicated_events_matches_an_undisturbed_one() {
    let turns = [
        Turn::Click(12),
        Turn::Malformed,
        Turn::ClickMissing,
        Turn::Fail,
        Turn::Scroll,
        Turn::Stop,
    ];
    for judged in [false, true] {
        let (plain, resumed) = both_ways(&turns, None, 30, judged);
        check(&plain, &resumed);
        assert_eq!(plain.records().len(), 6);
        assert!(resumed.ignored > 0);
        assert_eq!(plain.kinds().contains(&"judge"), judged);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn resuming_never_changes_a_run(
        turns in prop::collection::vec(turn(), 0..12),
        end_on_act in prop::option::of(1usize..6),
        max_steps in 1u32..10,
        judged in any::<bool>(),
    ) {
        let (plain, resumed) = both_ways(&turns, end_on_act, max_steps, judged);
        check(&plain, &resumed);
        prop_assert!(plain.records().len() <= max_steps as usize);
    }
}
