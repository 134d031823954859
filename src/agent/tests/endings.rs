//! How runs end: early-stop rules, the step limit, the last hop, a person's Stop.

use super::harness::*;
use crate::action::EarlyStopRule;
use crate::agent::{AgentConfig, AgentEvent, Command, FinishCause};
use crate::provider::ErrorKind;

#[test]
fn three_failed_calls_in_a_row_stop_the_run_early() {
    let run = run(Script::new(
        vec![TOKYO_PAGE],
        vec![Say::Fail, Say::Fail, Say::Fail],
    ));
    assert_eq!(run.records().len(), 3);
    let (cause, reason, answer) = run.finish();
    assert_eq!(cause, FinishCause::EarlyStop);
    assert_eq!(
        reason,
        "Early stop: the last 3 steps gave no action \
         (the last: the model call failed (server): HTTP 503)"
    );
    assert_eq!(answer, None);
}

#[test]
fn the_same_action_three_times_stops_the_run_early() {
    let run = run(Script::new(
        vec![TOKYO_PAGE],
        vec![
            reply("```scroll [down]```"),
            reply("```scroll [down]```"),
            reply("```scroll [down]```"),
            reply("```stop [x]```"),
        ],
    ));
    assert_eq!(run.acts(), ["scroll [down]"; 3]);
    assert_eq!(run.records().len(), 3);
    assert_eq!(
        run.finish(),
        (
            FinishCause::EarlyStop,
            "Early stop: the same action `scroll [down]` was repeated 3 times in a row",
            None
        )
    );
    assert_eq!(run.kinds().last(), Some(&"finish"));
    assert_eq!(
        run.kinds()[run.kinds().len() - 2],
        "record",
        "no observation is wasted"
    );
}

#[test]
fn max_steps_ends_the_run_after_that_many_records() {
    let config = AgentConfig {
        max_steps: 2,
        ..config()
    };
    let run = run_with(
        config,
        Script::new(
            vec![TOKYO_PAGE],
            vec![
                reply("```click [12]```"),
                reply("```click [13]```"),
                reply("```click [20]```"),
            ],
        ),
    );
    assert_eq!(run.acts(), ["click [12]", "click [13]"]);
    assert_eq!(run.records().len(), 2);
    assert_eq!(
        run.finish(),
        (
            FinishCause::EarlyStop,
            "Early stop: reached the step limit (2 of 2 steps)",
            None
        )
    );
}

#[test]
fn an_action_that_completes_the_last_hop_finishes_the_run() {
    let run = run(Script::new(
        vec![TOKYO_PAGE, EVENTS_PAGE],
        vec![
            reply("```click [12]```"),
            reply("```type [40] [Tokyo] [1]```"),
        ],
    )
    .acting(|action| ActOutcome {
        error: None,
        at_end: action.starts_with("type"),
    }));
    assert_eq!(run.acts(), ["click [12]", "type [40] [Tokyo] [1]"]);
    assert_eq!(
        run.finish(),
        (FinishCause::AllHopsDone, "all hops completed", None)
    );
    let last = run.records()[1];
    assert!(last.progress.as_ref().unwrap().at_end);
}

#[test]
fn stop_requested_records_a_started_step_then_finishes() {
    let (mut agent, _) = start(&task_json(&[]), config());
    agent.feed(observed(1, TOKYO_PAGE, "http://wiki.test/"));
    let fed = agent.feed(AgentEvent::StopRequested {
        reason: "the person pressed Stop".into(),
    });
    match &fed.commands[..] {
        [Command::Record { step: 1, record }, Command::Finish {
            cause: FinishCause::Stopped,
            reason,
            answer: None,
            hint: None,
            rule: None,
            error_kind: None,
        }] => {
            assert_eq!(
                record.note.as_deref(),
                Some("stopped before the step finished")
            );
            assert_eq!(reason, "stopped: the person pressed Stop");
        }
        other => panic!("expected record then finish, got {other:?}"),
    }
    let after = agent.feed(AgentEvent::StopRequested {
        reason: "again".into(),
    });
    assert!(after.commands.is_empty() && after.ignored.is_some());
}

#[test]
fn stop_requested_before_any_observation_records_nothing() {
    let (mut agent, _) = start(&task_json(&[]), config());
    let fed = agent.feed(AgentEvent::StopRequested {
        reason: "closed".into(),
    });
    assert!(matches!(
        &fed.commands[..],
        [Command::Finish {
            cause: FinishCause::Stopped,
            ..
        }]
    ));
    assert_eq!(agent.steps_recorded(), 0);
}

#[test]
fn a_model_that_cannot_be_used_ends_the_run_at_once_with_the_hint() {
    for kind in ["network", "auth", "not_found", "origin_rejected", "config"] {
        let run = run(Script::new(
            vec![TOKYO_PAGE],
            vec![Say::FailWith(kind), reply("```click [12]```")],
        ));
        assert_eq!(
            run.kinds(),
            ["observe", "call_model", "record", "finish"],
            "{kind}"
        );
        let record = run.records()[0];
        assert_eq!(
            record.note.as_deref(),
            Some(format!("the model call failed ({kind}): {kind} failure").as_str())
        );
        match run.commands.last() {
            Some(Command::Finish {
                cause: FinishCause::ModelUnavailable,
                reason,
                answer: None,
                hint: Some(hint),
                rule: None,
                error_kind: Some(error_kind),
            }) => {
                assert_eq!(crate::terms::name_of(error_kind), kind);
                assert_eq!(
                    reason,
                    &format!(
                        "the run cannot go on: the model call failed ({kind}): {kind} failure"
                    )
                );
                assert_eq!(hint, &format!("what to do about {kind}"));
            }
            other => panic!("{kind}: expected a finish with a hint, got {other:?}"),
        }
    }
}

