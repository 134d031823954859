//! Stage accuracies of one run against its valid paths (stage-diagnostics.md).
//!
//! Online, an agent leaves the reference path as soon as it takes another action, so
//! each step is scored against the step each valid path expects next: a path moves on
//! when the agent carries out the action it expects. When one path's expectation is
//! met the paths that expected something else are dropped (the agent chose a way);
//! when none is met (a scroll, a wrong click) every path keeps waiting, and the step
//! counts as wrong. Steps after every path has ended are not scored.
//!
//! Metrics, per scored step with the set G of expected actions and E their elements:
//! - relevant element (RE): E is not empty and some candidate section holds one of E;
//! - action prediction (AP), over steps where RE holds: the plan names one of E;
//! - grounding, over steps where RE holds (or G has no element): the triplet grounded
//!   in the first section that holds one of E (any section when G has no element)
//!   equals one of G;
//! - first viable: the first section's non-None triplet equals one of G;
//! - model select: the triplet chosen among the viable ones equals one of G.
//!
//! Scores are given twice: against the reference path only (`strict`), and against
//! the reference with every alternative path (`with_alternatives`).
//!
//! A step whose model call failed decided nothing: there is no reply to score, and
//! the prompt agent's one stage would otherwise count the whole observation as its
//! candidates, so a run of failed calls showed "relevant element 100 %". Such steps
//! are left out of every metric (and do not move the paths, the agent did nothing)
//! and counted apart (`Diagnosis::without_reply`).

use serde::{Deserialize, Serialize};
use std::ops::AddAssign;

use super::triplet::{Element, Triplet};

/// What the agent's stages produced at one step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepLog {
    /// The candidate elements offered, by section (batch). An agent that sees the
    /// whole observation has one section: every element of it.
    pub sections: Vec<Vec<Element>>,
    /// The element the plan names, if it names one.
    pub plan_target: Option<Element>,
    /// Per section, the grounded triplet; `None` where the section answered "None".
    pub grounded: Vec<Option<Triplet>>,
    /// The triplet chosen among the viable ones (the only one with one section).
    pub selected: Option<Triplet>,
    /// The action carried out, which moves the paths on.
    pub executed: Option<Triplet>,
}

/// `correct` of `total` scored steps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accuracy {
    pub correct: usize,
    pub total: usize,
}

impl Accuracy {
    /// `None` when nothing was scored (a dash, not 0%).
    pub fn rate(self) -> Option<f64> {
        (self.total > 0).then(|| self.correct as f64 / self.total as f64)
    }

    fn count(&mut self, correct: bool) {
        self.total += 1;
        self.correct += usize::from(correct);
    }
}

impl AddAssign for Accuracy {
    fn add_assign(&mut self, other: Accuracy) {
        self.correct += other.correct;
        self.total += other.total;
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageScores {
    /// Steps scored (a path still expected something).
    pub steps: usize,
    pub relevant_element: Accuracy,
    pub action_prediction: Accuracy,
    pub grounding: Accuracy,
    pub first_viable: Accuracy,
    pub model_select: Accuracy,
}

impl AddAssign for StageScores {
    fn add_assign(&mut self, o: StageScores) {
        self.steps += o.steps;
        self.relevant_element += o.relevant_element;
        self.action_prediction += o.action_prediction;
        self.grounding += o.grounding;
        self.first_viable += o.first_viable;
        self.model_select += o.model_select;
    }
}

/// A run's scores against the reference only and with the alternatives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnosis {
    pub strict: StageScores,
    pub with_alternatives: StageScores,
    /// Steps without a model reply (the call failed): in no metric.
    #[serde(default)]
    pub without_reply: usize,
}

impl AddAssign for Diagnosis {
    fn add_assign(&mut self, o: Diagnosis) {
        self.strict += o.strict;
        self.with_alternatives += o.with_alternatives;
        self.without_reply += o.without_reply;
    }
}

/// Scores `steps` against `reference` alone and against it with `alternatives`. A
/// step is `None` when the model gave no reply (its call failed): it is counted in
/// `without_reply` and scored nowhere.
pub fn align_and_score(
    steps: &[Option<StepLog>],
    reference: &[Triplet],
    alternatives: &[Vec<Triplet>],
) -> Diagnosis {
    let replied: Vec<&StepLog> = steps.iter().flatten().collect();
    let mut all = vec![reference.to_vec()];
    all.extend(alternatives.iter().cloned());
    Diagnosis {
        strict: score(&replied, std::slice::from_ref(&reference.to_vec())),
        with_alternatives: score(&replied, &all),
        without_reply: steps.len() - replied.len(),
    }
}

fn score(steps: &[&StepLog], paths: &[Vec<Triplet>]) -> StageScores {
    let mut scores = StageScores::default();
    // (path, position of the step it expects next)
    let mut alive: Vec<(usize, usize)> = (0..paths.len()).map(|p| (p, 0)).collect();
    for &step in steps {
        let expected: Vec<&Triplet> = alive
            .iter()
            .filter_map(|&(p, at)| paths[p].get(at))
            .collect();
        if expected.is_empty() {
            break;
        }
        score_step(step, &expected, &mut scores);
        let met: Vec<(usize, usize)> = alive
            .iter()
            .filter(|&&(p, at)| {
                matches!((paths[p].get(at), &step.executed), (Some(want), Some(did)) if want.matches(did))
            })
            .map(|&(p, at)| (p, at + 1))
            .collect();
        if !met.is_empty() {
            alive = met;
        }
    }
    scores
}

fn score_step(step: &StepLog, expected: &[&Triplet], scores: &mut StageScores) {
    scores.steps += 1;
    let is_expected = |t: &Option<Triplet>| {
        t.as_ref()
            .is_some_and(|t| expected.iter().any(|want| want.matches(t)))
    };
    let elements: Vec<&Element> = expected.iter().filter_map(|t| t.element.as_ref()).collect();
    let holds = |section: &Vec<Element>| section.iter().any(|e| elements.contains(&e));
    let section_with_truth = step.sections.iter().position(holds);
    if elements.is_empty() {
        scores
            .grounding
            .count(step.grounded.iter().any(is_expected));
    } else {
        scores.relevant_element.count(section_with_truth.is_some());
        if let Some(section) = section_with_truth {
            let planned = step
                .plan_target
                .as_ref()
                .is_some_and(|p| elements.contains(&p));
            scores.action_prediction.count(planned);
            let grounded = step.grounded.get(section).cloned().flatten();
            scores.grounding.count(is_expected(&grounded));
        }
    }
    let first_viable = step.grounded.iter().flatten().next().cloned();
    scores.first_viable.count(is_expected(&first_viable));
    scores.model_select.count(is_expected(&step.selected));
}
