//! Merging the results of several run folders (shards of one suite, or a re-run).

use super::results::Located;
use crate::import::natural_cmp;
use std::collections::HashMap;

/// The merged tasks, in natural order of their ids, and what the merge decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    pub tasks: Vec<Located>,
    pub notes: Vec<String>,
}

/// Merges the lines of every folder in the order given. A task id seen twice keeps
/// its later line (a re-run after a fix, or the last shard named), and a note says
/// which line replaced which, so nothing changes silently.
pub fn merge(sources: Vec<Vec<Located>>) -> Merged {
    let mut by_id: HashMap<String, Located> = HashMap::new();
    let mut notes = Vec::new();
    for located in sources.into_iter().flatten() {
        let id = located.result.id.clone();
        if let Some(earlier) = by_id.get(&id) {
            notes.push(format!(
                "task {id:?} appears more than once: {} replaces {}",
                located.place(),
                earlier.place()
            ));
        }
        by_id.insert(id, located);
    }
    let mut tasks: Vec<Located> = by_id.into_values().collect();
    // Shards take every n-th task, so file order interleaves; ids in natural order
    // (mmina/normal/2 before mmina/normal/10) give back the suite's order.
    tasks.sort_by(|a, b| natural_cmp(&a.result.id, &b.result.id));
    Merged { tasks, notes }
}
