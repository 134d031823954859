//! A person's own agent (`AgentKind::Http`): each request is the protocol's data (the
//! task without what scores it, the observation, the history with results and notes,
//! the feedback), the reply's action is read strictly, and a reply that is not one
//! action becomes a no-op step whose reason the next request carries.

use serde_json::Value;

use super::harness::*;
use crate::agent::config::AgentKind;
use crate::agent::{AgentConfig, FinishCause};
use crate::model::ModelRequest;

fn http() -> AgentConfig {
    AgentConfig {
        agent: AgentKind::Http,
        ..config()
    }
}

/// The protocol request each model call carries.
fn bodies(run: &Run) -> Vec<Value> {
    run.requests()
        .iter()
        .map(|r: &&ModelRequest| {
            r.agent
                .clone()
                .expect("an http agent's call carries its request")
        })
        .collect()
}

#[test]
fn each_step_sends_the_task_brief_the_observation_and_the_history() {
    let script = Script::new(
        vec![TOKYO_PAGE, EVENTS_PAGE],
        vec![reply("click [12]"), reply("stop [Tokyo]")],
    );
    let run = run_with(http(), script);
    let bodies = bodies(&run);
    assert_eq!(bodies.len(), 2);
    let first = &bodies[0];
    assert_eq!(first["protocol"], 1);
    assert_eq!(first["kind"], "step");
    assert_eq!(first["step"], 1);
    assert_eq!(first["max_steps"], 10);
    assert_eq!(first["task"]["id"], "demo/red-tower");
    assert_eq!(first["task"]["start_urls"][0], "http://wiki.test/");
    assert_eq!(first["task"]["sites"][0]["label"], "Events");
    // The hops have no description in this task: null, never the condition's words.
    assert_eq!(first["task"]["hops"].as_array().unwrap().len(), 2);
    assert_eq!(first["task"]["hops"][0]["description"], Value::Null);
    assert_eq!(first["observation"]["text"], TOKYO_PAGE);
    assert_eq!(first["observation"]["url"], "http://site.test/page1");
    assert_eq!(first["observation"]["format"], "mmina");
    assert_eq!(first["observation"]["mode"], "text");
    assert_eq!(first["history"], serde_json::json!([]));
    assert_eq!(first["feedback"], Value::Null);
    let second = &bodies[1];
    assert_eq!(second["step"], 2);
    assert_eq!(
        second["history"],
        serde_json::json!([{"step": 1, "url": "http://site.test/page1", "action": "click [12]", "error": null, "note": null}])
    );
    assert_eq!(run.acts(), ["click [12]", "stop [Tokyo]"]);
    assert_eq!(run.finish().0, FinishCause::Answered);
    // No system prompt: the agent gets data. The record keeps the request as sent.
    let records = run.records();
    assert_eq!(records[0].prompt.system, "");
    assert!(records[0].prompt.user.contains("\"kind\": \"step\""));
}

#[test]
fn the_task_brief_never_carries_conditions_answers_or_the_reference() {
    let task = fuzzy_task_json(&["click {link 'Tokyo'}", "stop [Tokyo]"]);
    let (agent, first) = start(&task, http());
    let script = Script::new(vec![TOKYO_PAGE], vec![reply("stop [N/A]")]).judging(tokyo_judge);
    let run = drive(agent, first, script, false);
    let body = &bodies(&run)[0];
    let brief = body["task"].as_object().unwrap();
    let keys: Vec<&str> = brief.keys().map(String::as_str).collect();
    assert_eq!(keys, ["hops", "id", "intent", "sites", "start_urls"]);
    for hop in body["task"]["hops"].as_array().unwrap() {
        let keys: Vec<&String> = hop.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["description"]);
    }
    let text = body.to_string();
    for secret in [
        "condition",
        "fuzzy_match",
        "reference_trajectory",
        "click {link",
        "events.test\",\"tokens",
    ] {
        assert!(!text.contains(secret), "{secret:?} leaked into {text}");
    }
}

#[test]
fn a_failed_action_comes_back_as_the_steps_error_and_the_next_feedback() {
    let script = Script::new(
        vec![TOKYO_PAGE],
        vec![reply("click [99]"), reply("stop [N/A]")],
    )
    .acting(|action| ActOutcome {
        error: action
            .starts_with("click")
            .then(|| "no element [99]".to_string()),
        at_end: false,
    });
    let run = run_with(http(), script);
    let second = &bodies(&run)[1];
    assert_eq!(second["history"][0]["action"], "click [99]");
    assert_eq!(second["history"][0]["error"], "no element [99]");
    let feedback = second["feedback"].as_str().unwrap();
    assert!(feedback.contains("click [99]"), "{feedback}");
    assert!(feedback.contains("no element [99]"), "{feedback}");
}

#[test]
fn a_reply_that_is_not_one_action_is_a_no_op_step_the_next_request_explains() {
    let script = Script::new(
        vec![TOKYO_PAGE],
        vec![
            reply("I would click Tokyo"),
            reply("```click [12]```"),
            reply("stop [Tokyo]"),
        ],
    );
    let run = run_with(http(), script);
    let bodies = bodies(&run);
    // Read strictly: the prompt agent's extraction rules (fences, summary phrase) are
    // for models; an agent sends the action itself.
    assert_eq!(run.acts(), ["stop [Tokyo]"]);
    assert_eq!(bodies[1]["history"][0]["action"], Value::Null);
    let note = bodies[1]["history"][0]["note"].as_str().unwrap();
    assert!(note.contains("I would click Tokyo"), "{note}");
    let feedback = bodies[1]["feedback"].as_str().unwrap();
    assert!(feedback.contains("was not carried out"), "{feedback}");
    // The feedback is told once.
    assert_eq!(
        bodies[2]["feedback"]
            .as_str()
            .map(|f| f.contains("```click")),
        Some(true)
    );
    assert_eq!(run.records().len(), 3);
}

#[test]
fn the_run_resumes_with_its_history_after_a_worker_restart() {
    let script = Script::new(
        vec![TOKYO_PAGE, EVENTS_PAGE],
        vec![
            reply("click [12]"),
            reply("click [40]"),
            reply("stop [Tokyo]"),
        ],
    );
    let (agent, first) = start(&task_json(&[]), http());
    let run = drive(agent, first, script, true);
    let bodies = bodies(&run);
    let last = bodies.last().unwrap();
    let actions: Vec<&Value> = last["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["action"])
        .collect();
    assert_eq!(actions, ["click [12]", "click [40]"]);
    assert_eq!(run.finish().0, FinishCause::Answered);
}
