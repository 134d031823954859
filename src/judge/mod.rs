//! The fuzzy-match judge, behind a trait.
//!
//! Scoring stays synchronous and pure: the browser first asks a judge model each
//! question a fuzzy answer raises (the prompt and the reading of its reply are in
//! [`ask`]), keeps what came back as [`Judgement`]s, and the evaluator is then run
//! with a [`MapJudge`] filled from them. Without a model (the replay agent), the
//! exact-containment fallback of [`Judgement::by_containment`] decides, and says so.

mod ask;
mod judgement;
#[cfg(test)]
mod tests;

pub use ask::{judge_request, read_verdict, JUDGE_SYSTEM_PROMPT};
pub use judgement::Judgement;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// "Can `reference` be inferred from the statement `answer`?"
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct JudgeRequest {
    pub answer: String,
    pub reference: String,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JudgeError {
    /// Nobody asked the judge this question: a caller bug, or a session without a
    /// judge. Scoring changes nothing, so the caller may gather the verdict and retry.
    #[error("no judge verdict is available for reference {reference:?}; configure a judge model or retry")]
    Unavailable { reference: String },
    /// The judge was asked and gave no verdict (its call failed, or its reply was
    /// neither yes nor no). Scoring goes on: the check fails and says why.
    #[error("the judge gave no verdict: {0}")]
    Failed(String),
}

pub trait Judge {
    /// Whether `request.reference` can be inferred from `request.answer`.
    fn infers(&mut self, request: &JudgeRequest) -> Result<bool, JudgeError>;
}

/// A judge answering from known verdicts; unknown questions are an error, not a guess.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapJudge {
    /// A verdict, or why the judge could not give one.
    verdicts: BTreeMap<(String, String), Result<bool, String>>,
}

impl MapJudge {
    pub fn insert(&mut self, answer: &str, reference: &str, verdict: bool) {
        self.verdicts
            .insert((answer.to_string(), reference.to_string()), Ok(verdict));
    }

    /// Records that the judge was asked and gave no verdict, and why.
    pub fn insert_failure(&mut self, answer: &str, reference: &str, why: &str) {
        self.verdicts.insert(
            (answer.to_string(), reference.to_string()),
            Err(why.to_string()),
        );
    }

    /// A judge serving the verdicts (or failures) gathered earlier.
    pub fn from_judgements(judgements: &[Judgement]) -> MapJudge {
        let mut judge = MapJudge::default();
        for j in judgements {
            match (j.infers, &j.error) {
                (Some(verdict), _) => judge.insert(&j.answer, &j.reference, verdict),
                (None, why) => judge.insert_failure(
                    &j.answer,
                    &j.reference,
                    why.as_deref().unwrap_or("no reason given"),
                ),
            }
        }
        judge
    }
}

impl Judge for MapJudge {
    fn infers(&mut self, request: &JudgeRequest) -> Result<bool, JudgeError> {
        match self
            .verdicts
            .get(&(request.answer.clone(), request.reference.clone()))
        {
            Some(Ok(verdict)) => Ok(*verdict),
            Some(Err(why)) => Err(JudgeError::Failed(why.clone())),
            None => Err(JudgeError::Unavailable {
                reference: request.reference.clone(),
            }),
        }
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
