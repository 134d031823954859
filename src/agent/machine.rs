//! Starting a run and dispatching events: which event is expected when, stale and
//! duplicate events, the start of each step (early stop, replay end) and the end.

use std::path::Path;

use super::commands::{Command, FinishCause};
use super::config::AgentConfig;
use super::error::AgentError;
use super::events::AgentEvent;
use super::objective::objective;
use super::state::{Agent, Draft, Phase};
use crate::action::{check_early_stop, EarlyStopConfig, EarlyStopReason, EarlyStopRule};
use crate::import::import_str;
use crate::memory::{memory_section, select, MemoryQuery, MemoryRecord};
use crate::provider::ErrorKind;

/// What a `finish` says beside its cause and reason (each field documented on
/// [`Command::Finish`]).
#[derive(Debug, Default)]
pub(super) struct Ending {
    pub answer: Option<String>,
    pub hint: Option<String>,
    pub rule: Option<EarlyStopRule>,
    pub error_kind: Option<ErrorKind>,
}

/// What one event produced. `ignored` says why an event changed nothing (a stale or
/// duplicated delivery, or anything after the end), so a driver can log it.
#[derive(Debug, Clone, PartialEq)]
pub struct Fed {
    pub commands: Vec<Command>,
    pub ignored: Option<String>,
}

impl Fed {
    fn ignored(why: String) -> Fed {
        Fed {
            commands: Vec::new(),
            ignored: Some(why),
        }
    }
}

impl From<Vec<Command>> for Fed {
    fn from(commands: Vec<Command>) -> Fed {
        Fed {
            commands,
            ignored: None,
        }
    }
}

impl Agent {
    /// Reads the task (any supported format; `file_name` names it in errors and gives
    /// MMInA files their subset) and returns the machine with its first commands.
    pub fn start(
        task_text: &str,
        file_name: &str,
        config: AgentConfig,
    ) -> Result<(Agent, Vec<Command>), AgentError> {
        Agent::start_with_memory(task_text, file_name, config, &[])
    }

    /// As [`Agent::start`], choosing `config.memory.k` records of `pool` (finished runs,
    /// oldest first) for the prompt's memory section.
    pub fn start_with_memory(
        task_text: &str,
        file_name: &str,
        config: AgentConfig,
        pool: &[MemoryRecord],
    ) -> Result<(Agent, Vec<Command>), AgentError> {
        config.check()?;
        let task = import_str(task_text, Path::new(file_name)).outcome?;
        if config.replay && task.reference_trajectory.is_empty() {
            return Err(AgentError::NoReferenceTrajectory { task_id: task.id });
        }
        let chosen = select(pool, &MemoryQuery::of_task(&task), config.memory);
        let memory = memory_section(&chosen, config.memory.policy);
        let memory_tasks = chosen.iter().map(|r| r.task_id.clone()).collect();
        let mut agent = Agent {
            objective: objective(&task),
            task,
            config,
            step: 1,
            phase: Phase::Observing,
            draft: Draft::default(),
            history: Vec::new(),
            previous_action: None,
            feedback: None,
            progress: None,
            no_action_note: None,
            memory,
            memory_tasks,
            trail: Vec::new(),
            past: Vec::new(),
        };
        let commands = agent.begin_step();
        Ok((agent, commands))
    }

    /// Feeds one event. Only the event the current phase waits for, for the current
    /// step, changes anything; `stop_requested` is accepted at any time before the end.
    pub fn feed(&mut self, event: AgentEvent) -> Fed {
        if self.is_finished() {
            return Fed::ignored(format!("{} arrived after the run finished", event.kind()));
        }
        match event {
            AgentEvent::StopRequested { reason } => return self.on_stop_requested(&reason).into(),
            AgentEvent::Interrupted { reason } => return self.on_interrupted(reason).into(),
            _ => {}
        }
        if event.step() != Some(self.step) {
            return Fed::ignored(format!(
                "{} for step {} is stale: the run is at step {}",
                event.kind(),
                event.step().unwrap_or_default(),
                self.step
            ));
        }
        let commands = match (&self.phase, event) {
            (
                Phase::Observing,
                AgentEvent::Observed {
                    text,
                    url,
                    images,
                    screenshot,
                    tabs,
                    ..
                },
            ) => self.on_observed(text, url, &images, screenshot.as_ref(), tabs),
            (
                Phase::Thinking,
                AgentEvent::ModelReplied {
                    reply,
                    attempts,
                    call,
                    ..
                },
            ) => match self.modular_waits_for(call) {
                Some(false) => return self.other_call(call),
                Some(true) => self.on_modular_reply(reply, attempts),
                None => self.on_model_replied(reply, attempts),
            },
            (
                Phase::Thinking,
                AgentEvent::ModelFailed {
                    error,
                    attempts,
                    call,
                    ..
                },
            ) => match self.modular_waits_for(call) {
                Some(false) => return self.other_call(call),
                _ => self.on_model_failed(error, attempts),
            },
            (Phase::Judging, AgentEvent::Judged { judgements, .. }) => self.on_judged(judgements),
            (
                Phase::Acting,
                AgentEvent::Acted {
                    effect,
                    error,
                    progress,
                    ..
                },
            ) => self.on_acted(effect, error, progress),
            (phase, event) => {
                return Fed::ignored(format!(
                    "{} for step {} is not expected now: waiting for {}",
                    event.kind(),
                    self.step,
                    phase.waiting_for()
                ))
            }
        };
        commands.into()
    }

