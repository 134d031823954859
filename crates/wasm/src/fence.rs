//! Site fence exports: which origins a run may open (see `hopbench::fence`). The lists
//! cross as JSON text (`{allow: [...], deny: [...]}`); results as plain JS objects.

use super::js::to_js;
use super::Thrown;
use hopbench::boundary::CoreErrorKind;
use hopbench::fence::{fence_for, list_problems, SiteLists};
use hopbench::import::import_str;
use std::path::Path;
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};

fn lists_from(lists_json: &str) -> Result<SiteLists, Thrown> {
    hopbench::json_read::from_str(lists_json).map_err(|e| {
        Thrown::new(
            CoreErrorKind::Config,
            format!("site lists are not valid: {e}"),
        )
    })
}

/// `site_fence(taskText, fileName, listsJson)` → `{origins: [{origin, reasons}],
/// denied}` for the task in any supported format. Errors name the task problem or
/// each bad list line (`sites.allow: line 2: ...`).
#[wasm_bindgen]
pub fn site_fence(task_text: &str, file_name: &str, lists_json: &str) -> Result<JsValue, Thrown> {
    let task = import_str(task_text, Path::new(file_name)).outcome?;
    let fence = fence_for(&task, &lists_from(lists_json)?).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        Thrown::new(
            CoreErrorKind::Config,
            format!(
                "the site lists in Settings have problems: {}",
                lines.join("; ")
            ),
        )
    })?;
    to_js(&fence)
}

/// `site_list_problems(listsJson)` → `[{path, message}]`, empty when every line is
/// an origin, a host or ignorable.
#[wasm_bindgen]
pub fn site_list_problems(lists_json: &str) -> Result<JsValue, Thrown> {
    to_js(&list_problems(&lists_from(lists_json)?))
}
