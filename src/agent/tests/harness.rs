//! A fake driver: answers `observe` from a list of pages, `call_model` from a queue
//! of replies, `act` through a closure, and collects every command. With `resume` it
//! also stores and reloads the state after every transition and delivers every event
//! twice, as a restarted service worker might.

use std::collections::VecDeque;

use serde_json::{json, Value};

use crate::agent::{
    Agent, AgentConfig, AgentEvent, Command, FinishCause, ModelFailure, StepRecord,
};
use crate::evaluator::Progress;
use crate::judge::Judgement;
use crate::model::{ModelReply, ModelRequest, Usage};

pub const TOKYO_PAGE: &str = "Tab 0 (current): Red towers - Wiki

[1] RootWebArea 'Red towers - Wiki' focused: True
\t[12] link 'Tokyo'
\t[13] link 'San Francisco'
\t[20] searchbox 'Search Wiki'";

pub const EVENTS_PAGE: &str = "Tab 0 (current): Events | Tab 1: Red towers - Wiki

[3] RootWebArea 'Events' focused: True
\t[40] searchbox 'Search events'
\t[41] button 'Search'";

/// A task in our format with two hops and an events site to visit.
pub fn task_json(reference_trajectory: &[&str]) -> String {
    json!({
        "id": "demo/red-tower",
        "intent": "Which city has a red tower, Tokyo or San Francisco? Find events there.",
        "start_urls": ["http://wiki.test/"],
        "reference_sites": [{"label": "Events", "url": "http://events.test/"}],
        "hops": [
            {"condition": {"kind": "url", "op": "contains", "value": "Tokyo"}},
            {"condition": {"kind": "url", "op": "contains", "value": "events.test", "tokens": ["tokyo"]}}
        ],
        "reference_trajectory": reference_trajectory,
    })
    .to_string()
}

/// The same task whose answer is checked by a judge: a fuzzy final answer.
pub fn fuzzy_task_json(reference_trajectory: &[&str]) -> String {
    let mut task: Value = serde_json::from_str(&task_json(reference_trajectory)).unwrap();
    task["final_answer"] = json!({"condition": {"fuzzy_match": ["Tokyo"]}, "required": true});
    task.to_string()
}

/// A judge that says yes to every answer mentioning Tokyo, with some usage.
pub fn tokyo_judge(answer: &str, with_model: bool) -> Vec<Judgement> {
    let request = crate::judge::JudgeRequest {
        answer: answer.to_string(),
        reference: "Tokyo".to_string(),
    };
    if !with_model {
        return vec![Judgement::by_containment(&request)];
    }
    let says = if answer.contains("Tokyo") {
        "Yes"
    } else {
        "No"
    };
    let usage = Usage {
        input_tokens: 80,
        output_tokens: 1,
        cached_input_tokens: 0,
    };
    vec![Judgement::from_reply(
        &request,
        "openai judge-1",
        says,
        usage,
    )]
}

pub fn config() -> AgentConfig {
    AgentConfig {
        max_steps: 10,
        ..AgentConfig::default()
    }
}

/// What the fake model says.
#[derive(Debug, Clone)]
pub enum Say {
    Reply(String),
    /// The model client gave up with a `server` error after 4 tries.
    Fail,
    /// The model client failed with this kind (a hint included), after one try.
    FailWith(&'static str),
}

pub fn reply(text: &str) -> Say {
    Say::Reply(text.to_string())
}

/// What the fake browser reports for an action.
pub struct ActOutcome {
    pub error: Option<String>,
    pub at_end: bool,
}

pub fn ok() -> ActOutcome {
    ActOutcome {
        error: None,
        at_end: false,
    }
}

/// What the fake judge answers for `(answer, with_model)`.
pub type JudgeFn = Box<dyn FnMut(&str, bool) -> Vec<Judgement>>;

pub struct Script {
    /// The page observed at step k is `pages[k - 1]`, the last one repeating.
    pub pages: Vec<&'static str>,
    pub replies: VecDeque<Say>,
    pub act: Box<dyn FnMut(&str) -> ActOutcome>,
    pub judge: JudgeFn,
    /// A model that reads the request; used instead of `replies` when set.
    pub model: Option<ModelFn>,
    /// Each observation also carries a screenshot (its base64 names the step).
    pub screenshots: bool,
}

/// A fake model that answers from the request it is sent.
pub type ModelFn = Box<dyn FnMut(&ModelRequest) -> String>;

impl Script {
    pub fn new(pages: Vec<&'static str>, replies: Vec<Say>) -> Script {
        Script {
            pages,
            replies: replies.into(),
            act: Box::new(|_| ok()),
            judge: Box::new(|_, _| Vec::new()),
            model: None,
            screenshots: false,
        }
    }