    /// A modular stage's answer to a call that is no longer in flight (a repeated
    /// delivery after a restart).
    fn other_call(&self, call: u32) -> Fed {
        let current = self.draft.modular.as_ref().map_or(0, |m| m.call);
        Fed::ignored(format!(
            "the model's answer to call {call} of step {} is stale: call {current} is in flight",
            self.step
        ))
    }

    /// Starts the step `self.step`: ends the run if an early-stop rule fires or a
    /// replay has no reference step left, otherwise asks for an observation. The rules
    /// are checked before observing rather than right before the model call: nothing
    /// changes the history in between, and the observation would be wasted.
    pub(super) fn begin_step(&mut self) -> Vec<Command> {
        let rules = if self.config.replay {
            // A reference trajectory may well scroll three times in a row; only the
            // step budget applies to it.
            EarlyStopConfig {
                max_steps: self.config.max_steps as usize,
                parse_failures: 0,
                repeats: 0,
            }
        } else {
            EarlyStopConfig {
                max_steps: self.config.max_steps as usize,
                ..EarlyStopConfig::default()
            }
        };
        if let Some(stop) = check_early_stop(&self.history, &rules) {
            let mut reason = format!("Early stop: {}", stop.reason());
            // "No action" alone hides whether the model was down or talking nonsense.
            if let (EarlyStopReason::ParseFailures { .. }, Some(note)) =
                (&stop.reason, &self.no_action_note)
            {
                reason = format!("{reason} (the last: {note})");
            }
            let ending = Ending {
                rule: Some(stop.reason.rule()),
                ..Ending::default()
            };
            return self.end(FinishCause::EarlyStop, reason, ending);
        }
        let trajectory = &self.task.reference_trajectory;
        if self.config.replay && self.history.len() >= trajectory.len() {
            let reason = format!(
                "the reference trajectory ended after {} steps without a stop",
                trajectory.len()
            );
            return self.finish(FinishCause::ReplayEnded, reason, None);
        }
        self.phase = Phase::Observing;
        vec![Command::Observe {
            step: self.step,
            mode: self.config.observation_mode,
            whole_page: self.config.replay,
            format: self.config.observation_format,
        }]
    }

    pub(super) fn finish(
        &mut self,
        cause: FinishCause,
        reason: String,
        answer: Option<String>,
    ) -> Vec<Command> {
        self.end(
            cause,
            reason,
            Ending {
                answer,
                ..Ending::default()
            },
        )
    }

    pub(super) fn end(
        &mut self,
        cause: FinishCause,
        reason: String,
        ending: Ending,
    ) -> Vec<Command> {
        self.phase = Phase::Finished {
            cause,
            reason: reason.clone(),
            answer: ending.answer.clone(),
        };
        vec![Command::Finish {
            cause,
            reason,
            answer: ending.answer,
            hint: ending.hint,
            rule: ending.rule,
            error_kind: ending.error_kind,
        }]
    }

    /// A person's Stop. A step that has an observation is recorded as it stands (it
    /// started, so it gets its one record); a step still waiting for its observation
    /// never began.
    fn on_stop_requested(&mut self, reason: &str) -> Vec<Command> {
        let mut commands = Vec::new();
        if self.draft.observation.is_some() {
            let note = match self.phase {
                Phase::Acting => "stopped while the action ran; its effect is unknown",
                _ => "stopped before the step finished",
            };
            self.draft.note = Some(note.to_string());
            commands.push(self.record_step(None));
        }
        commands.extend(self.finish(FinishCause::Stopped, format!("stopped: {reason}"), None));
        commands
    }

    /// The browser ended the run's ground (docs/agent-run.md "Pages that do not load",
    /// "Browser restarts"). Like Stop, a step that has its observation is recorded as
    /// it stands, its note saying why it ends there, so no started step is lost.
    fn on_interrupted(&mut self, reason: String) -> Vec<Command> {
        let mut commands = Vec::new();
        if self.draft.observation.is_some() {
            self.draft.note = Some(reason.clone());
            commands.push(self.record_step(None));
        }
        commands.extend(self.finish(FinishCause::Interrupted, reason, None));
        commands
    }
}
