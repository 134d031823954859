//! The record of one finished step, as the core knows it. The driver adds what only
//! it knows (run id, start time, timings, the media ids of images and screenshots)
//! before storing it; see docs/agent-run.md.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::events::ModelFailure;
use crate::evaluator::Progress;
use crate::judge::Judgement;
use crate::model::Usage;

/// Every field is always present (`null` when it does not apply), so a trajectory
/// viewer never has to guess the shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepRecord {
    pub step: u32,
    pub observation: ObservationRecord,
    pub prompt: PromptRecord,
    /// `null` when the model call failed.
    pub reply: Option<ReplyRecord>,
    /// Set when the model call failed after its retries.
    pub model_error: Option<ModelErrorRecord>,
    /// The parsed action; `null` when the reply held none.
    pub action: Option<ActionRecord>,
    /// `null` when no action was carried out.
    pub result: Option<ActResult>,
    /// What the judge said about the answer of a `stop` (fuzzy references only).
    pub judgements: Vec<Judgement>,
    /// The tracker's progress after the step (the last known one for no-op steps).
    pub progress: Option<Progress>,
    /// The model call's tokens, the judge's included.
    pub tokens: Tokens,
    /// Why the step went as it did: malformed reply, failed call, replay source...
    pub note: Option<String>,
    /// The modular agent's stages: each call's input and output, the candidates and
    /// the stage log diagnosis scores; `null` for the prompt agent, whose one stage is
    /// `prompt` and `reply`.
    pub stages: Option<StagesRecord>,
}

/// Every stage of a modular step (see `agent::modular`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StagesRecord {
    /// `modular`.
    pub agent: String,
    /// The ranked candidates, best first.
    pub candidates: Vec<CandidateRecord>,
    /// The candidates' ids per section.
    pub sections: Vec<Vec<u32>>,
    /// The planning stage's plan in words (`None` when it wrote the action itself).
    pub plan: Option<String>,
    /// Each model call of the step in order: planning, grounding 1..n, selection.
    pub calls: Vec<StageCall>,
    /// What diagnosis scores (docs/diagnosis.md).
    pub log: crate::diagnosis::StepLog,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CandidateRecord {
    pub id: u32,
    pub line: String,
    pub score: f64,
}

/// One stage's model call: what it was asked and what came back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StageCall {
    pub stage: String,
    pub system: String,
    pub user: String,
    pub reply: Option<String>,
    /// Why the reply could not be used as it was (or the call's failure).
    pub error: Option<String>,
}

impl StageCall {
    pub fn asked(stage: &str, system: &str, user: &str) -> StageCall {
        StageCall {
            stage: stage.to_string(),
            system: system.to_string(),
            user: user.to_string(),
            reply: None,
            error: None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ObservationRecord {
    pub text: String,
    pub url: String,
}

/// The prompt's text; images and screenshots are kept by the driver as media.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PromptRecord {
    pub system: String,
    pub user: String,
    /// Set when the observation was cut to `max_obs_tokens` for this prompt (the
    /// record's `observation` stays whole).
    #[serde(default)]
    pub observation_cut: Option<crate::agent::prompt::ObservationCut>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReplyRecord {
    /// The reply as kept: whole up to `REPLY_KEPT_CHARS`, else its head and tail around
    /// a line saying how much was cut (`text_chars` then holds the whole length).
    pub text: String,
    pub usage: Usage,
    pub attempts: Vec<Value>,
    /// Why a person's own agent chose its action (`text` is then the action alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reasoning: Option<String>,
    /// The reply's whole length in characters, when `text` is cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub text_chars: Option<usize>,
}

/// Characters of a reply kept in the record (and the run's stored state): a model that
/// answers with a megabyte would otherwise have it stored, exported and drawn whole
/// for every step. The head and the tail are kept (the action comes at the end).
pub const REPLY_KEPT_CHARS: usize = 16_000;
const REPLY_TAIL_CHARS: usize = 4_000;

impl ReplyRecord {
    /// The record of a reply, its text cut to `REPLY_KEPT_CHARS` (the caller has read
    /// what it needs of the whole text already).
    pub fn new(text: &str, usage: Usage, attempts: Vec<Value>, reasoning: Option<String>) -> Self {
        let (text, text_chars) = kept_reply(text);
        ReplyRecord {
            text,
            usage,
            attempts,
            reasoning: reasoning.map(|r| kept_reply(&r).0),
            text_chars,
        }
    }
}

/// `text` whole when short enough, else its head and tail and its whole length.
pub(crate) fn kept_reply(text: &str) -> (String, Option<usize>) {
    let chars = text.chars().count();
    if chars <= REPLY_KEPT_CHARS {
        return (text.to_string(), None);
    }
    let head: String = text
        .chars()
        .take(REPLY_KEPT_CHARS - REPLY_TAIL_CHARS)
        .collect();
    let tail: String = text.chars().skip(chars - REPLY_TAIL_CHARS).collect();
    let cut = chars - REPLY_KEPT_CHARS;
    (
        format!("{head}\n[… {cut} characters of the reply cut here; it had {chars} …]\n{tail}"),
        Some(chars),
    )
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ModelErrorRecord {
    pub error: ModelFailure,
    pub attempts: Vec<Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ActionRecord {
    /// Canonical action text, e.g. `click [12]`.
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ActResult {
    pub effect: Value,
    pub error: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Tokens {
    /// The whole prompt, the part served from the provider's cache included.
    pub input: u64,
    pub output: u64,
    /// The part of `input` the provider served from its prompt cache (0 where the
    /// provider does not say, and in records from before it was counted).
    #[serde(default)]
    pub cached_input: u64,
}

impl From<Usage> for Tokens {
    fn from(usage: Usage) -> Self {
        Tokens {
            input: usage.input_tokens,
            output: usage.output_tokens,
            cached_input: usage.cached_input_tokens,
        }
    }
}
