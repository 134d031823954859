//! Human vs agent: the folders whose `run.json` says `provider: "human"` (people's
//! sessions, exported from the extension and imported with `./build.sh import`) are
//! kept apart from the agents' folders, so a person's line never replaces an agent's
//! line of the same task. The report then puts the two side by side: the Table-2
//! buckets with a human column, the people's own per-position table, and one row per
//! task with both results and where each stopped.

use super::merge::Merged;
use super::results::{ResultLine, Verdict};
use hopbench::metrics::{Bucket, MetricsError, MetricsReport, TaskRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One bucket's success rates for the people and for the agents (`None`: no task of
/// that length on that side).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BucketPair {
    pub bucket: String,
    pub human_tasks: usize,
    pub human_task_sr: Option<f64>,
    pub human_hop_sr: Option<f64>,
    pub agent_tasks: usize,
    pub agent_task_sr: Option<f64>,
    pub agent_hop_sr: Option<f64>,
}

/// One side's result of one task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideResult {
    pub verdict: Verdict,
    pub hops_completed: usize,
    pub steps: u32,
    pub time_ms: u64,
    /// The hop (from 1) this side did not complete, when it did not pass.
    pub stopped_at_hop: Option<usize>,
}

/// One task done by a person, an agent or both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskPair {
    pub id: String,
    pub hops_total: usize,
    pub human: Option<SideResult>,
    pub agent: Option<SideResult>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanComparison {
    /// The people's Table-2 buckets and per-position table.
    pub human_metrics: MetricsReport,
    pub buckets: Vec<BucketPair>,
    pub tasks: Vec<TaskPair>,
}

fn side(r: &ResultLine) -> SideResult {
    SideResult {
        verdict: r.verdict,
        hops_completed: r.hops_completed,
        steps: r.steps,
        time_ms: r.time_ms,
        stopped_at_hop: (!r.passed()).then(|| (r.hops_completed + 1).min(r.hops_total)),
    }
}

fn records(merged: &Merged) -> Vec<TaskRecord> {
    merged
        .tasks
        .iter()
        .map(|l| TaskRecord {
            task_id: l.result.id.clone(),
            hops_total: l.result.hops_total,
            hops_completed: l.result.hops_completed,
            passed: l.result.passed(),
        })
        .collect()
}

impl HumanComparison {
    /// The comparison of the people's merged lines with the agents' (`agents`: the
    /// report's main results).
    pub fn compute(
        humans: &Merged,
        agents: &Merged,
        agent_metrics: &MetricsReport,
    ) -> Result<HumanComparison, MetricsError> {
        let human_metrics = MetricsReport::compute(&records(humans))?;
        let buckets = Bucket::ALL
            .iter()
            .map(|&bucket| {
                let h = human_metrics.bucket(bucket);
                let a = agent_metrics.bucket(bucket);
                BucketPair {
                    bucket: bucket.label().to_string(),
                    human_tasks: h.map_or(0, |s| s.tasks),
                    human_task_sr: h.and_then(|s| s.task_sr),
                    human_hop_sr: h.and_then(|s| s.hop_sr),
                    agent_tasks: a.map_or(0, |s| s.tasks),
                    agent_task_sr: a.and_then(|s| s.task_sr),
                    agent_hop_sr: a.and_then(|s| s.hop_sr),
                }
            })
            .collect();
        let mut tasks: BTreeMap<String, TaskPair> = BTreeMap::new();
        let mut pair = |r: &ResultLine| {
            tasks.entry(r.id.clone()).or_insert_with(|| TaskPair {
                id: r.id.clone(),
                hops_total: r.hops_total,
                human: None,
                agent: None,
            });
        };
        for l in humans.tasks.iter().chain(&agents.tasks) {
            pair(&l.result);
        }
        for l in &humans.tasks {
            if let Some(t) = tasks.get_mut(&l.result.id) {
                t.human = Some(side(&l.result));
            }
        }
        for l in &agents.tasks {
            if let Some(t) = tasks.get_mut(&l.result.id) {
                t.agent = Some(side(&l.result));
            }
        }
        Ok(HumanComparison {
            human_metrics,
            buckets,
            tasks: tasks.into_values().collect(),
        })
    }

    /// The two Markdown tables (buckets with the human column, then per task) and the
    /// people's per-position table.
    pub fn to_markdown(&self) -> String {
        // Rates are fractions; shown as percentages, "—" where a side has no task.
        let pct = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{:.2}", v * 100.0));
        let mut text = String::from(
            "Human vs agent (task SR %, hop SR % in brackets)\n\n\
             | bucket | human tasks | human | agent tasks | agent |\n\
             |---|---:|---:|---:|---:|\n",
        );
        for b in &self.buckets {
            let _ = writeln!(
                text,
                "| {} | {} | {} ({}) | {} | {} ({}) |",
                b.bucket,
                b.human_tasks,
                pct(b.human_task_sr),
                pct(b.human_hop_sr),
                b.agent_tasks,
                pct(b.agent_task_sr),
                pct(b.agent_hop_sr)
            );
        }
        text.push_str(
            "\nPer task: verdict, hops done, steps, time, and the hop each stopped at\n\n\
             | task | hops | human | agent |\n|---|---:|---|---|\n",
        );
        for t in &self.tasks {
            let _ = writeln!(
                text,
                "| {} | {} | {} | {} |",
                t.id,
                t.hops_total,
                describe(t.human.as_ref(), t.hops_total),
                describe(t.agent.as_ref(), t.hops_total)
            );
        }
        let positions = self.human_metrics.to_markdown();
        if let Some((_, per_position)) = positions.split_once("\n\n") {
            let _ = write!(text, "\nHuman: hop success by position\n\n{per_position}");
        }
        text
    }
}

/// `PASS 3/3 hops, 5 steps, 41.2 s` / `FAIL 1/3 hops, 9 steps, 60.0 s, stopped at hop 2`
/// / `—` for a side that did not do the task.
pub fn describe(side: Option<&SideResult>, hops_total: usize) -> String {
    let Some(s) = side else {
        return "—".to_string();
    };
    let mut text = format!(
        "{} {}/{hops_total} hops, {} steps, {:.1} s",
        s.verdict.as_str(),
        s.hops_completed,
        s.steps,
        s.time_ms as f64 / 1000.0
    );
    if let Some(hop) = s.stopped_at_hop {
        let _ = write!(text, ", stopped at hop {hop}");
    }
    text
}
