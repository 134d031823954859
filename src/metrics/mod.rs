//! Metrics over per-task results, following the MMInA paper.
//!
//! - hop SR = hops completed / hops in scope,
//! - task SR = tasks passed / tasks,
//!
//! both reported for the buckets 1 hop, 2-4 hops, 5+ hops and overall, plus a
//! per-position table: for tasks with k hops, the share that completed at
//! least the j-th hop, j = 1..=k.

mod buckets;
mod compare;
mod markdown;
mod positions;
mod record;

#[cfg(test)]
mod tests;

pub use buckets::{Bucket, BucketStats};
pub use compare::{compare, Comparison, HopPair, Side};
pub use positions::PositionRow;
pub use record::{MetricsError, TaskRecord};

use serde::{Deserialize, Serialize};

/// All metrics for one set of task records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricsReport {
    /// Always four entries, in the order of [`Bucket::ALL`].
    pub buckets: Vec<BucketStats>,
    /// One row per task length that occurs, ascending by length.
    pub positions: Vec<PositionRow>,
}

impl MetricsReport {
    /// Validates every record, then aggregates. The first inconsistent record
    /// aborts the whole computation: a silently skipped task would change
    /// every rate without anyone noticing.
    pub fn compute(records: &[TaskRecord]) -> Result<Self, MetricsError> {
        for r in records {
            r.validate()?;
        }
        Ok(MetricsReport {
            buckets: Bucket::ALL
                .iter()
                .map(|&b| BucketStats::collect(b, records))
                .collect(),
            positions: positions::position_rows(records),
        })
    }

    /// The stats for one bucket.
    pub fn bucket(&self, bucket: Bucket) -> Option<&BucketStats> {
        self.buckets.iter().find(|s| s.bucket == bucket)
    }

    /// Pretty JSON; rates are fractions in 0..=1 and `null` for empty buckets.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }

    /// Two GitHub-flavoured Markdown tables (buckets, then per-position),
    /// separated by a blank line.
    pub fn to_markdown(&self) -> String {
        markdown::render(self)
    }
}
