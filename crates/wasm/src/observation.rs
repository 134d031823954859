//! Observation exports: the worker passes the CDP results as one JSON string (one
//! `JSON.stringify` in JS, one borrowed serde_json parse here: cheaper than converting
//! a JS object graph of many thousand nodes field by field) and gets a JS object back.

use hopbench::boundary::ObserveResult;
use hopbench::observation::{observe_json, IdRegistry, ObserveOptions};
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};

use super::js::to_js;
use super::Thrown;

/// `observe(inputJson, registryJson?, optionsJson?)` → (plain objects from JSON, so
/// `None` is `null`: `targetId: null` = the tab itself, as in the stored registry)
/// `{ text, tree, images, marks, stats, registry }` (see `observation::Observation`).
#[wasm_bindgen]
pub fn observe(
    input_json: &str,
    registry_json: Option<String>,
    options_json: Option<String>,
) -> Result<JsValue, Thrown> {
    let mut registry = match registry_json.as_deref() {
        Some(json) => IdRegistry::from_json(json)?,
        None => IdRegistry::default(),
    };
    let options: ObserveOptions = match options_json.as_deref() {
        Some(json) => hopbench::json_read::from_str(json)
            .map_err(|e| hopbench::observation::ObservationError::BadOptions(e.to_string()))?,
        None => ObserveOptions::default(),
    };
    let observation = observe_json(input_json, &mut registry, &options)?;
    let result = ObserveResult {
        observation: &observation,
        registry: &registry,
    };
    to_js(&result)
}

/// `resolve_element(registryJson, id)` → `{ targetId, backendNodeId }`, or an error
/// naming the id when no element has it.
#[wasm_bindgen]
pub fn resolve_element(registry_json: &str, id: u32) -> Result<JsValue, Thrown> {
    let registry = IdRegistry::from_json(registry_json)?;
    let element = registry.resolve(id)?;
    to_js(&element)
}
