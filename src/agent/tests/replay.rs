//! Replay of a task's reference trajectory, without a model.

use super::harness::*;
use crate::agent::{Agent, AgentConfig, Command, FinishCause};

const TRAJECTORY: [&str; 4] = [
    "click {link 'Tokyo'}",
    "goto [http://events.test/]",
    "type {searchbox 'Search events'} [Tokyo] [1]",
    "stop [Tokyo]",
];

fn replay_config() -> AgentConfig {
    AgentConfig {
        replay: true,
        ..config()
    }
}

#[test]
fn replay_resolves_each_element_in_the_current_observation() {
    let (agent, first) = start(&task_json(&TRAJECTORY), replay_config());
    let run = drive(
        agent,
        first,
        Script::new(
            vec![TOKYO_PAGE, TOKYO_PAGE, EVENTS_PAGE, EVENTS_PAGE],
            Vec::new(),
        ),
        false,
    );
    assert_eq!(
        run.acts(),
        [
            "click [12]",
            "goto [http://events.test/]",
            "type [40] [Tokyo] [1]",
            "stop [Tokyo]"
        ]
    );
    assert!(run.requests().is_empty(), "replay never calls a model");
    assert!(run.commands.iter().all(|c| match c {
        Command::Observe { whole_page, .. } => *whole_page,
        _ => true,
    }));
    assert_eq!(
        run.finish(),
        (
            FinishCause::Answered,
            "the agent stopped with the answer \"Tokyo\"",
            Some("Tokyo")
        )
    );

    let records = run.records();
    assert_eq!(records.len(), 4);
    let typed = records[2];
    let reply = typed.reply.as_ref().unwrap();
    assert_eq!(
        reply.text,
        "Replaying reference_trajectory[2]: type {searchbox 'Search events'} [Tokyo] [1], where \
         {searchbox 'Search events'} is [40]. In summary, the next action I will perform is \
         ```type [40] [Tokyo] [1]```"
    );
    assert_eq!((typed.tokens.input, typed.tokens.output), (0, 0));
    assert_eq!(
        typed.note.as_deref(),
        Some("replay of reference_trajectory[2]")
    );
    assert!(typed
        .prompt
        .user
        .contains("PREVIOUS ACTION: goto [http://events.test/]"));
}

#[test]
fn a_missing_element_ends_the_replay_naming_the_step_and_the_element() {
    let (agent, first) = start(&task_json(&TRAJECTORY), replay_config());
    // Step 3 looks for the events search box, but the page is still the wiki.
    let run = drive(
        agent,
        first,
        Script::new(vec![TOKYO_PAGE], Vec::new()),
        false,
    );
    assert_eq!(run.acts(), ["click [12]", "goto [http://events.test/]"]);
    let (cause, reason, answer) = run.finish();
    assert_eq!(cause, FinishCause::ReplayFailed);
    assert_eq!(
        reason,
        "replay of reference_trajectory[2] \"type {searchbox 'Search events'} [Tokyo] [1]\" failed \
         at step 3: no element {searchbox 'Search events'} in the observation"
    );
    assert_eq!(answer, None);
    let records = run.records();
    assert_eq!(records.len(), 3, "the failed step is recorded too");
    assert_eq!(records[2].action, None);
    assert_eq!(records[2].note.as_deref(), Some(reason));
}

#[test]
fn a_trajectory_without_stop_ends_when_it_runs_out() {
    let (agent, first) = start(&task_json(&TRAJECTORY[..2]), replay_config());
    let run = drive(
        agent,
        first,
        Script::new(vec![TOKYO_PAGE], Vec::new()),
        false,
    );
    assert_eq!(run.records().len(), 2);
    assert_eq!(
        run.finish(),
        (
            FinishCause::ReplayEnded,
            "the reference trajectory ended after 2 steps without a stop",
            None
        )
    );
}

#[test]
fn repeated_reference_steps_are_not_an_early_stop() {
    let steps = [
        "scroll [down]",
        "scroll [down]",
        "scroll [down]",
        "stop [x]",
    ];
    let (agent, first) = start(&task_json(&steps), replay_config());
    let run = drive(
        agent,
        first,
        Script::new(vec![TOKYO_PAGE], Vec::new()),
        false,
    );
    assert_eq!(run.finish().0, FinishCause::Answered);
    assert_eq!(run.records().len(), 4);
}

#[test]
fn replay_needs_a_reference_trajectory() {
    let error = Agent::start(&task_json(&[]), "demo.json", replay_config());
    assert_eq!(
        error.err().map(|e| e.to_string()).as_deref(),
        Some("task demo/red-tower has no reference_trajectory; replay needs one")
    );
}
