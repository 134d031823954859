//! Answers scored by a judge: the `judge` command between a `stop` and its `act`,
//! the verdicts carried into the act and the step's record, and the final answer a
//! task still wants once every hop is done.

use super::harness::*;
use crate::agent::{AgentConfig, AgentEvent, Command, FinishCause, Phase};

fn run(task: &str, config: AgentConfig, script: Script) -> Run {
    let (agent, first) = start(task, config);
    drive(agent, first, script, false)
}

#[test]
fn a_stop_on_a_fuzzy_task_asks_the_judge_then_acts_with_its_verdicts() {
    let run = run(
        &fuzzy_task_json(&[]),
        config(),
        Script::new(
            vec![TOKYO_PAGE],
            vec![
                reply("```click [12]```"),
                reply("```stop [It is in Tokyo]```"),
            ],
        )
        .judging(tokyo_judge),
    );
    assert_eq!(
        run.kinds(),
        [
            "observe",
            "call_model",
            "act",
            "record",
            "observe",
            "call_model",
            "judge",
            "act",
            "record",
            "finish"
        ]
    );
    let Command::Judge {
        step,
        answer,
        with_model,
    } = &run.commands[6]
    else {
        panic!("judge expected, got {:?}", run.commands[6])
    };
    assert_eq!(
        (*step, answer.as_str(), *with_model),
        (2, "It is in Tokyo", true)
    );
    let expected = tokyo_judge("It is in Tokyo", true);
    let Command::Act { judgements, .. } = &run.commands[7] else {
        panic!("act expected")
    };
    assert_eq!(judgements, &expected);
    let record = run.records()[1];
    assert_eq!(record.judgements, expected);
    assert_eq!(
        (record.tokens.input, record.tokens.output),
        (1000 + 80, 50 + 1),
        "the judge's tokens count with the step's"
    );
    assert!(run.records()[0].judgements.is_empty());
    assert_eq!(
        run.finish(),
        (
            FinishCause::Answered,
            "the agent stopped with the answer \"It is in Tokyo\"",
            Some("It is in Tokyo")
        )
    );
}

#[test]
fn a_task_without_fuzzy_references_is_never_judged() {
    let run = run(
        &task_json(&[]),
        config(),
        Script::new(vec![TOKYO_PAGE], vec![reply("```stop [Tokyo]```")])
            .judging(|_, _| panic!("no judge may be asked")),
    );
    assert_eq!(
        run.kinds(),
        ["observe", "call_model", "act", "record", "finish"]
    );
}

#[test]
fn replay_asks_for_the_containment_fallback() {
    let config = AgentConfig {
        replay: true,
        ..config()
    };
    let run = run(
        &fuzzy_task_json(&["click {link 'Tokyo'}", "stop [Tokyo]"]),
        config,
        Script::new(vec![TOKYO_PAGE], Vec::new()).judging(tokyo_judge),
    );
    let judged: Vec<bool> = run
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Judge { with_model, .. } => Some(*with_model),
            _ => None,
        })
        .collect();
    assert_eq!(judged, [false]);
    let last = run.records()[1];
    assert!(last.judgements[0].by.contains("containment"));
    assert_eq!(last.judgements[0].infers, Some(true));
}

#[test]
fn with_every_hop_done_a_task_wanting_its_final_answer_goes_on_until_it_is_given() {
    let run = run(
        &fuzzy_task_json(&[]),
        config(),
        Script::new(
            vec![TOKYO_PAGE, EVENTS_PAGE],
            vec![reply("```click [12]```"), reply("```stop [Tokyo]```")],
        )
        .acting(|_| ActOutcome {
            error: None,
            at_end: true,
        })
        .judging(tokyo_judge),
    );
    assert_eq!(run.acts(), ["click [12]", "stop [Tokyo]"]);
    assert_eq!(
        run.finish(),
        (
            FinishCause::Answered,
            "the agent stopped with the answer \"Tokyo\"",
            Some("Tokyo")
        )
    );
}

#[test]
fn stop_requested_while_judging_records_the_step_with_its_stop() {
    let (mut agent, _) = start(&fuzzy_task_json(&[]), config());
    agent.feed(observed(1, TOKYO_PAGE, "http://wiki.test/"));
    let fed = agent.feed(AgentEvent::ModelReplied {
        step: 1,
        reply: crate::model::ModelReply {
            text: "```stop [Tokyo]```".into(),
            usage: crate::model::Usage::default(),
            reasoning: None,
        },
        attempts: Vec::new(),
        call: 0,
    });
    assert!(matches!(fed.commands[..], [Command::Judge { step: 1, .. }]));
    assert_eq!(agent.phase(), &Phase::Judging);
    let early = agent.feed(AgentEvent::Acted {
        step: 1,
        effect: serde_json::Value::Null,
        error: None,
        progress: None,
    });
    assert_eq!(
        early.ignored.as_deref(),
        Some("acted for step 1 is not expected now: waiting for judged")
    );
    let fed = agent.feed(AgentEvent::StopRequested {
        reason: "the person pressed Stop".into(),
    });
    let [Command::Record { record, .. }, Command::Finish {
        cause: FinishCause::Stopped,
        ..
    }] = &fed.commands[..]
    else {
        panic!("record then finish expected, got {:?}", fed.commands)
    };
    assert_eq!(
        record.action.as_ref().map(|a| a.text.as_str()),
        Some("stop [Tokyo]")
    );
    assert!(record.result.is_none() && record.judgements.is_empty());
}
