//! The agent's state: one serde value the driver stores after every transition, so a
//! stopped service worker can pick the run up where it was.

use serde::{Deserialize, Serialize};

use super::commands::FinishCause;
use super::config::AgentConfig;
use super::error::AgentError;
use super::record::{ModelErrorRecord, ObservationRecord, ReplyRecord};
use crate::action::Action;
use crate::agent_protocol::PastStep;
use crate::evaluator::Progress;
use crate::judge::Judgement;
use crate::memory::MemoryStep;
use crate::serde_flat::need;
use crate::task::Task;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Agent {
    pub(super) task: Task,
    /// The OBJECTIVE line, fixed for the run.
    pub(super) objective: String,
    pub(super) config: AgentConfig,
    /// The step being worked on, from 1. Events for any other step are stale.
    pub(super) step: u32,
    pub(super) phase: Phase,
    /// What the current step has gathered so far; becomes its record.
    pub(super) draft: Draft,
    /// The parsed action of each recorded step (`None` for a no-op step), oldest
    /// first: the early-stop rules read it, and its length is the replay position.
    pub(super) history: Vec<Option<Action>>,
    /// The last step's action with its element's line, for PREVIOUS ACTION.
    pub(super) previous_action: Option<String>,
    /// Why the last step did nothing, for the next prompt's FEEDBACK line.
    pub(super) feedback: Option<String>,
    /// The tracker's latest progress, reported with every `acted`.
    pub(super) progress: Option<Progress>,
    /// Why the last step gave no action (its note), while the steps since the last
    /// action gave none: the early stop for steps without an action quotes it.
    #[serde(default)]
    pub(super) no_action_note: Option<String>,
    /// The procedural-memory section of the system prompt, chosen once at the start
    /// (the pool is not kept: it may hold thousands of records).
    #[serde(default)]
    pub(super) memory: Option<String>,
    /// The task ids of the memory records shown, in the prompt's order.
    #[serde(default)]
    pub(super) memory_tasks: Vec<String>,
    /// Every recorded step as memory keeps it, for this run's own memory record.
    #[serde(default)]
    pub(super) trail: Vec<MemoryStep>,
    /// The recorded steps as a person's own agent is told them (`history` of its
    /// requests); kept only for that agent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) past: Vec<PastStep>,
}

/// Which event the machine waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "snake_case")]
// Read through one flat struct (`crate::serde_flat`): the phase is in every stored run.
#[serde(try_from = "PhaseFields")]
pub enum Phase {
    /// `observe` was issued; waiting for `observed`.
    Observing,
    /// `call_model` was issued; waiting for `model_replied` or `model_failed`.
    Thinking,
    /// `judge` was issued; waiting for `judged`.
    Judging,
    /// `act` was issued; waiting for `acted`.
    Acting,
    Finished {
        cause: FinishCause,
        reason: String,
        answer: Option<String>,
    },
}

enum PhaseName {
    Observing,
    Thinking,
    Judging,
    Acting,
    Finished,
}

crate::serde_flat::unit_enum_deserialize!(PhaseName, "PhaseName", {
    Observing = "observing",
    Thinking = "thinking",
    Judging = "judging",
    Acting = "acting",
    Finished = "finished",
});

/// A `Phase` object as written: `name` names the variant; the rest is `finished`'s.
#[derive(Deserialize)]
struct PhaseFields {
    name: PhaseName,
    cause: Option<FinishCause>,
    reason: Option<String>,
    answer: Option<String>,
}

impl TryFrom<PhaseFields> for Phase {
    type Error = String;

    fn try_from(f: PhaseFields) -> Result<Phase, String> {
        Ok(match f.name {
            PhaseName::Observing => Phase::Observing,
            PhaseName::Thinking => Phase::Thinking,
            PhaseName::Judging => Phase::Judging,
            PhaseName::Acting => Phase::Acting,
            PhaseName::Finished => Phase::Finished {
                cause: need(f.cause, "cause")?,
                reason: need(f.reason, "reason")?,
                answer: f.answer,
            },
        })
    }
}

impl Phase {
    pub fn waiting_for(&self) -> &'static str {
        match self {
            Phase::Observing => "observed",
            Phase::Thinking => "model_replied or model_failed",
            Phase::Judging => "judged",
            Phase::Acting => "acted",
            Phase::Finished { .. } => "nothing (the run has finished)",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    pub observation: Option<ObservationRecord>,
    pub user_prompt: Option<String>,
    /// How the prompt's observation was cut (`max_obs_tokens`), if it was.
    #[serde(default)]
    pub observation_cut: Option<crate::agent::prompt::ObservationCut>,
    pub reply: Option<ReplyRecord>,
    pub model_error: Option<ModelErrorRecord>,
    pub action: Option<Action>,
    #[serde(default)]
    pub judgements: Vec<Judgement>,
    pub note: Option<String>,
    /// The modular agent's stages so far (`None` for the prompt agent).
    #[serde(default)]
    pub modular: Option<super::modular::ModularDraft>,
}

impl Agent {
    pub fn from_json(state: &str) -> Result<Agent, AgentError> {
        crate::json_read::from_str(state).map_err(|e| AgentError::State(e.to_string()))
    }

    pub fn to_json(&self) -> Result<String, AgentError> {
        serde_json::to_string(self).map_err(|e| AgentError::State(e.to_string()))
    }

    /// The step being worked on; once the run has finished it may be one past the
    /// last recorded step (see [`Agent::steps_recorded`]).
    pub fn step(&self) -> u32 {
        self.step
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn config(&self) -> &AgentConfig {
        &self.config
    }

    pub fn task(&self) -> &Task {
        &self.task
    }

    /// Steps recorded so far.
    pub fn steps_recorded(&self) -> usize {
        self.history.len()
    }

    pub fn is_finished(&self) -> bool {
        matches!(self.phase, Phase::Finished { .. })
    }
}
