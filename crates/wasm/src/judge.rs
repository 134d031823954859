//! Judge exports: the worker asks the tracker which questions an answer raises
//! (`tracker_judge_requests` in `hops.rs`), builds each question's model request
//! here, sends it with `model_call`, and turns what came back into a judgement; the
//! judgements then go with the answer to `tracker_answer`. The core does the
//! wording and the reading; the worker only carries things.

use super::js::{from_js, to_js};
use super::Thrown;
use hopbench::judge::{judge_request, JudgeRequest, Judgement};
use hopbench::provider::CallOutcome;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};

fn decode<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, Thrown> {
    from_js(&value, what).map_err(|e| Thrown::input(format!("invalid {what}: {e}")))
}

/// `judge_prompt({answer, reference}, temperature, max_tokens)` → a `ModelRequest`
/// for `model_call`.
#[wasm_bindgen]
pub fn judge_prompt(
    request: JsValue,
    temperature: f32,
    max_tokens: u32,
) -> Result<JsValue, Thrown> {
    let request: JudgeRequest = decode(request, "judge request")?;
    to_js(&judge_request(&request, temperature, max_tokens))
}

/// `judge_outcome(request, by, outcome)` → the judgement: `model_call`'s outcome
/// read (yes / no / why there is no verdict); `by` names the judge model.
#[wasm_bindgen]
pub fn judge_outcome(request: JsValue, by: &str, outcome: JsValue) -> Result<JsValue, Thrown> {
    let request: JudgeRequest = decode(request, "judge request")?;
    let outcome: CallOutcome = decode(outcome, "call outcome")?;
    to_js(&Judgement::from_outcome(&request, by, &outcome))
}

/// `judge_containment(request)` → the judgement of the fallback without a model.
#[wasm_bindgen]
pub fn judge_containment(request: JsValue) -> Result<JsValue, Thrown> {
    let request: JudgeRequest = decode(request, "judge request")?;
    to_js(&Judgement::by_containment(&request))
}
