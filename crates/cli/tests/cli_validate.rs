//! `hopbench validate` run as a user would: the built binary, its output and exit status.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

// The shared helpers live with the core's tests at the repository root.
#[path = "../../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn hopbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hopbench"))
        .args(args)
        .output()
        .unwrap()
}

fn task17() -> PathBuf {
    common::task17_path()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh folder under the system temp dir, unique to this test process and name.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hopbench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn task17_is_ok() {
    let path = task17();
    let out = hopbench(&["validate", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("OK   {}  (mmina, 2 hops)\n", path.display())),
        "{text}"
    );
    assert!(text.ends_with("1 file: 1 ok, 0 failed\n"), "{text}");
}

#[test]
fn a_malformed_copy_names_the_field_and_fails() {
    let original = std::fs::read_to_string(task17()).unwrap();
    let broken = original.replace("\"string_match\"", "\"html_match\"");
    assert_ne!(original, broken);
    let dir = temp_dir("malformed");
    std::fs::write(dir.join("17.json"), &original).unwrap();
    std::fs::write(dir.join("18.json"), broken).unwrap();

    let out = hopbench(&["validate", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let bad = dir.join("18.json");
    assert!(
        text.contains(&format!(
            "FAIL {}\n  eval.eval_types[0]: unknown eval type \"html_match\"",
            bad.display()
        )),
        "{text}"
    );
    assert!(text.contains(&format!("OK   {}", dir.join("17.json").display())));
    assert!(text.ends_with("2 files: 1 ok, 1 failed\n"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn notes_are_printed_under_the_file() {
    let fixture = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/mmina/normal/2.json");
    let out = hopbench(&["validate", fixture.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("\n  note: hop 2 (\"car\""),
        "{}",
        stdout(&out)
    );
}

#[test]
fn usage_errors_exit_2_and_say_why() {
    let none = hopbench(&[]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("usage: hopbench"));

    let unknown = hopbench(&["frobnicate"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("unknown command \"frobnicate\""));

    let no_paths = hopbench(&["validate"]);
    assert_eq!(no_paths.status.code(), Some(2));
    assert!(stderr(&no_paths).contains("validate: give at least one task file or folder"));

    let missing = hopbench(&["validate", "/no/such/tasks.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("path does not exist: /no/such/tasks.json"));
    assert!(stdout(&missing).is_empty());
}

#[test]
fn help_lists_the_commands() {
    let out = hopbench(&["help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("validate PATH..."));
    assert!(text.contains("exit status"));
}

#[test]
fn each_command_has_its_own_help_and_names_a_bad_option() {
    for args in [
        &["sandbox", "--help"][..],
        &["help", "sandbox"],
        &["sandbox", "-h"],
    ] {
        let out = hopbench(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(
            stdout(&out).starts_with(
                "usage: hopbench sandbox [--port-base N] [--host ADDR] [--parent-pid PID]\n"
            ),
            "{args:?}: {}",
            stdout(&out)
        );
    }

    let bad = hopbench(&["validate", "--strict", "tasks"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("validate: unknown option --strict"));
    assert!(stderr(&bad).contains("usage: hopbench validate PATH..."));

    let value = hopbench(&["bench-memory", "--k=0"]);
    assert_eq!(value.status.code(), Some(2));
    assert!(stderr(&value).contains("bench-memory: --k: \"0\" is not a whole number from 1 to 10"));
    assert!(stdout(&value).is_empty());
}
