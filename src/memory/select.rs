//! Choosing the records a run is shown: the policy and its settings.

use serde::{Deserialize, Serialize};

use super::record::{subset_of, task_sites, MemoryRecord};
use super::similar::SimilarityIndex;
use crate::task::Task;

/// More past tasks than this would crowd the page out of the prompt; the paper found
/// K = 2 best and longer histories to add noise.
pub const MAX_MEMORY_K: u32 = 10;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum MemoryPolicy {
    /// The last `k` finished tasks of the same subset (the paper's preset).
    #[default]
    Recent,
    /// The `k` records whose intent and sites are closest to the task's.
    Similar,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(MemoryPolicy, "MemoryPolicy", {
    Recent = "recent",
    Similar = "similar",
});

crate::variants::every_variant!(MemoryPolicy { Recent, Similar });

impl MemoryPolicy {
    pub fn name(self) -> &'static str {
        match self {
            MemoryPolicy::Recent => "recent",
            MemoryPolicy::Similar => "similar",
        }
    }
}

/// `k` = 0 turns memory off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MemorySettings {
    pub k: u32,
    pub policy: MemoryPolicy,
}

impl MemorySettings {
    pub fn check(&self) -> Result<(), String> {
        if self.k > MAX_MEMORY_K {
            return Err(format!(
                "memory.k must be from 0 to {MAX_MEMORY_K} (got {})",
                self.k
            ));
        }
        Ok(())
    }
}

/// What a task offers to the selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryQuery {
    pub task_id: String,
    pub subset: String,
    pub intent: String,
    pub sites: Vec<String>,
}

impl MemoryQuery {
    pub fn of_task(task: &Task) -> MemoryQuery {
        MemoryQuery {
            task_id: task.id.clone(),
            subset: subset_of(&task.id).to_string(),
            intent: task.intent.clone(),
            sites: task_sites(task),
        }
    }
}

/// The records to show, in the order the prompt lists them: `recent` oldest first (as
/// they happened), `similar` most similar first. `pool` is in the order the runs
/// finished. A record of the same task is never chosen: a re-run would otherwise be
/// shown its own earlier trajectory.
pub fn select<'a>(
    pool: &'a [MemoryRecord],
    query: &MemoryQuery,
    settings: MemorySettings,
) -> Vec<&'a MemoryRecord> {
    let k = settings.k as usize;
    if k == 0 {
        return Vec::new();
    }
    match settings.policy {
        MemoryPolicy::Recent => {
            let mut chosen: Vec<&MemoryRecord> = pool
                .iter()
                .rev()
                .filter(|r| r.subset == query.subset && r.task_id != query.task_id)
                .take(k)
                .collect();
            chosen.reverse();
            chosen
        }
        MemoryPolicy::Similar => SimilarityIndex::build(pool, query)
            .rank(k)
            .into_iter()
            .map(|(index, _)| &pool[index])
            .collect(),
    }
}
