//! Success rates grouped by task length, as in the MMInA paper's Table 2.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::record::TaskRecord;

/// A group of tasks by hop count. `Overall` holds every task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bucket {
    OneHop,
    TwoToFour,
    FivePlus,
    Overall,
}

impl Bucket {
    /// Every bucket, in the order reports list them.
    pub const ALL: [Bucket; 4] = [
        Bucket::OneHop,
        Bucket::TwoToFour,
        Bucket::FivePlus,
        Bucket::Overall,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Bucket::OneHop => "1 hop",
            Bucket::TwoToFour => "2-4 hops",
            Bucket::FivePlus => "5+ hops",
            Bucket::Overall => "overall",
        }
    }

    /// Whether a task with `hops_total` hops counts towards this bucket.
    pub fn contains(self, hops_total: usize) -> bool {
        match self {
            Bucket::OneHop => hops_total == 1,
            Bucket::TwoToFour => (2..=4).contains(&hops_total),
            Bucket::FivePlus => hops_total >= 5,
            Bucket::Overall => true,
        }
    }
}

impl fmt::Display for Bucket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Totals and rates for one bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BucketStats {
    pub bucket: Bucket,
    pub tasks: usize,
    pub tasks_passed: usize,
    pub hops_total: usize,
    pub hops_completed: usize,
    /// `hops_completed / hops_total`, in 0..=1; `None` when the bucket is empty.
    pub hop_sr: Option<f64>,
    /// `tasks_passed / tasks`, in 0..=1; `None` when the bucket is empty.
    pub task_sr: Option<f64>,
}

impl BucketStats {
    /// Aggregates the records that fall in `bucket`. Records must already be
    /// validated, so every counted task has at least one hop.
    pub(super) fn collect(bucket: Bucket, records: &[TaskRecord]) -> Self {
        let mut stats = BucketStats {
            bucket,
            tasks: 0,
            tasks_passed: 0,
            hops_total: 0,
            hops_completed: 0,
            hop_sr: None,
            task_sr: None,
        };
        for r in records.iter().filter(|r| bucket.contains(r.hops_total)) {
            stats.tasks += 1;
            stats.tasks_passed += usize::from(r.passed);
            stats.hops_total += r.hops_total;
            stats.hops_completed += r.hops_completed;
        }
        // An empty bucket has no rate at all; reporting 0% would read as
        // "the agent failed every such task".
        if stats.tasks > 0 {
            stats.hop_sr = Some(ratio(stats.hops_completed, stats.hops_total));
            stats.task_sr = Some(ratio(stats.tasks_passed, stats.tasks));
        }
        stats
    }
}

pub(super) fn ratio(part: usize, whole: usize) -> f64 {
    part as f64 / whole as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_boundaries_follow_the_paper() {
        let of = |n: usize| {
            Bucket::ALL[..3]
                .iter()
                .copied()
                .filter(|b| b.contains(n))
                .collect::<Vec<_>>()
        };
        assert_eq!(of(1), [Bucket::OneHop]);
        assert_eq!(of(2), [Bucket::TwoToFour]);
        assert_eq!(of(4), [Bucket::TwoToFour]);
        assert_eq!(of(5), [Bucket::FivePlus]);
        assert_eq!(of(12), [Bucket::FivePlus]);
    }

    #[test]
    fn labels() {
        let labels: Vec<String> = Bucket::ALL.iter().map(|b| b.to_string()).collect();
        assert_eq!(labels, ["1 hop", "2-4 hops", "5+ hops", "overall"]);
    }
}
