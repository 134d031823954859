//! One judge question and how it was settled: what the browser brings back from a
//! judge model (or the containment fallback) and keeps with the answer it scored.

use serde::{Deserialize, Serialize};

use super::{read_verdict, JudgeRequest};
use crate::model::Usage;
use crate::provider::CallOutcome;

/// Who decided when there was no model to ask.
pub const CONTAINMENT: &str =
    "exact containment (no judge model: the answer must contain the reference)";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Judgement {
    pub answer: String,
    pub reference: String,
    /// Whether the reference can be inferred from the answer; `null` when the judge
    /// gave no verdict (see `error`).
    pub infers: Option<bool>,
    /// Who decided: the judge model (`"openai gpt-4o-mini"`) or the containment fallback.
    pub by: String,
    /// The judge model's reply as it came, when there was one.
    pub reply: Option<String>,
    /// Why there is no verdict: the call failed, or the reply was neither yes nor no.
    pub error: Option<String>,
    /// Tokens the judge call used (zero without a model).
    #[serde(default)]
    pub usage: Usage,
}

impl Judgement {
    /// A judge model's reply to `request`, read with [`read_verdict`].
    pub fn from_reply(request: &JudgeRequest, by: &str, reply: &str, usage: Usage) -> Judgement {
        let read = read_verdict(reply);
        Judgement {
            answer: request.answer.clone(),
            reference: request.reference.clone(),
            infers: read.as_ref().ok().copied(),
            by: by.to_string(),
            reply: Some(reply.to_string()),
            error: read.err(),
            usage,
        }
    }

    /// What a judge model's call came back with: its reply read, or its failure.
    pub fn from_outcome(request: &JudgeRequest, by: &str, outcome: &CallOutcome) -> Judgement {
        match (&outcome.reply, &outcome.error) {
            (Some(reply), _) if outcome.ok => {
                Judgement::from_reply(request, by, &reply.text, reply.usage)
            }
            (_, Some(error)) => Judgement::failed(request, by, &error.message),
            _ => Judgement::failed(request, by, "the call gave neither a reply nor an error"),
        }
    }

    /// The judge model could not be asked (its call failed after its retries).
    pub fn failed(request: &JudgeRequest, by: &str, why: &str) -> Judgement {
        Judgement {
            answer: request.answer.clone(),
            reference: request.reference.clone(),
            infers: None,
            by: by.to_string(),
            reply: None,
            error: Some(format!("the judge call failed: {why}")),
            usage: Usage::default(),
        }
    }

    /// The fallback without a model: the reference must appear in the answer, compared
    /// case-insensitively with runs of whitespace as one space. Stricter than a judge
    /// ("333 m" does not contain "333 metres"), never looser; an empty reference fails.
    pub fn by_containment(request: &JudgeRequest) -> Judgement {
        let reference = normalise(&request.reference);
        let infers = !reference.is_empty() && normalise(&request.answer).contains(&reference);
        Judgement {
            answer: request.answer.clone(),
            reference: request.reference.clone(),
            infers: Some(infers),
            by: CONTAINMENT.to_string(),
            reply: None,
            error: None,
            usage: Usage::default(),
        }
    }
}

fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}
