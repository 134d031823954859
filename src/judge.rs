//! The fuzzy-match judge, behind a trait.
//!
//! The browser supplies an LLM judge (asked asynchronously before evaluation, its
//! verdicts then served from a [`MapJudge`]); tests use the in-memory one directly.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// "Given the statement `answer`, would it be correct to infer `reference`?"
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct JudgeRequest {
    pub answer: String,
    pub reference: String,
}

impl JudgeRequest {
    /// The question put to an LLM judge (MMInA's wording, Yes/No reply expected).
    pub fn prompt(&self) -> String {
        format!(
            "Given the statement \"{}\", would it be correct to infer \"{}\"? Answer Yes or No.",
            self.answer, self.reference
        )
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JudgeError {
    #[error("no judge verdict is available for reference {reference:?}; configure a judge model or retry")]
    Unavailable { reference: String },
    #[error("the judge failed: {0}")]
    Failed(String),
}

pub trait Judge {
    /// Whether `request.reference` can be inferred from `request.answer`.
    fn infers(&mut self, request: &JudgeRequest) -> Result<bool, JudgeError>;
}

/// A judge answering from known verdicts; unknown questions are an error, not a guess.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct MapJudge {
    verdicts: BTreeMap<(String, String), bool>,
}

impl MapJudge {
    pub fn insert(&mut self, answer: &str, reference: &str, verdict: bool) {
        self.verdicts
            .insert((answer.to_string(), reference.to_string()), verdict);
    }
}

impl Judge for MapJudge {
    fn infers(&mut self, request: &JudgeRequest) -> Result<bool, JudgeError> {
        self.verdicts
            .get(&(request.answer.clone(), request.reference.clone()))
            .copied()
            .ok_or_else(|| JudgeError::Unavailable {
                reference: request.reference.clone(),
            })
    }
}

/// A judge for tasks that need none: any fuzzy question is reported as unavailable.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoJudge;

impl Judge for NoJudge {
    fn infers(&mut self, request: &JudgeRequest) -> Result<bool, JudgeError> {
        Err(JudgeError::Unavailable {
            reference: request.reference.clone(),
        })
    }
}