    /// Observations come with a screenshot, `shot-<step>` in base64.
    pub fn with_screenshots(mut self) -> Script {
        self.screenshots = true;
        self
    }

    /// A model whose reply depends on the request (e.g. on what the prompt shows).
    pub fn answering(mut self, model: impl FnMut(&ModelRequest) -> String + 'static) -> Script {
        self.model = Some(Box::new(model));
        self
    }

    pub fn judging(mut self, judge: impl FnMut(&str, bool) -> Vec<Judgement> + 'static) -> Script {
        self.judge = Box::new(judge);
        self
    }

    pub fn acting(mut self, act: impl FnMut(&str) -> ActOutcome + 'static) -> Script {
        self.act = Box::new(act);
        self
    }
}

/// Everything a run produced.
#[derive(Debug)]
pub struct Run {
    pub commands: Vec<Command>,
    pub ignored: usize,
}

impl Run {
    pub fn kinds(&self) -> Vec<&'static str> {
        self.commands
            .iter()
            .map(|c| match c {
                Command::Observe { .. } => "observe",
                Command::CallModel { .. } => "call_model",
                Command::Judge { .. } => "judge",
                Command::Act { .. } => "act",
                Command::Record { .. } => "record",
                Command::Finish { .. } => "finish",
            })
            .collect()
    }

    pub fn records(&self) -> Vec<&StepRecord> {
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::Record { record, .. } => Some(record.as_ref()),
                _ => None,
            })
            .collect()
    }

    pub fn requests(&self) -> Vec<&ModelRequest> {
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::CallModel { request, .. } => Some(request),
                _ => None,
            })
            .collect()
    }

    /// The text part of each model call's user turn.
    pub fn user_turns(&self) -> Vec<String> {
        self.requests()
            .iter()
            .map(|r| match &r.messages[0].parts[0] {
                crate::model::Part::Text { text } => text.clone(),
                other => panic!("the user turn starts with text, got {other:?}"),
            })
            .collect()
    }

    pub fn acts(&self) -> Vec<&str> {
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::Act { action_text, .. } => Some(action_text.as_str()),
                _ => None,
            })
            .collect()
    }

    pub fn finish(&self) -> (FinishCause, &str, Option<&str>) {
        match self.commands.last() {
            Some(Command::Finish {
                cause,
                reason,
                answer,
                ..
            }) => (*cause, reason.as_str(), answer.as_deref()),
            other => panic!("the run should end with finish, got {other:?}"),
        }
    }
}

/// A whole run of the plain two-hop task (no reference trajectory) with the default
/// settings, answered by `script`.
pub fn run(script: Script) -> Run {
    run_with(config(), script)
}

/// As [`run`], with other settings.
pub fn run_with(config: AgentConfig, script: Script) -> Run {
    let (agent, first) = start(&task_json(&[]), config);
    drive(agent, first, script, false)
}

pub fn start(task: &str, config: AgentConfig) -> (Agent, Vec<Command>) {
    Agent::start(task, "demo.json", config).unwrap()
}

/// Runs the machine to its `finish` (or until commands run out).
pub fn drive(agent: Agent, first: Vec<Command>, script: Script, resume: bool) -> Run {
    drive_agent(agent, first, script, resume).1
}

/// As [`drive`], also giving back the machine as it ended.
pub fn drive_agent(
    agent: Agent,
    first: Vec<Command>,
    mut script: Script,
    resume: bool,
) -> (Agent, Run) {
    let mut agent = agent;
    let mut pending: VecDeque<Command> = first.into();
    let mut run = Run {
        commands: Vec::new(),
        ignored: 0,
    };
    while let Some(command) = pending.pop_front() {
        assert!(run.commands.len() < 2000, "the run does not end");
        run.commands.push(command.clone());
        let Some(event) = answer(&command, &mut script) else {
            continue;
        };
        if resume {
            agent = reload(&agent);
        }
        let fed = agent.feed(event.clone());
        assert_eq!(fed.ignored, None, "{event:?} should be taken");
        pending.extend(fed.commands);
        if resume {
            agent = reload(&agent);
            let again = agent.feed(event);
            assert!(again.commands.is_empty(), "a duplicate must change nothing");
            assert!(again.ignored.is_some());
            run.ignored += 1;
        }
    }
    (agent, run)
}

