//! Two runs of one task side by side (a person and an agent): hop by hop who
//! completed it and at which step, and the first hop where they diverged, i.e. the
//! first hop one of them completed and the other did not. Runs still going are
//! compared as they stand; a hop neither has reached yet is no divergence.

use serde::{Deserialize, Serialize};

use crate::evaluator::{HopState, Progress};

/// One run as the comparison needs it: who (for sentences), its hop progress, and
/// whether it passed (None while it runs).
#[derive(Debug, Clone, Deserialize)]
pub struct Side {
    pub name: String,
    pub progress: Progress,
    #[serde(default)]
    pub passed: Option<bool>,
    /// Whether the run has ended: a hop it has not done then never will be.
    #[serde(default)]
    pub ended: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HopPair {
    /// 1-based.
    pub hop: usize,
    pub description: String,
    /// The step each run completed the hop at, if it did.
    pub a: Option<u32>,
    pub b: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Comparison {
    pub hops: Vec<HopPair>,
    /// The first hop one run completed and the other did not (1-based), once the
    /// other has ended or moved past it; None when they have not diverged.
    pub diverged_at: Option<usize>,
    /// One sentence for people: where they diverged, or that they did not (yet).
    pub summary: String,
}

fn done_step(state: &HopState) -> Option<u32> {
    match state {
        HopState::Done { step, .. } => Some(*step),
        _ => None,
    }
}

/// Compares `a` and `b`; both must be runs of the same task (same hop count).
pub fn compare(a: &Side, b: &Side) -> Result<Comparison, String> {
    if a.progress.total != b.progress.total {
        return Err(format!(
            "the runs are of different tasks: {} has {} hops, {} has {}",
            a.name, a.progress.total, b.name, b.progress.total
        ));
    }
    let hops: Vec<HopPair> = a
        .progress
        .hops
        .iter()
        .zip(&b.progress.hops)
        .map(|(ha, hb)| HopPair {
            hop: ha.index + 1,
            description: ha.description.clone(),
            a: done_step(&ha.state),
            b: done_step(&hb.state),
        })
        .collect();
    // A hop one run did and the other did not: a divergence only once the other
    // cannot do it any more (it ended); until then it may still catch up.
    let diverged = hops.iter().find_map(|h| match (h.a, h.b) {
        (Some(step), None) if b.ended => Some((h, &a.name, step, &b.name)),
        (None, Some(step)) if a.ended => Some((h, &b.name, step, &a.name)),
        _ => None,
    });
    let summary = match diverged {
        Some((h, did, step, not)) => format!(
            "They diverged at hop {} ({}): {did} completed it at step {step}, {not} did not.",
            h.hop, h.description
        ),
        None => agreement(a, b, &hops),
    };
    Ok(Comparison {
        diverged_at: diverged.map(|(h, ..)| h.hop),
        hops,
        summary,
    })
}

fn agreement(a: &Side, b: &Side, hops: &[HopPair]) -> String {
    let both = hops
        .iter()
        .filter(|h| h.a.is_some() && h.b.is_some())
        .count();
    if !(a.ended && b.ended) {
        let done_a = hops.iter().filter(|h| h.a.is_some()).count();
        let done_b = hops.iter().filter(|h| h.b.is_some()).count();
        if done_a == done_b {
            return format!(
                "No divergence so far: both completed {both} of {} hops.",
                hops.len()
            );
        }
        // One is ahead: "both completed 1 of 2" beside a card saying 2 of 2 read as a
        // contradiction. Each count is said, and who may still catch up.
        let (ahead, behind, n_ahead, n_behind) = if done_a > done_b {
            (&a.name, &b.name, done_a, done_b)
        } else {
            (&b.name, &a.name, done_b, done_a)
        };
        return format!(
            "No divergence so far: {ahead} completed {n_ahead} of {total} hops, {behind} {n_behind}; {behind} may still catch up.",
            total = hops.len()
        );
    }
    match (a.passed, b.passed) {
        (Some(pa), Some(pb)) if pa != pb => {
            let (passed, failed) = if pa {
                (&a.name, &b.name)
            } else {
                (&b.name, &a.name)
            };
            format!(
                "Both completed the same {both} of {} hops; {passed} passed and {failed} did not (the answer).",
                hops.len()
            )
        }
        _ => format!(
            "They did not diverge: both completed {both} of {} hops.",
            hops.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a panic is the failure report")]

    use super::*;
    use crate::evaluator::HopStatus;

    fn side(name: &str, steps: &[Option<u32>], passed: Option<bool>, ended: bool) -> Side {
        let done = steps.iter().take_while(|s| s.is_some()).count();
        let hops = steps
            .iter()
            .enumerate()
            .map(|(index, s)| HopStatus {
                index,
                description: format!("hop {}", index + 1),
                state: match s {
                    Some(step) => HopState::Done {
                        step: *step,
                        time_ms: 0,
                    },
                    None if index == done => HopState::Current,
                    None => HopState::Waiting,
                },
            })
            .collect();
        Side {
            name: name.into(),
            progress: Progress {
                done,
                total: steps.len(),
                at_end: done == steps.len(),
                current: None,
                hops,
            },
            passed,
            ended,
        }
    }

    #[test]
    fn the_first_hop_one_did_and_the_other_did_not_once_both_ended() {
        let you = side("you", &[Some(1), Some(3), Some(4)], Some(true), true);
        let agent = side("the agent", &[Some(2), None, None], Some(false), true);
        let c = compare(&you, &agent).unwrap();
        assert_eq!(c.diverged_at, Some(2));
        assert_eq!(
            c.summary,
            "They diverged at hop 2 (hop 2): you completed it at step 3, the agent did not."
        );
        assert_eq!(
            c.hops[0],
            HopPair {
                hop: 1,
                description: "hop 1".into(),
                a: Some(1),
                b: Some(2)
            }
        );
        let c = compare(&agent, &you).unwrap();
        assert_eq!(
            c.summary,
            "They diverged at hop 2 (hop 2): you completed it at step 3, the agent did not."
        );
    }

    #[test]
    fn a_run_still_going_may_catch_up() {
        let you = side("you", &[Some(1), None, None], None, false);
        let agent = side("the agent", &[Some(1), Some(2), None], None, false);
        let c = compare(&you, &agent).unwrap();
        assert_eq!(c.diverged_at, None);
        assert_eq!(
            c.summary,
            "No divergence so far: the agent completed 2 of 3 hops, you 1; you may still catch up."
        );
        // The agent ended with every hop while the person goes on: still no divergence.
        let done = side("the agent", &[Some(1), Some(2), Some(3)], Some(true), true);
        assert_eq!(
            compare(&you, &done).unwrap().summary,
            "No divergence so far: the agent completed 3 of 3 hops, you 1; you may still catch up."
        );
        let even = side("the agent", &[Some(2), None, None], None, false);
        assert_eq!(
            compare(&you, &even).unwrap().summary,
            "No divergence so far: both completed 1 of 3 hops."
        );
    }

    #[test]
    fn same_hops_and_different_answers_are_said_so() {
        let you = side("you", &[Some(1), Some(2)], Some(true), true);
        let agent = side("the agent", &[Some(3), Some(4)], Some(false), true);
        let c = compare(&you, &agent).unwrap();
        assert_eq!(c.diverged_at, None);
        assert_eq!(
            c.summary,
            "Both completed the same 2 of 2 hops; you passed and the agent did not (the answer)."
        );
        let same = compare(
            &you,
            &side("the agent", &[Some(3), Some(4)], Some(true), true),
        )
        .unwrap();
        assert_eq!(
            same.summary,
            "They did not diverge: both completed 2 of 2 hops."
        );
    }

    #[test]
    fn runs_of_different_tasks_are_refused() {
        let err = compare(
            &side("you", &[None], None, true),
            &side("the agent", &[None, None], None, true),
        )
        .unwrap_err();
        assert!(err.contains("different tasks"), "{err}");
    }
}