#[test]
fn failures_about_one_call_are_no_op_steps_and_the_run_goes_on() {
    for kind in [
        "bad_request",
        "malformed",
        "empty",
        "rate_limited",
        "timeout",
    ] {
        let run = run(Script::new(
            vec![TOKYO_PAGE],
            vec![Say::FailWith(kind), reply("```stop [Tokyo]```")],
        ));
        assert_eq!(run.records().len(), 2, "{kind}");
        assert_eq!(run.records()[0].action, None);
        assert_eq!(run.finish().0, FinishCause::Answered, "{kind}");
    }
}

#[test]
fn the_early_stop_for_steps_without_an_action_quotes_the_last_reason() {
    let run = run(Script::new(
        vec![TOKYO_PAGE],
        vec![Say::Fail, Say::Fail, reply("I am not sure.")],
    ));
    let (cause, reason, _) = run.finish();
    assert_eq!(cause, FinishCause::EarlyStop);
    assert!(
        reason.starts_with(
            "Early stop: the last 3 steps gave no action (the last: malformed reply: "
        ),
        "{reason}"
    );
}

#[test]
fn interrupted_records_a_started_step_with_the_reason_then_ends_as_interrupted() {
    let (mut agent, _) = start(&task_json(&[]), config());
    agent.feed(observed(1, TOKYO_PAGE, "http://wiki.test/"));
    let reason = "interrupted by browser exit";
    let fed = agent.feed(AgentEvent::Interrupted {
        reason: reason.into(),
    });
    match &fed.commands[..] {
        [Command::Record { step: 1, record }, Command::Finish {
            cause: FinishCause::Interrupted,
            reason: finish_reason,
            answer: None,
            hint: None,
            rule: None,
            error_kind: None,
        }] => {
            assert_eq!(record.note.as_deref(), Some(reason));
            assert_eq!(finish_reason, reason);
        }
        other => panic!("expected record then finish, got {other:?}"),
    }
    let after = agent.feed(AgentEvent::Interrupted {
        reason: "again".into(),
    });
    assert!(after.commands.is_empty() && after.ignored.is_some());
}

#[test]
fn interrupted_before_any_observation_records_nothing() {
    let (mut agent, _) = start(&task_json(&[]), config());
    let reason = "start URL unreachable: http://127.0.0.1:9/ (net::ERR_CONNECTION_REFUSED)";
    let fed = agent.feed(AgentEvent::Interrupted {
        reason: reason.into(),
    });
    match &fed.commands[..] {
        [Command::Finish {
            cause: FinishCause::Interrupted,
            reason: finish_reason,
            ..
        }] => assert_eq!(finish_reason, reason),
        other => panic!("expected a finish alone, got {other:?}"),
    }
    assert_eq!(agent.steps_recorded(), 0);
}

/// The `rule` and `error_kind` of the run's `finish`.
fn finish_facts(run: &Run) -> (Option<EarlyStopRule>, Option<ErrorKind>) {
    match run.commands.last() {
        Some(Command::Finish {
            rule, error_kind, ..
        }) => (*rule, *error_kind),
        other => panic!("the run should end with finish, got {other:?}"),
    }
}

#[test]
fn an_early_stop_names_its_rule_beside_the_reason() {
    let no_action = run(Script::new(
        vec![TOKYO_PAGE],
        vec![Say::Fail, Say::Fail, Say::Fail],
    ));
    assert_eq!(
        finish_facts(&no_action),
        (Some(EarlyStopRule::ParseFailures), None)
    );
    let repeated = run(Script::new(
        vec![TOKYO_PAGE],
        vec![reply("```scroll [down]```"); 3],
    ));
    assert_eq!(
        finish_facts(&repeated),
        (Some(EarlyStopRule::RepeatedAction), None)
    );
    let limited = run_with(
        AgentConfig {
            max_steps: 1,
            ..config()
        },
        Script::new(vec![TOKYO_PAGE], vec![reply("```click [12]```")]),
    );
    assert_eq!(
        finish_facts(&limited),
        (Some(EarlyStopRule::MaxSteps), None)
    );
    // Other endings have no rule.
    let answered = run(Script::new(
        vec![TOKYO_PAGE],
        vec![reply("```stop [Tokyo]```")],
    ));
    assert_eq!(answered.finish().0, FinishCause::Answered);
    assert_eq!(finish_facts(&answered), (None, None));
}

#[test]
fn a_model_failure_that_ends_the_run_names_the_call_error_kind() {
    for (kind, cause) in [
        ("network", FinishCause::ModelUnavailable),
        ("context_overflow", FinishCause::ContextOverflow),
        ("unsupported_input", FinishCause::UnsupportedInput),
    ] {
        let run = run(Script::new(vec![TOKYO_PAGE], vec![Say::FailWith(kind)]));
        assert_eq!(run.finish().0, cause, "{kind}");
        assert_eq!(
            finish_facts(&run),
            (None, ErrorKind::from_name(kind)),
            "{kind}"
        );
    }
}
