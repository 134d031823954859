//! `extension/core-terms.js` is generated from the core's types (`hopbench terms`) and
//! checked in, because the runner's unit tests import it before anything is built. This
//! test keeps it current, as `task_schema` does for the task schema.
#![allow(
    clippy::unwrap_used,
    reason = "test helpers fail the test on a missing file"
)]

use hopbench::terms::core_terms_module;
use std::path::Path;

#[test]
fn the_checked_in_terms_are_the_generated_ones() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../extension/core-terms.js");
    let file = std::fs::read_to_string(path).unwrap();
    assert!(
        file == core_terms_module(),
        "extension/core-terms.js is out of date: run \
         `cargo run -p hopbench-cli -- terms --out extension/core-terms.js` (or ./build.sh terms)"
    );
}
