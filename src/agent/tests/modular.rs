//! The modular agent: candidate ranking, the stages' calls in order with their inputs
//! and outputs in the record, the strict grounding answer, selection, the no-op step
//! when nothing fits, and stale answers to earlier calls.

use serde_json::Value;

use super::harness::*;
use crate::agent::config::{
    AgentKind, GroundingMode, ModularSettings, ObservationMode, SelectMode,
};
use crate::agent::{rank_candidates, Agent, AgentConfig, AgentEvent, Command, FinishCause};
use crate::model::{ModelReply, ModelRequest, Part, Usage};

fn modular(select: SelectMode) -> AgentConfig {
    AgentConfig {
        agent: AgentKind::Modular,
        modular: ModularSettings {
            candidates: 24,
            sections: 3,
            select,
            grounding: GroundingMode::Textual,
        },
        ..config()
    }
}

/// The pictures a request carries (their base64), in order.
fn pictures(request: &ModelRequest) -> Vec<String> {
    request.messages[0]
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Image { base64, .. } => Some(base64.clone()),
            Part::Text { .. } => None,
        })
        .collect()
}

/// The stage of each model request, read from its system text.
fn stage_of(request: &ModelRequest) -> &'static str {
    if request.system.contains("ELEMENT: <the letter") {
        "grounding"
    } else if request.system.contains("CHOICE: <the letter") {
        "selection"
    } else {
        "planning"
    }
}

fn user_text(request: &ModelRequest) -> String {
    match &request.messages[0].parts[0] {
        Part::Text { text } => text.clone(),
        other => panic!("text first, got {other:?}"),
    }
}

/// The letter of the line containing `needle` in a lettered list.
fn letter_of(user: &str, needle: &str) -> Option<char> {
    user.lines()
        .find(|l| l.len() > 3 && &l[1..3] == ". " && l.contains(needle))
        .and_then(|l| l.chars().next())
}

/// Plans to click Tokyo, grounds it wherever it is listed (and, with `greedy`, any
/// link), picks Tokyo when asked to choose, then answers.
fn stage_model(greedy: bool) -> impl FnMut(&ModelRequest) -> String {
    move |request| {
        let user = user_text(request);
        if request.system.contains("ELEMENT: <the letter") {
            let letter = letter_of(&user, "link 'Tokyo'")
                .or_else(|| greedy.then(|| letter_of(&user, "link ")).flatten());
            return match letter {
                Some(l) => format!("ELEMENT: {l}\nACTION: CLICK\nVALUE: None"),
                None => "ELEMENT: None\nACTION: CLICK\nVALUE: None".into(),
            };
        }
        if request.system.contains("CHOICE: <the letter") {
            return format!("CHOICE: {}", letter_of(&user, "'Tokyo'").unwrap_or('Z'));
        }
        if user.contains("PREVIOUS ACTION: None") {
            "The tower is in Tokyo.\nPLAN: click the link 'Tokyo'".into()
        } else {
            "Done.\n```stop [Tokyo]```".into()
        }
    }
}

fn stages(record: &crate::agent::StepRecord) -> Value {
    serde_json::to_value(record.stages.as_ref().expect("a modular step has stages")).unwrap()
}

#[test]
fn candidates_are_ranked_by_the_task_and_split_into_sections() {
    let ranked = rank_candidates(
        TOKYO_PAGE,
        "Which city has a red tower, Tokyo or San Francisco?",
        24,
    );
    let ids: Vec<u32> = ranked.iter().map(|c| c.id).collect();
    // San Francisco shares two words, Tokyo one; the search box none (its role prior
    // keeps it); the root web area is not something to act on.
    assert_eq!(ids, [13, 12, 20]);
    assert_eq!(ranked[1].line, "link 'Tokyo'");
    assert_eq!(rank_candidates(TOKYO_PAGE, "x", 2).len(), 2);
    assert_eq!(
        crate::agent::modular_sections(5, 2),
        [vec![0, 1, 2], vec![3, 4]]
    );
    assert_eq!(crate::agent::modular_sections(2, 3), [vec![0], vec![1]]);
    assert!(crate::agent::modular_sections(0, 3).is_empty());
}

