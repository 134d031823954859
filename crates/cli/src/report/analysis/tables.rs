//! The analysis tables as data (summary.json) and as Markdown (what `report` prints).

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::Analysis;
use crate::report::run_config::MemorySetting;
use hopbench::diagnosis::{Accuracy, FailureMode, StageScores};
use hopbench::metrics::{Bucket, MetricsReport};

/// Success of one memory setting, per bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryRow {
    pub k: u32,
    /// Empty when K = 0.
    pub policy: String,
    pub tasks: usize,
    /// Task SR per bucket in the order of `Bucket::ALL`; null for an empty bucket.
    pub task_sr: Vec<Option<f64>>,
    pub hop_sr: Vec<Option<f64>>,
}

impl MemoryRow {
    pub fn new(memory: &MemorySetting, metrics: &MetricsReport) -> MemoryRow {
        let tasks = metrics.bucket(Bucket::Overall).map_or(0, |b| b.tasks);
        MemoryRow {
            k: memory.k,
            policy: memory.policy.clone(),
            tasks,
            task_sr: metrics.buckets.iter().map(|b| b.task_sr).collect(),
            hop_sr: metrics.buckets.iter().map(|b| b.hop_sr).collect(),
        }
    }

    pub fn label(&self) -> String {
        MemorySetting {
            k: self.k,
            policy: self.policy.clone(),
        }
        .label()
    }
}

/// How many failed tasks of one bucket fell in each mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRow {
    pub bucket: Bucket,
    pub failed: usize,
    /// Every mode, zeros included, in the order of `FailureMode::ALL`.
    pub counts: BTreeMap<FailureMode, usize>,
}

impl FailureRow {
    pub fn new(bucket: Bucket, counts: &BTreeMap<(Bucket, FailureMode), usize>) -> FailureRow {
        let counts: BTreeMap<FailureMode, usize> = FailureMode::ALL
            .iter()
            .map(|&m| (m, counts.get(&(bucket, m)).copied().unwrap_or(0)))
            .collect();
        FailureRow {
            bucket,
            failed: counts.values().sum(),
            counts,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureTask {
    pub id: String,
    pub mode: FailureMode,
    pub why: String,
}

/// One model's stage accuracies over its tasks with a reference trajectory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelStages {
    pub model: String,
    pub tasks: usize,
    pub strict: StageScores,
    pub with_alternatives: StageScores,
    /// Steps of these tasks whose model call failed: there was no reply to score, so
    /// they are in no rate (docs/diagnosis.md).
    #[serde(default)]
    pub without_reply: usize,
}

impl ModelStages {
    /// `12 steps without a reply: the model call failed`, or None when every step
    /// had one.
    pub fn without_reply_note(&self) -> Option<String> {
        match self.without_reply {
            0 => None,
            1 => Some("1 step without a reply: the model call failed".to_string()),
            n => Some(format!("{n} steps without a reply: the model call failed")),
        }
    }
}

/// Reads one stage's accuracy out of the scores.
pub type StageOf = fn(&StageScores) -> Accuracy;

/// The stages in funnel order, with their column names.
pub const STAGES: [(&str, StageOf); 5] = [
    ("relevant element", |s| s.relevant_element),
    ("action prediction", |s| s.action_prediction),
    ("grounding", |s| s.grounding),
    ("first viable", |s| s.first_viable),
    ("model select", |s| s.model_select),
];

fn pct(rate: Option<f64>) -> String {
    rate.map_or_else(|| "—".to_string(), |r| format!("{:.2}", r * 100.0))
}

impl Analysis {
    /// The three tables in Markdown, each under a heading line.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        self.memory_markdown(&mut out);
        self.failure_markdown(&mut out);
        self.stages_markdown(&mut out);
        out
    }

    fn memory_markdown(&self, out: &mut String) {
        out.push_str("Success by memory K (task SR %, hop SR % in brackets)\n\n");
        out.push_str("| memory | tasks | 1 hop | 2-4 hops | 5+ hops | overall |\n");
        out.push_str("|---|---:|---:|---:|---:|---:|\n");
        for row in &self.by_memory {
            let _ = write!(out, "| {} | {} |", row.label(), row.tasks);
            for (task, hop) in row.task_sr.iter().zip(&row.hop_sr) {
                let _ = write!(out, " {} ({}) |", pct(*task), pct(*hop));
            }
            out.push('\n');
        }
        out.push('\n');
    }

    fn failure_markdown(&self, out: &mut String) {
        out.push_str("Failure modes of the tasks that did not pass\n\n");
        out.push_str("| failure mode | 1 hop | 2-4 hops | 5+ hops | overall |\n");
        out.push_str("|---|---:|---:|---:|---:|\n");
        for mode in FailureMode::ALL {
            let _ = write!(out, "| {} |", mode.label());
            for row in &self.failure_modes {
                let _ = write!(out, " {} |", row.counts.get(&mode).copied().unwrap_or(0));
            }
            out.push('\n');
        }
        out.push_str("| all failed |");
        for row in &self.failure_modes {
            let _ = write!(out, " {} |", row.failed);
        }
        out.push_str("\n\n");
    }

    fn stages_markdown(&self, out: &mut String) {
        out.push_str("Stage accuracy per model (%, against the reference; with alternatives)\n\n");
        if self.stages.is_empty() {
            out.push_str("(no task with a reference trajectory)\n");
            return;
        }
        out.push_str("| model | ground truth | tasks | steps |");
        for (name, _) in STAGES {
            let _ = write!(out, " {name} |");
        }
        out.push_str("\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for m in &self.stages {
            for (truth, scores) in [
                ("reference", &m.strict),
                ("with alternatives", &m.with_alternatives),
            ] {
                let _ = write!(
                    out,
                    "| {} | {truth} | {} | {} |",
                    m.model, m.tasks, scores.steps
                );
                for (_, get) in STAGES {
                    let _ = write!(out, " {} |", pct(get(scores).rate()));
                }
                out.push('\n');
            }
        }
        // Below the table, not in it: a rate with its failed calls left out reads
        // well only when the reader knows how many there were.
        for m in &self.stages {
            if let Some(note) = m.without_reply_note() {
                let _ = writeln!(out, "{}: {note} (not scored)", m.model);
            }
        }
    }
}
