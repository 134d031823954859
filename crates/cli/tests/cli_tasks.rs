//! `hopbench tasks`: what the runner lists before it runs anything.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use serde_json::Value;
use std::process::{Command, Output};

fn tasks(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hopbench"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .arg("tasks")
        .args(args)
        .output()
        .unwrap()
}

fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_folder_lists_ids_hops_and_the_file_name_to_send() {
    let out = tasks(&[
        "tests/fixtures/mmina/shopping",
        "tests/fixtures/hopbench/valid.json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let got: Vec<(String, String, u64)> = lines(&out)
        .iter()
        .map(|l| {
            (
                l["file_name"].as_str().unwrap().to_string(),
                l["id"].as_str().unwrap().to_string(),
                l["hops"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("shopping/1.json", "mmina/shopping/1", 1),
        ("shopping/2.json", "mmina/shopping/2", 1),
        ("shopping/3.json", "mmina/shopping/3", 1),
        ("shopping/10.json", "mmina/shopping/10", 1),
        ("hopbench/valid.json", "demo/red-tower-events", 2),
    ]
    .map(|(f, i, h)| (f.to_string(), i.to_string(), h));
    assert_eq!(got, want);
    assert_eq!(
        lines(&out)[0]["file"],
        "tests/fixtures/mmina/shopping/1.json"
    );
    assert_eq!(lines(&out)[0]["format"], "mmina");
    assert_eq!(
        lines(&out)[4]["start_urls"],
        serde_json::json!(["https://library.kiwix.org/viewer#wikipedia_en_all_maxi_2024-01/A/User%3AThe_other_Kiwix_guy/Landing"])
    );
}

/// The runner refuses replay for a task without reference steps before touching the
/// network, so the count must be right for both kinds of task.
#[test]
fn reference_steps_are_counted() {
    let dir = std::env::temp_dir().join(format!("hopbench-cli-tasks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let with = dir.join("with.json");
    std::fs::write(
        &with,
        r#"{"id": "r", "intent": "i", "start_urls": ["http://127.0.0.1:8600/"],
            "hops": [{"condition": {"kind": "url", "part": "path", "op": "contains", "value": "x"}}],
            "reference_trajectory": ["click {link 'X'}", "stop [done]"]}"#,
    )
    .unwrap();
    let out = tasks(&[
        with.to_str().unwrap(),
        "tests/fixtures/mmina/shopping/1.json",
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    let counts: Vec<u64> = lines(&out)
        .iter()
        .map(|l| l["reference_steps"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [2, 0]);
}

#[test]
fn a_bad_file_is_a_line_with_its_error_and_exit_status_1() {
    let out = tasks(&[
        "tests/fixtures/malformed/bad_json.json",
        "tests/fixtures/hopbench/valid.json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let l = lines(&out);
    assert_eq!(l.len(), 2);
    assert!(l[0].get("id").is_none());
    assert_eq!(
        l[0]["error"],
        "tests/fixtures/malformed/bad_json.json: not valid JSON: expected `,` or `}` (line 31, column 5)"
    );
    assert_eq!(l[1]["id"], "demo/red-tower-events");
}

#[test]
fn a_missing_path_is_a_usage_error() {
    let out = tasks(&["no/such/folder"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("tasks: path does not exist: no/such/folder")
    );
}

/// The runner lets its browser reach a task's own host names, whatever they resolve to
/// (a private name a task is about), and no other name that resolves to this machine.
#[test]
fn site_hosts_are_the_hosts_of_the_tasks_sites() {
    let dir = std::env::temp_dir().join(format!("hopbench-cli-hosts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hosts.json");
    std::fs::write(
        &file,
        r#"{"id": "h", "intent": "i", "start_urls": ["http://intranet.example:8080/a", "http://127.0.0.1:8600/"],
            "reference_sites": [{"label": "Wiki", "url": "http://intranet.example:8080/wiki"}],
            "hops": [{"condition": {"kind": "url", "op": "contains", "value": "http://shop.example/"}}]}"#,
    )
    .unwrap();
    let out = tasks(&[file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    let hosts = &lines(&out)[0]["site_hosts"];
    let mut hosts: Vec<&str> = hosts
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    hosts.sort_unstable();
    assert!(hosts.contains(&"intranet.example"), "{hosts:?}");
    assert!(hosts.contains(&"127.0.0.1"), "{hosts:?}");
    assert!(hosts.contains(&"shop.example"), "{hosts:?}");
}
