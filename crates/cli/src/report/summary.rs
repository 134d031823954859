//! `summary.json`: the paper's metrics over the merged results, plus counts and totals.

use super::analysis::Analysis;
use super::cost::{dollars, Costs};
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub hops_total: usize,
    pub hops_completed: usize,
    pub steps: u64,
    /// The model calls' tokens: input (the cached part included), output, and the
    /// part of the input the provider served from its cache.
    pub tokens: Tokens,
    /// `tokens.cached_input` as a share of `tokens.input`; null when no input was sent.
    #[serde(default)]
    pub cached_share: Option<f64>,
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
    /// Why the attempt ended, in a word and in a sentence (as in results.jsonl).
    #[serde(default)]
    pub end: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
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
    /// What the runs cost, with `--prices`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub costs: Option<Costs>,
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
        totals.cached_share = totals.tokens.cached_share();
        Ok(Summary {
            generator: hopbench::NAME_AND_VERSION.to_string(),
            sources,
            notes: merged.notes.clone(),
            counts,
            totals,
            retries: Retries::of(merged),
            metrics: MetricsReport::compute(&records)?,
            analysis: Analysis::default(),
            costs: None,
            human: None,
        })
    }

    /// One counts line (then one on retries and one on tokens and cost, if there is
    /// anything to say), then the metrics' two Markdown tables and the analysis tables
    /// (what `report` and `./build.sh demo` print).
    pub fn to_markdown(&self) -> String {
        let c = &self.counts;
        let lines = [self.retries.describe(), self.usage_line()]
            .into_iter()
            .flatten()
            .map(|line| format!("{line}\n"))
            .collect::<String>();
        let human = self
            .human
            .as_ref()
            .map_or(String::new(), |h| format!("\n{}", h.to_markdown()));
        format!(
            "{} tasks: {} PASS, {} FAIL, {} ERROR\n{lines}\n{}\n{}{human}",
            c.tasks,
            c.pass,
            c.fail,
            c.error,
            self.metrics.to_markdown(),
            self.analysis.to_markdown()
        )
    }

    /// `tokens: 12500 in (3000 cached, 24.00 %) / 1250 out; cost $0.00258 over every
    /// attempt in the folders (prices.json)`; None for runs that used no model and were
    /// given no prices (replay).
    pub fn usage_line(&self) -> Option<String> {
        let t = &self.totals.tokens;
        if t.input == 0 && t.output == 0 && self.costs.is_none() {
            return None;
        }
        let share = self
            .totals
            .cached_share
            .map_or_else(|| "—".to_string(), |s| format!("{:.2} %", s * 100.0));
        let mut line = format!(
            "tokens: {} in ({} cached, {share}) / {} out",
            t.input, t.cached_input, t.output
        );
        if let Some(costs) = &self.costs {
            line.push_str(&format!(
                "; cost {}{} over every attempt in the folders ({})",
                dollars(costs.total_usd),
                if costs.complete {
                    ""
                } else {
                    " (not all priced, see the notes)"
                },
                costs.prices
            ));
        }
        Some(line)
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
                end: r.end.clone(),
                reason: r.reason.clone(),
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