#[test]
fn a_step_plans_grounds_each_section_and_acts_with_every_stage_recorded() {
    let (agent, first) = start(&task_json(&[]), modular(SelectMode::Model));
    let script =
        Script::new(vec![TOKYO_PAGE, EVENTS_PAGE], Vec::new()).answering(stage_model(false));
    let run = drive(agent, first, script, true);
    assert_eq!(run.acts(), ["click [12]", "stop [Tokyo]"]);
    assert_eq!(run.finish().0, FinishCause::Answered);
    // Step 1: planning, then three sections (one candidate each); one viable answer,
    // so no selection call. Step 2: the plan writes the stop itself.
    let calls: Vec<u32> = run
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::CallModel { call, .. } => Some(*call),
            _ => None,
        })
        .collect();
    assert_eq!(calls, [1, 2, 3, 4, 1]);

    let records = run.records();
    let s = stages(records[0]);
    assert_eq!(s["agent"], "modular");
    assert_eq!(s["sections"], serde_json::json!([[13], [12], [20]]));
    assert_eq!(s["plan"], "click the link 'Tokyo'");
    let stages_called: Vec<&str> = s["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["stage"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages_called,
        ["planning", "grounding 1", "grounding 2", "grounding 3"]
    );
    let grounding_2 = &s["calls"][2];
    assert!(grounding_2["user"]
        .as_str()
        .unwrap()
        .ends_with("PLAN: click the link 'Tokyo'\nELEMENTS:\nA. link 'Tokyo'"));
    assert_eq!(
        grounding_2["reply"],
        "ELEMENT: A\nACTION: CLICK\nVALUE: None"
    );
    assert!(s["calls"][0]["user"]
        .as_str()
        .unwrap()
        .starts_with("OBSERVATION:\n"));
    // The stage log diagnosis scores.
    let log = &s["log"];
    assert_eq!(
        log["plan_target"],
        serde_json::json!({"role": "link", "name": "'Tokyo'"})
    );
    assert_eq!(log["grounded"][0], Value::Null);
    assert_eq!(log["grounded"][1]["element"]["name"], "'Tokyo'");
    assert_eq!(log["selected"], log["grounded"][1]);
    assert_eq!(log["executed"], log["grounded"][1]);
    // The step's prompt and reply are the planning stage's.
    assert!(records[0].prompt.system.contains("PLAN: <the action>"));
    assert!(records[0]
        .reply
        .as_ref()
        .unwrap()
        .text
        .ends_with("PLAN: click the link 'Tokyo'"));

    let s = stages(records[1]);
    assert_eq!(s["plan"], Value::Null);
    assert_eq!(s["calls"].as_array().unwrap().len(), 1);
    assert_eq!(s["log"]["executed"]["op"], "stop");
}

#[test]
fn several_viable_answers_go_to_the_model_or_to_the_first() {
    let (agent, first) = start(&task_json(&[]), modular(SelectMode::Model));
    let script =
        Script::new(vec![TOKYO_PAGE, EVENTS_PAGE], Vec::new()).answering(stage_model(true));
    let run = drive(agent, first, script, false);
    // San Francisco's section comes first, but the selector chooses Tokyo.
    assert_eq!(run.acts()[0], "click [12]");
    let s = stages(run.records()[0]);
    assert_eq!(s["calls"][4]["stage"], "selection");
    assert!(s["calls"][4]["user"]
        .as_str()
        .unwrap()
        .contains("A. click [13] where [13] is link 'San Francisco'\nB. click [12] where [12] is link 'Tokyo'"));
    assert_eq!(s["log"]["selected"]["element"]["name"], "'Tokyo'");

    let (agent, first) = start(&task_json(&[]), modular(SelectMode::FirstViable));
    let script =
        Script::new(vec![TOKYO_PAGE, EVENTS_PAGE], Vec::new()).answering(stage_model(true));
    let run = drive(agent, first, script, false);
    assert_eq!(
        run.acts()[0],
        "click [13]",
        "the first viable: San Francisco"
    );
    let s = stages(run.records()[0]);
    assert_eq!(s["calls"].as_array().unwrap().len(), 4, "no selection call");
}

