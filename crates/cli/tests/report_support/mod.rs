//! What the `hopbench report` tests share: running the command, the fixture run
//! folders (tests/fixtures/report/) and writable copies of them.
#![allow(
    dead_code,
    reason = "each test file that includes it uses a part of it"
)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn hopbench(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hopbench"))
        .arg("report")
        .args(args)
        .output()
        .unwrap()
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/report")
        .join(name)
}

/// An empty folder of this test process (`name` may contain `/`).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hopbench-report-{}-{}",
        std::process::id(),
        name.replace('/', "-")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of a fixture folder in a fresh temporary folder, so the report can be
/// written into it, as `hopbench report DIR` does by default.
pub fn copy_of(name: &str) -> PathBuf {
    let to = temp_dir(name);
    copy_dir(&fixture(name), &to);
    to
}

/// Copies `from` with its subfolders into `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}
