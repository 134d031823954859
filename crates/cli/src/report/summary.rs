//! `summary.json`: the paper's metrics over the merged results, plus counts and totals.

use super::analysis::Analysis;
use super::merge::Merged;
use super::results::{ErrorKind, Tokens, Verdict};
use hopbench::metrics::{MetricsError, MetricsReport, TaskRecord};
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

/// Tasks that took more than one attempt, and why each earlier attempt did not count.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retries {
    /// Tasks with at least one earlier attempt.
    pub tasks: usize,
    /// Earlier attempts by the kind of their error: infrastructure, run, or (lines of
    /// older runners, or a re-run of a FAIL) unknown.
    pub infrastructure: usize,
    pub run: usize,
    pub other: usize,
    pub earlier_attempts: Vec<EarlierAttempt>,
}

/// One attempt a later one replaced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EarlierAttempt {
    pub id: String,
    pub attempt: u32,
    pub verdict: Verdict,
    pub error_kind: Option<ErrorKind>,
    pub error: Option<String>,
    /// `file:line` of the attempt's result line.
    pub line: String,
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
    /// Counts, totals and rates are over each task's last attempt.
    pub counts: Counts,
    pub totals: Totals,
    /// Tasks retried and why (empty when every task took one attempt).
    #[serde(default)]
    pub retries: Retries,
    /// Table 2 buckets and the per-position table (`metrics::MetricsReport`).
    #[serde(flatten)]
    pub metrics: MetricsReport,
    /// Success by memory K, failure modes, stage accuracies (`report::analysis`).
    #[serde(flatten)]
    pub analysis: Analysis,
    /// People's sessions beside the agents' results, when a folder holds them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human: Option<super::human::HumanComparison>,
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
            generator: hopbench::NAME_AND_VERSION.to_string(),
            sources,
            notes: merged.notes.clone(),
            counts,
            totals,
            retries: Retries::of(merged),
            metrics: MetricsReport::compute(&records)?,
            analysis: Analysis::default(),
            human: None,
        })
    }

    /// One counts line (and one on retries, if any), then the metrics' two Markdown
    /// tables and the analysis tables (what `report` and `./build.sh demo` print).
    pub fn to_markdown(&self) -> String {
        let c = &self.counts;
        let retries = self
            .retries
            .describe()
            .map_or(String::new(), |line| format!("{line}\n"));
        let human = self
            .human
            .as_ref()
            .map_or(String::new(), |h| format!("\n{}", h.to_markdown()));
        format!(
            "{} tasks: {} PASS, {} FAIL, {} ERROR\n{retries}\n{}\n{}{human}",
            c.tasks,
            c.pass,
            c.fail,
            c.error,
            self.metrics.to_markdown(),
            self.analysis.to_markdown()
        )
    }
}

impl Retries {
    fn of(merged: &Merged) -> Retries {
        let mut retries = Retries::default();
        let mut last_id: Option<&str> = None;
        for located in &merged.earlier_attempts {
            let r = &located.result;
            if last_id != Some(r.id.as_str()) {
                retries.tasks += 1;
                last_id = Some(r.id.as_str());
            }
            match r.error_kind {
                Some(ErrorKind::Infrastructure) => retries.infrastructure += 1,
                Some(ErrorKind::Run) => retries.run += 1,
                None => retries.other += 1,
            }
            retries.earlier_attempts.push(EarlierAttempt {
                id: r.id.clone(),
                attempt: r.attempt,
                verdict: r.verdict,
                error_kind: r.error_kind,
                error: r.error.clone(),
                line: located.place(),
            });
        }
        retries
    }

    /// `2 tasks retried: 3 earlier attempts (3 infrastructure errors); counted: each
    /// task's last attempt`, or None when nothing was retried.
    pub fn describe(&self) -> Option<String> {
        if self.tasks == 0 {
            return None;
        }
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let kinds: Vec<String> = [
            (
                self.infrastructure,
                "infrastructure error",
                "infrastructure errors",
            ),
            (self.run, "run error", "run errors"),
            (self.other, "other", "other"),
        ]
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| plural(*n, one, many))
        .collect();
        Some(format!(
            "{} retried: {} ({}); counted: each task's last attempt",
            plural(self.tasks, "task", "tasks"),
            plural(
                self.earlier_attempts.len(),
                "earlier attempt",
                "earlier attempts"
            ),
            kinds.join(", ")
        ))
    }
}
