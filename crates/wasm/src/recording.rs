//! Exports for the run views and human sessions: an action in words, a recorded
//! trajectory as a `reference_trajectory`, and the id an element already has.

use super::js::{from_js, to_js};
use super::Thrown;
use hopbench::action::Action;
use hopbench::agent::{action_in_words, reference_trajectory, RecordedStep};
use hopbench::metrics::{compare, Side};
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};

/// `action_words(actionText, observationText)` → `{kind, element, words}`; an action
/// that does not parse is an error with the parser's message.
#[wasm_bindgen]
pub fn action_words(action_text: &str, observation: &str) -> Result<JsValue, Thrown> {
    let action = Action::parse(action_text)?;
    to_js(&action_in_words(&action, observation))
}

/// `reference_of(steps)` with `steps = [{action, observation}]` →
/// `{reference: [string], problems: [{step, message}]}`.
#[wasm_bindgen]
pub fn reference_of(steps: JsValue) -> Result<JsValue, Thrown> {
    let steps: Vec<RecordedStep> = from_js(&steps, "steps")
        .map_err(|e| Thrown::input(format!("reference_of takes [{{action, observation}}]: {e}")))?;
    to_js(&reference_trajectory(&steps))
}

/// `compare_runs(a, b)` with each `{name, progress, passed, ended}` → `{hops: [{hop,
/// description, a, b}], diverged_at, summary}`: two runs of one task side by side.
#[wasm_bindgen]
pub fn compare_runs(a: JsValue, b: JsValue) -> Result<JsValue, Thrown> {
    let side = |v: JsValue, which: &str| -> Result<Side, Thrown> {
        from_js(&v, "run").map_err(|e| {
            Thrown::input(format!(
                "compare_runs: run {which} is not {{name, progress, passed, ended}}: {e}"
            ))
        })
    };
    let comparison = compare(&side(a, "a")?, &side(b, "b")?).map_err(Thrown::input)?;
    to_js(&comparison)
}

/// `demonstration_record(taskText, fileName, steps, passed, hopSteps)` with `steps =
/// [{action, observation, url?}]` → the memory record of a person's session that
/// ended with their answer (`by_person: true`; neither the answer nor the task's
/// conditions are kept), so a person's demonstrations seed procedural memory.
#[wasm_bindgen]
pub fn demonstration_record(
    task_text: &str,
    file_name: &str,
    steps: JsValue,
    passed: bool,
    hop_steps: JsValue,
) -> Result<JsValue, Thrown> {
    let task = hopbench::import::import_str(task_text, std::path::Path::new(file_name)).outcome?;
    let steps: Vec<RecordedStep> = from_js(&steps, "steps").map_err(|e| {
        Thrown::input(format!(
            "demonstration_record takes [{{action, observation, url?}}]: {e}"
        ))
    })?;
    let hop_steps: Vec<u32> = from_js(&hop_steps, "hop_steps")
        .map_err(|e| Thrown::input(format!("demonstration_record: hop steps: {e}")))?;
    to_js(&hopbench::memory::MemoryRecord::of_demonstration(
        &task, &steps, passed, hop_steps,
    ))
}
