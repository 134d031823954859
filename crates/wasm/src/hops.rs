//! Hop tracking exports: the extension keeps a session's tracker as an opaque JSON
//! string in `chrome.storage.session` and passes it in and out of each call.
//!
//! Views (progress, verdict, outcome) cross as plain JS objects made from their JSON
//! (`js.rs`), so maps and `#[serde(flatten)]` structs such as `Event` are plain
//! objects that chrome.storage and `sendMessage` keep.

use super::js::{from_js, to_js};
use super::Thrown;
use hopbench::boundary::{TrackerFed, TrackerStarted};
use hopbench::judge::Judgement;
use hopbench::tracker::Tracker;
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};

/// JS numbers are f64; times are milliseconds since the session started.
fn ms(time_ms: f64) -> u64 {
    if time_ms.is_finite() && time_ms > 0.0 {
        time_ms as u64
    } else {
        0
    }
}

/// `{state, task: {id, intent, start_urls}, progress}` from a task file's text in any
/// supported format; `file_name` names it in errors (and gives MMInA its subset).
#[wasm_bindgen]
pub fn tracker_start(task_text: &str, file_name: &str) -> Result<JsValue, Thrown> {
    let tracker = Tracker::from_task_text(task_text, file_name)?;
    to_js(&TrackerStarted {
        state: tracker.to_json()?,
        task: &tracker.task,
        progress: tracker.progress(),
    })
}

/// Feeds a committed main-frame navigation; `{state, outcome, progress}`.
#[wasm_bindgen]
pub fn tracker_navigation(
    state: &str,
    step: u32,
    time_ms: f64,
    tab: u32,
    url: &str,
) -> Result<JsValue, Thrown> {
    let mut tracker = Tracker::from_json(state)?;
    let outcome = tracker.navigation(step, ms(time_ms), tab, url)?;
    fed(&tracker, outcome)
}

/// The judge questions the answer `text` raises now: `[{answer, reference}]`
/// (empty unless a fuzzy reference applies).
#[wasm_bindgen]
pub fn tracker_judge_requests(state: &str, text: &str) -> Result<JsValue, Thrown> {
    let tracker = Tracker::from_json(state)?;
    to_js(&tracker.judge_requests(text))
}

/// Feeds the answer of `stop [answer]` with the judgements gathered for it
/// (`undefined` or `null` for none); `{state, outcome, progress}`.
#[wasm_bindgen]
pub fn tracker_answer(
    state: &str,
    step: u32,
    time_ms: f64,
    text: &str,
    judgements: JsValue,
) -> Result<JsValue, Thrown> {
    let mut tracker = Tracker::from_json(state)?;
    let judgements: Vec<Judgement> = if judgements.is_undefined() || judgements.is_null() {
        Vec::new()
    } else {
        from_js(&judgements, "judgements")
            .map_err(|e| Thrown::input(format!("invalid judgements: {e}")))?
    };
    let outcome = tracker.answer(step, ms(time_ms), text, judgements)?;
    fed(&tracker, outcome)
}

fn fed(tracker: &Tracker, outcome: hopbench::evaluator::Outcome) -> Result<JsValue, Thrown> {
    to_js(&TrackerFed {
        state: tracker.to_json()?,
        outcome,
        progress: tracker.progress(),
    })
}

/// `{done, total, at_end, current, hops: [{index, description, state, ...}]}`.
#[wasm_bindgen]
pub fn tracker_progress(state: &str) -> Result<JsValue, Thrown> {
    let tracker = Tracker::from_json(state)?;
    to_js(&tracker.progress())
}

/// `{passed, hops_done, hops_total, hop_steps, answer, reason}` if the run ended now.
#[wasm_bindgen]
pub fn tracker_verdict(state: &str) -> Result<JsValue, Thrown> {
    let tracker = Tracker::from_json(state)?;
    to_js(&tracker.verdict())
}
