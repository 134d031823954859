//! Procedural memory through whole runs: the records a run leaves, what the next
//! run's prompt shows of them, and that no answer or condition gets through.

use serde_json::json;

use super::harness::*;
use crate::agent::{Agent, AgentConfig, FinishCause};
use crate::evaluator::Verdict;
use crate::memory::{
    MemoryPolicy, MemoryRecord, MemorySettings, MemoryStep, MemoryVerdict, MEMORY_HEADING,
};
use crate::model::ModelRequest;

/// A task whose reference answer and hop conditions appear nowhere in its intent, so
/// finding them in a prompt can only mean a leak.
fn secret_task(id: &str) -> String {
    json!({
        "id": id,
        "intent": "Which city has a red tower? Open its page, then say how tall the tower is.",
        "start_urls": ["http://wiki.test/"],
        "hops": [
            {"condition": {"kind": "url", "part": "path", "op": "equals", "value": "/hop-path-qx7"}},
            {"condition": {"kind": "answer", "must_include": ["HopAnswerZ9"]}}
        ],
        "final_answer": {"condition": {"must_include": ["TowerHeight333"], "exact_match": "333 metres zq"}},
    })
    .to_string()
}

fn with_memory(k: u32, policy: MemoryPolicy) -> AgentConfig {
    AgentConfig {
        memory: MemorySettings { k, policy },
        ..config()
    }
}

fn passed(hop_steps: Vec<u32>) -> Verdict {
    Verdict {
        passed: true,
        hops_done: hop_steps.len(),
        hops_total: 2,
        hop_steps,
        answer: None,
        reason: "all hops completed".into(),
    }
}

/// A model that follows memory: when the prompt shows a past task that clicked the
/// Tokyo link and was solved, it clicks Tokyo's id on this page; with nothing to go
/// on it tries San Francisco. Then it answers.
fn memory_follower(request: &ModelRequest) -> String {
    let user = match &request.messages[0].parts[0] {
        crate::model::Part::Text { text } => text.clone(),
        other => panic!("text first, got {other:?}"),
    };
    if user.contains("PREVIOUS ACTION: None") {
        let learnt = request.system.contains(MEMORY_HEADING)
            && request.system.contains("click {link 'Tokyo'}")
            && request.system.contains("OUTCOME: PASS");
        let id = if learnt { 12 } else { 13 };
        format!("In summary, the next action I will perform is ```click [{id}]```")
    } else {
        "In summary, the next action I will perform is ```stop [TowerHeight333, 333 metres zq, HopAnswerZ9]```"
            .to_string()
    }
}

/// Runs `task` with `pool` as memory; gives back the machine and the run.
fn run_task(task: &str, config: AgentConfig, pool: &[MemoryRecord]) -> (Agent, Run) {
    let (agent, first) = Agent::start_with_memory(task, "demo.json", config, pool).unwrap();
    let script = Script::new(vec![TOKYO_PAGE, EVENTS_PAGE], Vec::new()).answering(memory_follower);
    drive_agent(agent, first, script, true)
}

#[test]
fn a_finished_run_leaves_a_record_of_its_steps_without_its_answer() {
    let (agent, run) = run_task(
        &secret_task("w/one"),
        with_memory(1, MemoryPolicy::Recent),
        &[],
    );
    assert_eq!(run.finish().0, FinishCause::Answered);
    let record = agent.memory_record(&passed(vec![1, 2])).unwrap();
    assert_eq!(record.task_id, "w/one");
    assert_eq!(record.subset, "w");
    assert_eq!(record.sites, ["wiki.test"]);
    assert_eq!(
        record.steps,
        [
            MemoryStep {
                action: Some("click {link 'San Francisco'}".into()),
                site: Some("site.test".into())
            },
            MemoryStep {
                action: Some("stop (with an answer, not kept in memory)".into()),
                site: Some("site.test".into())
            },
        ]
    );
    assert_eq!(record.hop_steps, [1, 2]);
    assert_eq!(record.verdict, MemoryVerdict::Pass);
    assert_eq!(record.ended, FinishCause::Answered);
    let stored = serde_json::to_string(&record).unwrap();
    for secret in [
        "TowerHeight333",
        "333 metres zq",
        "HopAnswerZ9",
        "hop-path-qx7",
    ] {
        assert!(!stored.contains(secret), "{secret} in {stored}");
    }
}

