//! Observation exports: the worker passes the CDP results as one JSON string (one
//! `JSON.stringify` in JS, one borrowed serde_json parse here: cheaper than converting
//! a JS object graph of many thousand nodes field by field) and gets a JS object back.

use hopbench::boundary::ObserveResult;
use hopbench::observation::{observe_json, IdRegistry, ObserveOptions};
use wasm_bindgen::prelude::{wasm_bindgen, JsError, JsValue};

use super::js::to_js;
use super::to_js_error;

/// `observe(inputJson, registryJson?, optionsJson?)` → (plain objects from JSON, so
/// `None` is `null`: `targetId: null` = the tab itself, as in the stored registry)
/// `{ text, tree, images, marks, stats, registry }` (see `observation::Observation`).
#[wasm_bindgen]
pub fn observe(
    input_json: &str,
    registry_json: Option<String>,
    options_json: Option<String>,
) -> Result<JsValue, JsError> {
    let mut registry = match registry_json.as_deref() {
        Some(json) => IdRegistry::from_json(json).map_err(to_js_error)?,
        None => IdRegistry::default(),
    };
    let options: ObserveOptions = match options_json.as_deref() {
        Some(json) => hopbench::json_read::from_str(json).map_err(|e| {
            to_js_error(hopbench::observation::ObservationError::BadOptions(
                e.to_string(),
            ))
        })?,
        None => ObserveOptions::default(),
    };
    let observation = observe_json(input_json, &mut registry, &options).map_err(to_js_error)?;
    let result = ObserveResult {
        observation: &observation,
        registry: &registry,
    };
    to_js(&result)
}

/// `resolve_element(registryJson, id)` → `{ targetId, backendNodeId }`, or an error
/// naming the id when no element has it.
#[wasm_bindgen]
pub fn resolve_element(registry_json: &str, id: u32) -> Result<JsValue, JsError> {
    let registry = IdRegistry::from_json(registry_json).map_err(to_js_error)?;
    let element = registry.resolve(id).map_err(to_js_error)?;
    to_js(&element)
}
