//! What diagnosis needs of one task, read from its result line and trajectory file:
//! the task (imported again from the text the trajectory keeps), the steps as the
//! failure classifier sees them, and the steps' stage logs.

use std::path::Path;

use serde_json::Value;

use crate::report::results::{ResultLine, Verdict};
use crate::report::trajectory::{Step, Trajectory};
use hopbench::action::Action;
use hopbench::diagnosis::{hop_sites, Element, RunTrace, StepLog, TraceStep, Triplet};
use hopbench::import::import_str;
use hopbench::task::Task;

/// The task a trajectory ran, from its `task.text` and `task.fileName`.
pub fn task_of(trajectory: &Trajectory) -> Option<Task> {
    let text = trajectory.task.get("text")?.as_str()?;
    let file = trajectory
        .task
        .get("fileName")
        .and_then(Value::as_str)
        .unwrap_or("task.json");
    import_str(text, Path::new(file)).outcome.ok()
}

fn action_text(step: &Step) -> Option<String> {
    step.action
        .as_ref()?
        .get("text")?
        .as_str()
        .map(str::to_string)
}

/// The run as the failure classifier reads it.
pub fn run_trace(
    result: &ResultLine,
    trajectory: Option<&Trajectory>,
    task: Option<&Task>,
) -> RunTrace {
    let steps = trajectory.map_or_else(Vec::new, |t| {
        t.steps
            .iter()
            .map(|s| TraceStep {
                url: s.observation.as_ref().and_then(|o| o.url.clone()),
                action: action_text(s),
                model_failed: model_failed(s),
            })
            .collect()
    });
    RunTrace {
        error: result.verdict == Verdict::Error,
        passed: result.verdict == Verdict::Pass,
        hops_total: result.hops_total,
        hop_steps: result.hop_steps.clone(),
        answered: result.answer.is_some(),
        steps,
        hop_sites: task.map(hop_sites).unwrap_or_default(),
    }
}

/// The stage log of each step, `None` for a step whose model call failed (it has a
/// `model_error` and no reply: nothing was decided, so there is nothing to score). A
/// step that logged its stages (the modular agent, `stages.log`) is read as logged;
/// otherwise it is the prompt agent's one stage: every element of the observation is
/// a candidate, and the action is the plan, the grounding and the choice at once.
pub fn step_logs(trajectory: &Trajectory) -> Vec<Option<StepLog>> {
    trajectory
        .steps
        .iter()
        .map(|step| (!model_failed(step)).then(|| step_log(step)))
        .collect()
}

fn model_failed(step: &Step) -> bool {
    step.model_error.as_ref().is_some_and(|e| !e.is_null())
}

fn step_log(step: &Step) -> StepLog {
    let logged = step
        .stages
        .as_ref()
        .and_then(|s| s.get("log"))
        .and_then(|log| serde_json::from_value::<StepLog>(log.clone()).ok());
    if let Some(log) = logged {
        return log;
    }
    let observation = step
        .observation
        .as_ref()
        .and_then(|o| o.text.as_deref())
        .unwrap_or_default();
    let executed = action_text(step)
        .and_then(|text| Action::parse(&text).ok())
        .map(|action| Triplet::of_action(&action, observation));
    StepLog {
        sections: vec![Element::all_in_observation(observation)],
        plan_target: executed.as_ref().and_then(|t| t.element.clone()),
        grounded: vec![executed.clone()],
        selected: executed.clone(),
        executed,
    }
}

/// The valid paths of a task: its reference trajectory and its alternatives, each
/// step as a triplet (a step that does not parse ends its path there).
pub fn paths_of(task: &Task) -> (Vec<Triplet>, Vec<Vec<Triplet>>) {
    let path = |steps: &[String]| -> Vec<Triplet> {
        steps
            .iter()
            .map_while(|s| Triplet::of_reference(s))
            .collect()
    };
    let reference = path(&task.reference_trajectory);
    let alternatives = task
        .alternative_trajectories
        .iter()
        .map(|steps| path(steps))
        .filter(|p| !p.is_empty())
        .collect();
    (reference, alternatives)
}
