//! The report's diagnosis of the runs (docs/diagnosis.md): success by memory K, the
//! failure mode of each failed task counted per bucket, and the stage accuracies per
//! model. Reads trajectories and run.json; the judging itself is `hopbench::diagnosis`.

mod inputs;
mod tables;

pub use tables::{FailureRow, FailureTask, MemoryRow, ModelStages, STAGES};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::merge::Merged;
use super::results::Located;
use super::run_config::{MemorySetting, RunConfig};
use super::trajectory::Trajectory;
use super::TRAJECTORIES;
use hopbench::diagnosis::{align_and_score, classify, Diagnosis, FailureMode};
use hopbench::metrics::{Bucket, MetricsError, MetricsReport, TaskRecord};

/// Everything the report adds to the paper's tables.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Analysis {
    /// One row per memory setting among the folders (the paper's Fig. 5).
    pub by_memory: Vec<MemoryRow>,
    /// Failure modes per bucket, and each failed task's mode.
    pub failure_modes: Vec<FailureRow>,
    pub failed_tasks: Vec<FailureTask>,
    /// Stage accuracies per model, over the tasks that have a reference trajectory.
    pub stages: Vec<ModelStages>,
}

/// The run folders of one memory setting, merged.
pub struct Group {
    pub memory: MemorySetting,
    pub merged: Merged,
}

/// `main`: the tasks the report's tables show; `groups`: every memory setting, for the
/// by-K table; `configs`: each folder's run.json, by folder.
pub fn analyse(
    main: &Merged,
    groups: &[Group],
    configs: &[(std::path::PathBuf, RunConfig)],
) -> Result<Analysis, MetricsError> {
    let config_of = |located: &Located| {
        configs
            .iter()
            .find(|(dir, _)| dir == &located.dir)
            .map(|(_, c)| c.clone())
            .unwrap_or_default()
    };
    let mut by_memory = Vec::new();
    for group in groups {
        let records: Vec<TaskRecord> = group.merged.tasks.iter().map(record).collect();
        by_memory.push(MemoryRow::new(
            &group.memory,
            &MetricsReport::compute(&records)?,
        ));
    }

    let mut counts: BTreeMap<(Bucket, FailureMode), usize> = BTreeMap::new();
    let mut failed_tasks = Vec::new();
    let mut stages: BTreeMap<String, (usize, Diagnosis)> = BTreeMap::new();
    for located in &main.tasks {
        let result = &located.result;
        let trajectory = read_trajectory(located);
        let task = trajectory.as_ref().and_then(inputs::task_of);
        let trace = inputs::run_trace(result, trajectory.as_ref(), task.as_ref());
        if let Some(failure) = classify(&trace) {
            for bucket in Bucket::ALL.iter().filter(|b| b.contains(result.hops_total)) {
                *counts.entry((*bucket, failure.mode)).or_default() += 1;
            }
            failed_tasks.push(FailureTask {
                id: result.id.clone(),
                mode: failure.mode,
                why: failure.why,
            });
        }
        if let (Some(trajectory), Some(task)) = (&trajectory, &task) {
            let (reference, alternatives) = inputs::paths_of(task);
            if !reference.is_empty() {
                let logs = inputs::step_logs(trajectory);
                let entry = stages.entry(config_of(located).model_label()).or_default();
                entry.0 += 1;
                entry.1 += align_and_score(&logs, &reference, &alternatives);
            }
        }
    }
    let failure_modes = Bucket::ALL
        .iter()
        .map(|&bucket| FailureRow::new(bucket, &counts))
        .collect();
    Ok(Analysis {
        by_memory,
        failure_modes,
        failed_tasks,
        stages: stages
            .into_iter()
            .map(|(model, (tasks, diagnosis))| ModelStages {
                model,
                tasks,
                strict: diagnosis.strict,
                with_alternatives: diagnosis.with_alternatives,
                without_reply: diagnosis.without_reply,
            })
            .collect(),
    })
}

fn record(located: &Located) -> TaskRecord {
    let r = &located.result;
    TaskRecord {
        task_id: r.id.clone(),
        hops_total: r.hops_total,
        hops_completed: r.hops_completed,
        passed: r.passed(),
    }
}

/// The task's trajectory file, if it exists and reads (the viewer pages note the
/// ones that do not).
fn read_trajectory(located: &Located) -> Option<Trajectory> {
    let stem = super::attempt_file_stem(&located.result.id, located.result.attempt);
    let path = located.dir.join(TRAJECTORIES).join(format!("{stem}.json"));
    let text = std::fs::read_to_string(path).ok()?;
    Trajectory::parse(&text).ok()
}
