//! Whole runs with a model: how each kind of step is carried out, recorded and fed
//! back into the next prompt, and how runs end.

use super::harness::*;
use crate::agent::{AgentConfig, AgentEvent, Command, FinishCause};

#[test]
fn a_stop_answer_acts_then_finishes_with_the_answer() {
    let run = run(Script::new(
        vec![TOKYO_PAGE, EVENTS_PAGE],
        vec![
            reply("The red tower is in Tokyo. In summary, the next action I will perform is ```click [12]```"),
            reply("Done. In summary, the next action I will perform is ```stop [Tokyo]```"),
        ],
    ));
    assert_eq!(
        run.kinds(),
        [
            "observe",
            "call_model",
            "act",
            "record",
            "observe",
            "call_model",
            "act",
            "record",
            "finish"
        ]
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

    let records = run.records();
    assert_eq!(records.iter().map(|r| r.step).collect::<Vec<_>>(), [1, 2]);
    let first = records[0];
    assert_eq!(first.observation.text, TOKYO_PAGE);
    assert_eq!(first.observation.url, "http://site.test/page1");
    assert_eq!(
        first.action.as_ref().map(|a| a.text.as_str()),
        Some("click [12]")
    );
    assert!(first
        .reply
        .as_ref()
        .unwrap()
        .text
        .starts_with("The red tower is in Tokyo."));
    assert_eq!(first.reply.as_ref().unwrap().attempts.len(), 1);
    assert_eq!((first.tokens.input, first.tokens.output), (1000, 50));
    assert_eq!(first.result.as_ref().unwrap().error, None);
    assert!(first.progress.is_some());
    assert_eq!(first.prompt.system, run.requests()[0].system);
    assert!(first.prompt.user.contains("PREVIOUS ACTION: None"));

    // The second prompt names what [12] was on the page the click was chosen on.
    let second = &run.user_turns()[1];
    assert!(
        second.contains("PREVIOUS ACTION: click [12] where [12] is link 'Tokyo'"),
        "{second}"
    );
    assert!(second.contains(EVENTS_PAGE));
    assert!(!second.contains("FEEDBACK"));
}

#[test]
fn the_objective_carries_the_intent_and_the_reference_sites() {
    let run = run(Script::new(
        vec![TOKYO_PAGE],
        vec![reply("```stop [Tokyo]```")],
    ));
    let turn = &run.user_turns()[0];
    assert!(
        turn.contains(
            "OBJECTIVE: Which city has a red tower, Tokyo or San Francisco? Find events there.\n\
         Reference websites: Events: http://events.test/"
        ),
        "{turn}"
    );
    assert!(turn.contains("URL: http://site.test/page1"));
}

#[test]
fn a_malformed_reply_is_a_no_op_step_and_the_next_prompt_says_why() {
    let run = run(Script::new(
        vec![TOKYO_PAGE],
        vec![
            reply("I would probably click on Tokyo."),
            reply("In summary, the next action I will perform is ```clik [12]```"),
            reply("```stop [Tokyo]```"),
        ],
    ));
    assert_eq!(
        run.kinds(),
        [
            "observe",
            "call_model",
            "record",
            "observe",
            "call_model",
            "record",
            "observe",
            "call_model",
            "act",
            "record",
            "finish"
        ],
        "no act for a reply without an action"
    );
    let records = run.records();
    assert_eq!(records[0].action, None);
    assert_eq!(records[0].result, None);
    assert!(records[0]
        .note
        .as_deref()
        .unwrap()
        .starts_with("malformed reply: no action found"));
    assert_eq!(
        records[0].tokens.output, 50,
        "a wasted call still costs tokens"
    );

    let turns = run.user_turns();
    assert!(turns[1].contains("PREVIOUS ACTION: None"));
    assert!(
        turns[1].contains("FEEDBACK: your previous reply was not carried out because it is malformed: no action found"),
        "{}",
        turns[1]
    );
    // The parser's own message reaches the model: it names the bad action.
    assert!(turns[2].contains("unknown action `clik`"), "{}", turns[2]);
    assert!(turns[2].contains("did you mean `click`?"));
    // Feedback is shown once, not carried into later prompts.
    assert_eq!(run.finish().0, FinishCause::Answered);
}

#[test]
fn an_action_on_a_missing_element_is_fed_back_naming_the_element() {
    let run = run(Script::new(
        vec![TOKYO_PAGE],
        vec![
            reply("```click [99]```"),
            reply("```click [12]```"),
            reply("```stop [Tokyo]```"),
        ],
    )
    .acting(|action| ActOutcome {
        error: (action == "click [99]")
            .then(|| "no element [99] on this page: unknown id".to_string()),
        at_end: false,
    }));
    let records = run.records();
    assert_eq!(records[0].action.as_ref().unwrap().text, "click [99]");
    assert_eq!(
        records[0].result.as_ref().unwrap().error.as_deref(),
        Some("no element [99] on this page: unknown id")
    );
    let turns = run.user_turns();
    assert!(turns[1].contains("PREVIOUS ACTION: click [99] where [99] was not in the observation"));
    assert!(
        turns[1].contains(
            "FEEDBACK: `click [99]` was not carried out: there is no element [99] on the page"
        ),
        "{}",
        turns[1]
    );
    assert!(!turns[2].contains("FEEDBACK"), "{}", turns[2]);
}

#[test]
fn other_action_errors_are_fed_back_as_the_browser_said() {
    let run = run(Script::new(
        vec![TOKYO_PAGE],
        vec![
            reply("```goto [http://gone.test/]```"),
            reply("```stop [x]```"),
        ],
    )
    .acting(|action| ActOutcome {
        error: action
            .starts_with("goto")
            .then(|| "net::ERR_NAME_NOT_RESOLVED".to_string()),
        at_end: false,
    }));
    let turn = &run.user_turns()[1];
    assert!(
        turn.contains("FEEDBACK: `goto [http://gone.test/]` failed: net::ERR_NAME_NOT_RESOLVED."),
        "{turn}"
    );
}

#[test]
fn a_failed_model_call_is_a_recorded_no_op_step() {
    let run = run(Script::new(
        vec![TOKYO_PAGE],
        vec![Say::Fail, reply("```stop [Tokyo]```")],
    ));
    assert_eq!(
        run.kinds(),
        [
            "observe",
            "call_model",
            "record",
            "observe",
            "call_model",
            "act",
            "record",
            "finish"
        ]
    );
    let failed = run.records()[0];
    assert_eq!(failed.reply, None);
    assert_eq!(failed.action, None);
    let error = failed.model_error.as_ref().unwrap();
    assert_eq!(
        (error.error.kind.as_str(), error.attempts.len()),
        ("server", 4)
    );
    assert_eq!(
        failed.note.as_deref(),
        Some("the model call failed (server): HTTP 503")
    );
    assert!(
        !run.user_turns()[1].contains("FEEDBACK"),
        "the model did nothing wrong"
    );
}

#[test]
fn stale_and_unexpected_events_change_nothing() {
    let (mut agent, first) = start(&task_json(&[]), config());
    assert!(matches!(
        first[..],
        [Command::Observe {
            step: 1,
            whole_page: false,
            ..
        }]
    ));
    let before = agent.clone();
    let stale = agent.feed(AgentEvent::Acted {
        step: 7,
        effect: serde_json::Value::Null,
        error: None,
        progress: None,
    });
    assert!(stale.commands.is_empty());
    assert_eq!(
        stale.ignored.as_deref(),
        Some("acted for step 7 is stale: the run is at step 1")
    );
    let early = agent.feed(AgentEvent::Acted {
        step: 1,
        effect: serde_json::Value::Null,
        error: None,
        progress: None,
    });
    assert_eq!(
        early.ignored.as_deref(),
        Some("acted for step 1 is not expected now: waiting for observed")
    );
    assert_eq!(agent, before);
}

#[test]
fn bad_settings_are_refused_with_the_reason() {
    let task = task_json(&[]);
    let error = crate::agent::Agent::start(
        &task,
        "t.json",
        AgentConfig {
            max_steps: 0,
            ..config()
        },
    );
    assert_eq!(
        error.err().map(|e| e.to_string()).as_deref(),
        Some("the agent settings are not valid: max_steps must be at least 1")
    );
    let error = AgentConfig::from_json(r#"{"max_step": 3}"#)
        .err()
        .map(|e| e.to_string());
    assert!(error.unwrap().contains("unknown field `max_step`"));
    assert_eq!(
        AgentConfig::from_json("{}").unwrap(),
        AgentConfig::default()
    );
}

#[test]
fn max_obs_tokens_cuts_the_prompts_observation_and_the_record_says_so() {
    let config = AgentConfig {
        max_obs_tokens: Some(8),
        ..config()
    };
    let run = run_with(
        config,
        Script::new(
            vec![TOKYO_PAGE],
            vec![reply(
                "In summary, the next action I will perform is ```stop [Tokyo]```",
            )],
        ),
    );
    let record = run.records()[0];
    // The record keeps the whole observation; the prompt shows its first lines only.
    assert_eq!(record.observation.text, TOKYO_PAGE);
    let cut = record
        .prompt
        .observation_cut
        .expect("the observation was cut");
    assert_eq!(cut.max_tokens, 8);
    assert!(cut.kept_tokens <= 8 && cut.estimated_tokens > 8, "{cut:?}");
    let shown = record.prompt.user.split("\nURL: ").next().unwrap();
    let shown = shown.strip_prefix("OBSERVATION:\n").unwrap();
    assert!(
        TOKYO_PAGE.starts_with(shown) && shown.len() < TOKYO_PAGE.len(),
        "{shown:?}"
    );
    assert_eq!(run.user_turns()[0], record.prompt.user);
}

#[test]
fn without_max_obs_tokens_the_whole_observation_is_sent() {
    let run = run(Script::new(
        vec![TOKYO_PAGE],
        vec![reply(
            "In summary, the next action I will perform is ```stop [Tokyo]```",
        )],
    ));
    let record = run.records()[0];
    assert_eq!(record.prompt.observation_cut, None);
    assert!(record
        .prompt
        .user
        .starts_with(&format!("OBSERVATION:\n{TOKYO_PAGE}\nURL: ")));
}

#[test]
fn a_megabyte_reply_is_kept_as_its_head_and_tail_with_its_length_and_its_action_still_taken() {
    let thinking = "I keep thinking about the tower. ".repeat(32_000);
    let text = format!("{thinking}In summary, the next action I will perform is ```click [12]```");
    let run = run(Script::new(
        vec![TOKYO_PAGE, EVENTS_PAGE],
        vec![
            reply(&text),
            reply("Done. In summary, the next action I will perform is ```stop [Tokyo]```"),
        ],
    ));
    assert_eq!(run.acts(), ["click [12]", "stop [Tokyo]"]);
    let records = run.records();
    let kept = records[0].reply.as_ref().unwrap();
    assert_eq!(kept.text_chars, Some(text.chars().count()));
    assert!(kept.text.chars().count() < crate::agent::record::REPLY_KEPT_CHARS + 100);
    assert!(kept.text.starts_with("I keep thinking about the tower."));
    assert!(kept.text.ends_with("```click [12]```"));
    assert!(kept.text.contains(&format!(
        "characters of the reply cut here; it had {} …]",
        text.chars().count()
    )));
    // A short reply is kept whole, with no length beside it.
    let second = records[1].reply.as_ref().unwrap();
    assert_eq!(second.text_chars, None);
    assert!(second.text.starts_with("Done."));
}
