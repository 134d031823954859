//! `summary.json`: the paper's metrics over the merged results, plus counts and totals.

use super::analysis::Analysis;
use super::merge::Merged;
use super::results::{Tokens, Verdict};
use crate::metrics::{MetricsError, MetricsReport, TaskRecord};
use serde::{Deserialize, Serialize};

/// Tasks by verdict. ERROR tasks are also in the rates, as tasks that did not pass:
/// leaving them out would reward runs that break.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub tasks: usize,
    pub pass: usize,
    pub fail: usize,
    pub error: usize,
}

/// Sums over every task.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub hops_total: usize,
    pub hops_completed: usize,
    pub steps: u64,
    pub tokens: Tokens,
    pub time_ms: u64,
}

/// Where the merged lines came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    pub results: String,
    pub lines: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// `hopbench <version>`, so a summary can be traced to the code that wrote it.
    pub generator: String,
    pub sources: Vec<Source>,
    /// Merge decisions and anything else a reader of the numbers should know.
    pub notes: Vec<String>,
    pub counts: Counts,
    pub totals: Totals,
    /// Table 2 buckets and the per-position table (`metrics::MetricsReport`).
    #[serde(flatten)]
    pub metrics: MetricsReport,
    /// Success by memory K, failure modes, stage accuracies (`report::analysis`).
    #[serde(flatten)]
    pub analysis: Analysis,
}

impl Summary {
    pub fn compute(merged: &Merged, sources: Vec<Source>) -> Result<Summary, MetricsError> {
        let mut counts = Counts::default();
        let mut totals = Totals::default();
        let mut records = Vec::with_capacity(merged.tasks.len());
        for located in &merged.tasks {
            let r = &located.result;
            counts.tasks += 1;
            match r.verdict {
                Verdict::Pass => counts.pass += 1,
                Verdict::Fail => counts.fail += 1,
                Verdict::Error => counts.error += 1,
            }
            totals.hops_total += r.hops_total;
            totals.hops_completed += r.hops_completed;
            totals.steps += u64::from(r.steps);
            totals.tokens += r.tokens;
            totals.time_ms += r.time_ms;
            records.push(TaskRecord {
                task_id: r.id.clone(),
                hops_total: r.hops_total,
                hops_completed: r.hops_completed,
                passed: r.passed(),
            });
        }
        Ok(Summary {
            generator: format!("hopbench {}", env!("CARGO_PKG_VERSION")),
            sources,
            notes: merged.notes.clone(),
            counts,
            totals,
            metrics: MetricsReport::compute(&records)?,
            analysis: Analysis::default(),
        })
    }

    /// One counts line, then the metrics' two Markdown tables and the analysis tables
    /// (what `report` and `./build.sh demo` print).
    pub fn to_markdown(&self) -> String {
        let c = &self.counts;
        format!(
            "{} tasks: {} PASS, {} FAIL, {} ERROR\n\n{}\n{}",
            c.tasks,
            c.pass,
            c.fail,
            c.error,
            self.metrics.to_markdown(),
            self.analysis.to_markdown()
        )
    }
}
