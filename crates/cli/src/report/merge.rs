//! Merging the results of several run folders (shards of one suite, or a re-run), and
//! telling a task's retried attempts from a task recorded twice.

use super::results::Located;
use hopbench::import::natural_cmp;
use std::collections::HashMap;

/// The merged tasks, in natural order of their ids, and what the merge decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The last line of each task: what every count and rate is computed from.
    pub tasks: Vec<Located>,
    /// Attempts a later attempt replaced (a task retried after an error), by task in
    /// the order of `tasks`, then by attempt.
    pub earlier_attempts: Vec<Located>,
    pub notes: Vec<String>,
}

/// Merges the lines of every folder in the order given. A task id seen again keeps its
/// later line. When that line is a later attempt (a higher `attempt`: the runner
/// retried the task) the earlier one is kept as an earlier attempt; otherwise (two
/// shards, or a folder named twice) a note says which line replaced which, so nothing
/// changes silently.
pub fn merge(sources: Vec<Vec<Located>>) -> Merged {
    let mut by_id: HashMap<String, Located> = HashMap::new();
    let mut earlier_attempts = Vec::new();
    let mut notes = Vec::new();
    for located in sources.into_iter().flatten() {
        let id = located.result.id.clone();
        if let Some(earlier) = by_id.remove(&id) {
            if located.result.attempt > earlier.result.attempt {
                earlier_attempts.push(earlier);
            } else {
                notes.push(format!(
                    "task {id:?} appears more than once: {} replaces {}",
                    located.place(),
                    earlier.place()
                ));
            }
        }
        by_id.insert(id, located);
    }
    let mut tasks: Vec<Located> = by_id.into_values().collect();
    // Shards take every n-th task, so file order interleaves; ids in natural order
    // (mmina/normal/2 before mmina/normal/10) give back the suite's order.
    tasks.sort_by(|a, b| natural_cmp(&a.result.id, &b.result.id));
    earlier_attempts.sort_by(|a, b| {
        natural_cmp(&a.result.id, &b.result.id).then(a.result.attempt.cmp(&b.result.attempt))
    });
    Merged {
        tasks,
        earlier_attempts,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::results::parse_results;
    use std::path::Path;

    fn lines(text: &str, file: &str) -> Vec<Located> {
        parse_results(text, Path::new(file), Path::new("dir")).unwrap()
    }

    fn line(id: &str, verdict: &str, attempt: Option<u32>) -> String {
        let (error, kind) = if verdict == "ERROR" {
            ("\"browser died\"", "\"infrastructure\"")
        } else {
            ("null", "null")
        };
        let attempt = attempt.map_or(String::new(), |a| format!(",\"attempt\":{a}"));
        format!(
            "{{\"id\":\"{id}\",\"hops_total\":1,\"hops_completed\":{},\"hop_steps\":[{}],\
             \"verdict\":\"{verdict}\",\"steps\":1,\"tokens\":{{\"input\":0,\"output\":0}},\
             \"time_ms\":1,\"error\":{error},\"error_kind\":{kind}{attempt}}}\n",
            u8::from(verdict == "PASS"),
            if verdict == "PASS" { "1" } else { "null" },
        )
    }

    #[test]
    fn a_later_attempt_replaces_the_earlier_without_a_note() {
        let text = [
            line("t2", "ERROR", Some(1)),
            line("t1", "PASS", Some(1)),
            line("t2", "ERROR", Some(2)),
            line("t2", "PASS", Some(3)),
        ]
        .concat();
        let merged = merge(vec![lines(&text, "r.jsonl")]);
        assert!(merged.notes.is_empty(), "{:?}", merged.notes);
        let last: Vec<(&str, u32)> = merged
            .tasks
            .iter()
            .map(|l| (l.result.id.as_str(), l.result.attempt))
            .collect();
        assert_eq!(last, [("t1", 1), ("t2", 3)]);
        let earlier: Vec<(u32, usize)> = merged
            .earlier_attempts
            .iter()
            .map(|l| (l.result.attempt, l.line))
            .collect();
        assert_eq!(earlier, [(1, 1), (2, 3)]);
    }

    #[test]
    fn the_same_attempt_twice_is_a_duplicate_with_a_note() {
        // Two shards that both ran t1, and lines of older runners without `attempt`.
        let a = lines(&line("t1", "FAIL", None), "a.jsonl");
        let b = lines(&line("t1", "PASS", Some(1)), "b.jsonl");
        let merged = merge(vec![a, b]);
        assert!(merged.earlier_attempts.is_empty());
        assert_eq!(
            merged.notes,
            ["task \"t1\" appears more than once: b.jsonl:1 replaces a.jsonl:1"]
        );
        assert!(merged.tasks[0].result.passed());
    }
}
