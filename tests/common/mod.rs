//! Helpers shared by integration tests.

use std::path::PathBuf;

/// The real MMInA task 17, from the project's shared data folder: `../shared` beside the
/// repository (as on developer machines and in CI), or `$HOPBENCH_SHARED` if set.
pub fn task17_path() -> PathBuf {
    let shared = std::env::var_os("HOPBENCH_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let path = shared.join("data/mmina-task-17.json");
    assert!(
        path.is_file(),
        "{} is missing: these tests need the shared data folder beside the repository \
         (or HOPBENCH_SHARED pointing at it)",
        path.display()
    );
    path
}