#[test]
fn a_plan_no_section_grounds_is_a_no_op_step_with_feedback() {
    let mut asked = Vec::new();
    let (agent, first) = start(&task_json(&[]), modular(SelectMode::Model));
    let script = Script::new(vec![TOKYO_PAGE], Vec::new()).answering(move |request: &ModelRequest| {
        let user = user_text(request);
        if request.system.contains("ELEMENT: <the letter") {
            return "ELEMENT: None\nACTION: CLICK\nVALUE: None".into();
        }
        asked.push(user.clone());
        if asked.len() == 1 {
            "PLAN: click the button 'Kyoto'".into()
        } else {
            assert!(user.contains("FEEDBACK: none of the candidate elements matched your plan (click the button 'Kyoto')"), "{user}");
            "```stop [N/A]```".into()
        }
    });
    let run = drive(agent, first, script, false);
    assert_eq!(run.acts(), ["stop [N/A]"]);
    let first = run.records()[0];
    assert!(first.action.is_none());
    assert_eq!(
        first.note.as_deref(),
        Some("modular: no candidate element fits the plan \"click the button 'Kyoto'\"")
    );
    assert_eq!(stages(first)["log"]["plan_target"], Value::Null);
}

#[test]
fn an_unreadable_grounding_is_taken_as_none_and_said_so() {
    let (agent, first) = start(&task_json(&[]), modular(SelectMode::Model));
    let script = Script::new(vec![TOKYO_PAGE, EVENTS_PAGE], Vec::new()).answering(
        |request: &ModelRequest| {
            let user = user_text(request);
            if request.system.contains("ELEMENT: <the letter") {
                return match letter_of(&user, "link 'Tokyo'") {
                    Some(l) => format!("**ELEMENT:** {l}\n**ACTION:** CLICK\n**VALUE:** None"),
                    None => "I think it is the second one.".into(),
                };
            }
            if user.contains("PREVIOUS ACTION: None") {
                "PLAN: click the link 'Tokyo'".into()
            } else {
                "```stop [Tokyo]```".into()
            }
        },
    );
    let run = drive(agent, first, script, false);
    assert_eq!(run.acts()[0], "click [12]");
    let s = stages(run.records()[0]);
    assert_eq!(
        s["calls"][1]["error"],
        "unreadable answer, taken as None: no ELEMENT line"
    );
    assert_eq!(s["calls"][2]["error"], Value::Null);
}

#[test]
fn an_answer_to_an_earlier_call_is_stale_and_a_failed_call_ends_the_step() {
    let (mut agent, first) =
        Agent::start(&task_json(&[]), "demo.json", modular(SelectMode::Model)).unwrap();
    assert!(matches!(first[0], Command::Observe { .. }));
    let fed = agent.feed(observed(1, TOKYO_PAGE, "http://wiki.test/"));
    assert!(matches!(
        fed.commands[..],
        [Command::CallModel { call: 1, .. }]
    ));
    let reply = |call, text: &str| AgentEvent::ModelReplied {
        step: 1,
        reply: ModelReply {
            text: text.into(),
            usage: Usage {
                input_tokens: 100,
                output_tokens: 10,
                cached_input_tokens: 0,
            },
            reasoning: None,
        },
        attempts: Vec::new(),
        call,
    };
    let fed = agent.feed(reply(1, "PLAN: click the link 'Tokyo'"));
    assert!(matches!(
        fed.commands[..],
        [Command::CallModel { call: 2, .. }]
    ));
    // The planning answer delivered again must not be taken for grounding's.
    let again = agent.feed(reply(1, "PLAN: click the link 'Tokyo'"));
    assert!(again.commands.is_empty());
    assert!(again.ignored.unwrap().contains("call 2 is in flight"));
    let fed = agent.feed(reply(2, "ELEMENT: None\nACTION: CLICK\nVALUE: None"));
    assert!(matches!(
        fed.commands[..],
        [Command::CallModel { call: 3, .. }]
    ));
    let fed = agent.feed(AgentEvent::ModelFailed {
        step: 1,
        error: crate::agent::ModelFailure {
            kind: "server".into(),
            message: "HTTP 503".into(),
            hint: None,
        },
        attempts: Vec::new(),
        call: 3,
    });
    let record = match &fed.commands[0] {
        Command::Record { record, .. } => record,
        other => panic!("a record first, got {other:?}"),
    };
    assert!(record.action.is_none());
    let s = stages(record);
    assert_eq!(
        s["calls"][2]["error"],
        "the model call failed (server): HTTP 503"
    );
    // Tokens of the calls that answered are counted.
    assert_eq!((record.tokens.input, record.tokens.output), (200, 20));
    assert!(matches!(fed.commands[1], Command::Observe { step: 2, .. }));
}

