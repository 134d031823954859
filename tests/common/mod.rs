//! Helpers shared by integration tests.

use std::path::PathBuf;

/// The real MMInA task 17, from the project's shared data folder: `../shared` beside the
/// repository (as on developer machines and in CI), or `$HOPBENCH_SHARED` if set.
pub fn task17_path() -> PathBuf {
    let shared = std::env::var_os("HOPBENCH_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(shared_beside_repository);
    let path = shared.join("data/mmina-task-17.json");
    assert!(
        path.is_file(),
        "{} is missing: these tests need the shared data folder beside the repository \
         (or HOPBENCH_SHARED pointing at it)",
        path.display()
    );
    path
}

/// `../shared` beside the repository. Tests of the workspace's member crates run from
/// `crates/<name>`, so the repository is found by walking up from the crate.
fn shared_beside_repository() -> PathBuf {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    crate_dir
        .ancestors()
        .map(|dir| dir.join("../shared"))
        .find(|shared| shared.join("data").is_dir())
        .unwrap_or_else(|| crate_dir.join("../shared"))
}