#[test]
fn a_stopped_run_leaves_no_record() {
    let (mut agent, first) =
        Agent::start_with_memory(&secret_task("w/one"), "demo.json", config(), &[]).unwrap();
    assert!(matches!(first[0], crate::agent::Command::Observe { .. }));
    assert_eq!(agent.memory_record(&passed(vec![])), None, "still running");
    agent.feed(crate::agent::AgentEvent::StopRequested {
        reason: "the person".into(),
    });
    assert!(agent.is_finished());
    assert_eq!(agent.memory_record(&passed(vec![])), None);
}

#[test]
fn memory_reaches_the_prompt_changes_what_the_model_does_and_leaks_no_answer() {
    // Without memory the model guesses San Francisco.
    let (_, alone) = run_task(&secret_task("w/two"), config(), &[]);
    assert_eq!(alone.acts()[0], "click [13]");
    assert!(!alone.requests()[0].system.contains(MEMORY_HEADING));

    // A solved earlier task that clicked Tokyo: the record a real run leaves.
    let mut earlier = {
        let (agent, _) = run_task(&secret_task("w/one"), config(), &[]);
        agent.memory_record(&passed(vec![1, 2])).unwrap()
    };
    earlier.steps[0].action = Some("click {link 'Tokyo'}".into());

    let (agent, run) = run_task(
        &secret_task("w/two"),
        with_memory(2, MemoryPolicy::Recent),
        &[earlier],
    );
    assert_eq!(agent.memory_tasks(), ["w/one"]);
    assert_eq!(run.acts()[0], "click [12]", "the model followed its memory");
    let system = &run.requests()[0].system;
    let section = agent.memory_section().unwrap();
    assert!(system.contains(section));
    assert!(section.starts_with(MEMORY_HEADING));
    assert!(section.contains("Past task 1:\nINTENT: Which city has a red tower?"));
    // The section sits after the examples and before the task begins.
    let at = |needle: &str| system.find(needle).unwrap();
    assert!(at("Here are two examples") < at(MEMORY_HEADING));
    assert!(at(MEMORY_HEADING) < at("Now the real task begins"));
    // Every prompt of the run, and every record of it, is free of the answers and
    // conditions of the task in memory (the same as this one's).
    for record in run.records() {
        let prompt = format!("{}\n{}", record.prompt.system, record.prompt.user);
        assert!(prompt.contains(MEMORY_HEADING));
        for secret in [
            "TowerHeight333",
            "333 metres zq",
            "HopAnswerZ9",
            "hop-path-qx7",
        ] {
            assert!(
                !prompt.contains(secret),
                "{secret} leaked into step {}",
                record.step
            );
        }
    }
}

#[test]
fn similarity_retrieval_shows_the_related_task() {
    let record = |id: &str, intent: &str| MemoryRecord {
        task_id: id.into(),
        subset: "w".into(),
        intent: intent.into(),
        sites: vec!["wiki.test".into()],
        steps: Vec::new(),
        hops_total: 1,
        hop_steps: Vec::new(),
        verdict: MemoryVerdict::Fail,
        ended: FinishCause::EarlyStop,
        by_person: false,
    };
    let pool = vec![
        record(
            "recipes",
            "Find the quickest Korean recipe and give its time.",
        ),
        record(
            "tower",
            "Which city has a tall red tower? Open the page of that city.",
        ),
        record("flights", "Book the cheapest flight from London to Paris."),
        record("shoes", "Add red running shoes to the cart."),
    ];
    let (agent, run) = run_task(
        &secret_task("w/two"),
        with_memory(1, MemoryPolicy::Similar),
        &pool,
    );
    assert_eq!(agent.memory_tasks(), ["tower"]);
    let system = &run.requests()[0].system;
    assert!(system.contains("INTENT: Which city has a tall red tower?"));
    assert!(system.contains("the most similar first"));
    assert!(!system.contains("Korean recipe"));

    // Recent ignores meaning: the last task run is shown.
    let (agent, _) = run_task(
        &secret_task("w/two"),
        with_memory(1, MemoryPolicy::Recent),
        &pool,
    );
    assert_eq!(agent.memory_tasks(), ["shoes"]);
}

#[test]
fn memory_settings_are_checked_and_off_by_default() {
    assert_eq!(AgentConfig::default().memory.k, 0);
    let err = AgentConfig::from_json(r#"{"memory": {"k": 11}}"#).unwrap_err();
    assert!(
        err.to_string().contains("memory.k must be from 0 to 10"),
        "{err}"
    );
    let config = AgentConfig::from_json(r#"{"memory": {"k": 2, "policy": "similar"}}"#).unwrap();
    assert_eq!(config.memory.policy, MemoryPolicy::Similar);
}