#[test]
fn modular_settings_are_checked() {
    let err = AgentConfig::from_json(r#"{"agent": "modular", "modular": {"candidates": 0}}"#)
        .unwrap_err();
    assert!(err
        .to_string()
        .contains("modular.candidates must be from 1 to 100"));
    let err =
        AgentConfig::from_json(r#"{"modular": {"candidates": 2, "sections": 3}}"#).unwrap_err();
    assert!(err.to_string().contains("modular.sections"));
    let config =
        AgentConfig::from_json(r#"{"agent": "modular", "modular": {"select": "first_viable"}}"#)
            .unwrap();
    assert_eq!(config.modular.select, SelectMode::FirstViable);
    assert_eq!(config.modular.candidates, 24);
}

#[test]
fn visual_grounding_sends_the_steps_screenshot_and_textual_grounding_none() {
    for (grounding, grounding_pictures) in [
        (GroundingMode::Textual, Vec::<String>::new()),
        (GroundingMode::Visual, vec!["shot-1".to_string()]),
    ] {
        let mut config = modular(SelectMode::Model);
        config.observation_mode = ObservationMode::TextScreenshot;
        config.modular.grounding = grounding;
        let (agent, first) = start(&task_json(&[]), config);
        let script = Script::new(vec![TOKYO_PAGE, EVENTS_PAGE], Vec::new())
            .answering(stage_model(false))
            .with_screenshots();
        let run = drive(agent, first, script, true);
        assert_eq!(run.acts(), ["click [12]", "stop [Tokyo]"], "{grounding:?}");
        let requests = run.requests();
        let step_1: Vec<(&str, Vec<String>)> = requests
            .iter()
            .take(4)
            .map(|r| (stage_of(r), pictures(r)))
            .collect();
        // Planning always sees the screenshot (the observation mode's picture); each of
        // the three grounding calls sees it only in the visual variant.
        assert_eq!(step_1[0], ("planning", vec!["shot-1".to_string()]));
        for call in &step_1[1..] {
            assert_eq!(
                call,
                &("grounding", grounding_pictures.clone()),
                "{grounding:?}"
            );
        }
        // The system text says what the pictures are only when they are sent.
        let says_pictures = requests[1].system.contains("pictures of the page");
        assert_eq!(says_pictures, grounding == GroundingMode::Visual);
        // Step 2's planning call has step 2's screenshot, not step 1's.
        assert_eq!(pictures(requests[4]), ["shot-2"]);
    }
}

#[test]
fn visual_grounding_needs_an_observation_mode_with_pictures() {
    let err = AgentConfig::from_json(
        r#"{"agent": "modular", "modular": {"grounding": "visual"}, "observation_mode": "text"}"#,
    )
    .unwrap_err();
    assert!(err
        .to_string()
        .contains("modular.grounding visual needs pictures"));
    let config = AgentConfig::from_json(
        r#"{"agent": "modular", "modular": {"grounding": "visual"}, "observation_mode": "som"}"#,
    )
    .unwrap();
    assert_eq!(config.modular.grounding, GroundingMode::Visual);
    assert_eq!(
        AgentConfig::default().modular.grounding,
        GroundingMode::Textual
    );
}