/// Stores and reads back the state, as the driver does between transitions.
pub fn reload(agent: &Agent) -> Agent {
    let back = Agent::from_json(&agent.to_json().unwrap()).unwrap();
    assert_eq!(&back, agent, "the state survives storage unchanged");
    back
}

/// The event a real driver would feed back for `command`.
/// A text-only observation of `text` at `url`, as the glue reports one.
pub fn observed(step: u32, text: &str, url: &str) -> AgentEvent {
    AgentEvent::Observed {
        step,
        text: text.to_string(),
        url: url.to_string(),
        images: Vec::new(),
        screenshot: None,
        tabs: Vec::new(),
    }
}

fn answer(command: &Command, script: &mut Script) -> Option<AgentEvent> {
    match command {
        Command::Observe { step, .. } => {
            let index = (*step as usize - 1).min(script.pages.len() - 1);
            let mut event = observed(
                *step,
                script.pages[index],
                &format!("http://site.test/page{step}"),
            );
            if let AgentEvent::Observed { screenshot, .. } = &mut event {
                *screenshot = script.screenshots.then(|| crate::agent::Picture {
                    mime: "image/png".into(),
                    base64: format!("shot-{step}"),
                });
            }
            Some(event)
        }
        Command::CallModel {
            step,
            request,
            call,
        } if script.model.is_some() => {
            let text = script
                .model
                .as_mut()
                .map(|m| m(request))
                .unwrap_or_default();
            Some(AgentEvent::ModelReplied {
                step: *step,
                reply: ModelReply {
                    text,
                    usage: Usage::default(),
                    reasoning: None,
                },
                attempts: Vec::new(),
                call: *call,
            })
        }
        Command::CallModel { step, call, .. } => Some(match script.replies.pop_front() {
            Some(Say::Reply(text)) => AgentEvent::ModelReplied {
                step: *step,
                reply: ModelReply {
                    text,
                    usage: Usage {
                        input_tokens: 1000,
                        output_tokens: 50,
                        cached_input_tokens: 0,
                    },
                    reasoning: None,
                },
                attempts: vec![json!({"kind": "rate_limited", "message": "429", "delay_ms": 500})],
                call: *call,
            },
            Some(Say::FailWith(kind)) => AgentEvent::ModelFailed {
                step: *step,
                error: ModelFailure {
                    kind: kind.into(),
                    message: format!("{kind} failure"),
                    hint: Some(format!("what to do about {kind}")),
                },
                attempts: vec![json!({"kind": kind, "message": "x", "delay_ms": null})],
                call: *call,
            },
            Some(Say::Fail) | None => AgentEvent::ModelFailed {
                step: *step,
                error: ModelFailure {
                    kind: "server".into(),
                    message: "HTTP 503".into(),
                    hint: None,
                },
                attempts: vec![
                    json!({"kind": "server", "message": "HTTP 503", "delay_ms": 1000});
                    4
                ],
                call: *call,
            },
        }),
        Command::Judge {
            step,
            answer,
            with_model,
        } => Some(AgentEvent::Judged {
            step: *step,
            judgements: (script.judge)(answer, *with_model),
        }),
        Command::Act {
            step, action_text, ..
        } => {
            let outcome = (script.act)(action_text);
            let effect: Value = match outcome.error {
                Some(_) => Value::Null,
                None => json!({"did": action_text}),
            };
            Some(AgentEvent::Acted {
                step: *step,
                effect,
                error: outcome.error,
                progress: Some(progress(outcome.at_end)),
            })
        }
        Command::Record { .. } | Command::Finish { .. } => None,
    }
}

pub fn progress(at_end: bool) -> Progress {
    Progress {
        done: if at_end { 2 } else { 0 },
        total: 2,
        at_end,
        current: None,
        hops: Vec::new(),
    }
}
