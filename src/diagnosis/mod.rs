//! Stage-level diagnosis of agent runs (docs/diagnosis.md): where in the pipeline a run
//! went wrong, not only whether it passed.
//!
//! - [`stages`]: per-step ground truth (a task's reference trajectory, and other valid
//!   paths such as human demonstrations) against what each stage of the agent logged:
//!   relevant-element, action-prediction and grounding accuracy, first-viable and
//!   model-select accuracy, each with and without the alternative paths.
//! - [`failure`]: the multihop failure mode of a failed run, read from its steps and
//!   hop log (failed early hop, wandered to another site, missed a finished hop, loop,
//!   unparseable output, step error).
//!
//! Pure: the report reads files and builds these inputs; tests build them by hand.

pub mod failure;
mod hop_sites;
pub mod stages;
mod triplet;

pub use failure::{classify, Failure, FailureMode, RunTrace, TraceStep};
pub use hop_sites::hop_sites;
pub use stages::{align_and_score, Accuracy, Diagnosis, StageScores, StepLog};
pub use triplet::{Element, Op, Triplet};

#[cfg(test)]
mod tests;
