//! How far into the hop sequence tasks get, per task length (the MMInA
//! paper's Table 3 / A1).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::buckets::ratio;
use super::record::TaskRecord;

/// For the tasks with `hops` hops: how many completed at least the j-th hop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionRow {
    /// Task length k.
    pub hops: usize,
    /// Number of tasks with this length (always at least 1).
    pub tasks: usize,
    /// `reached[j - 1]` = tasks that completed at least j hops, for j = 1..=k.
    pub reached: Vec<usize>,
    /// `reached[j - 1] / tasks`, in 0..=1.
    pub share: Vec<f64>,
}

/// One row per task length that occurs, ascending. Records must already be
/// validated (`hops_completed <= hops_total`).
pub(super) fn position_rows(records: &[TaskRecord]) -> Vec<PositionRow> {
    let mut by_len: BTreeMap<usize, (usize, Vec<usize>)> = BTreeMap::new();
    for r in records {
        let (tasks, reached) = by_len
            .entry(r.hops_total)
            .or_insert_with(|| (0, vec![0; r.hops_total]));
        *tasks += 1;
        // Hops complete in order, so finishing h hops means reaching
        // positions 1..=h.
        for slot in reached.iter_mut().take(r.hops_completed) {
            *slot += 1;
        }
    }
    by_len
        .into_iter()
        .map(|(hops, (tasks, reached))| PositionRow {
            hops,
            tasks,
            share: reached.iter().map(|&n| ratio(n, tasks)).collect(),
            reached,
        })
        .collect()
}
