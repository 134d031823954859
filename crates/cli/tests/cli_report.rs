//! `hopbench report` run as a user would, on hand-made results files
//! (tests/fixtures/report/). The expected numbers are worked out by hand below.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

mod report_support;

use report_support::{copy_dir, fixture, hopbench, read_json, temp_dir, text};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn assert_close(actual: &Value, expected: f64) {
    let a = actual
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {actual}"));
    assert!((a - expected).abs() < 1e-12, "expected {expected}, got {a}");
}

// tests/fixtures/report/run/results.jsonl, by hand:
//
// task  hops  done  verdict  steps  tokens in/out  time
// t1    1     1     PASS     4      1000/100       2000
// t2    1     0     FAIL     7      2000/200       3000
// t3    3     3     PASS     3      3000/300       9000
// t4    3     1     FAIL     9      1500/150       6000
// t5    2     0     ERROR    0      0/0             500
// t6    5     4     FAIL     20     5000/500      15000
//
// bucket    tasks passed hops      hop SR        task SR
// 1 hop       2     1    1/2       50.00         50.00
// 2-4 hops    3     1    4/8       50.00         33.33  (t3, t4, t5)
// 5+ hops     1     0    4/5       80.00          0.00
// overall     6     2    9/15      60.00         33.33
//
// positions (tasks that completed at least hop j):
// k=1: 1 of 2 -> 50.00
// k=2: t5 -> 0, 0
// k=3: t3 3, t4 1 -> [2,1,1] of 2 -> 100, 50, 50
// k=5: t6 4 -> [1,1,1,1,0] of 1 -> 100, 100, 100, 100, 0
//
// totals: steps 43, tokens 12,500 in / 1,250 out, time 35,500 ms = 35.5 s
#[test]
fn summary_json_has_the_numbers_worked_by_hand() {
    let dir = temp_dir("summary");
    copy_dir(&fixture("run"), &dir);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let s = read_json(&dir.join("summary.json"));
    assert_eq!(
        s["counts"],
        serde_json::json!({"tasks": 6, "pass": 2, "fail": 3, "error": 1})
    );
    // The fixture's lines are from before cached tokens were recorded: none cached.
    assert_eq!(
        s["totals"],
        serde_json::json!({"hops_total": 15, "hops_completed": 9, "steps": 43,
            "tokens": {"input": 12500, "output": 1250, "cached_input": 0},
            "cached_share": 0.0, "time_ms": 35500})
    );
    let buckets = s["buckets"].as_array().unwrap();
    let got: Vec<(String, u64, u64, u64, u64)> = buckets
        .iter()
        .map(|b| {
            (
                b["bucket"].as_str().unwrap().to_string(),
                b["tasks"].as_u64().unwrap(),
                b["tasks_passed"].as_u64().unwrap(),
                b["hops_completed"].as_u64().unwrap(),
                b["hops_total"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("one_hop", 2, 1, 1, 2),
        ("two_to_four", 3, 1, 4, 8),
        ("five_plus", 1, 0, 4, 5),
        ("overall", 6, 2, 9, 15),
    ]
    .map(|(b, t, p, d, h)| (b.to_string(), t, p, d, h));
    assert_eq!(got, want);
    let rates = [(0.5, 0.5), (0.5, 1.0 / 3.0), (0.8, 0.0), (0.6, 1.0 / 3.0)];
    for (b, (hop_sr, task_sr)) in buckets.iter().zip(rates) {
        assert_close(&b["hop_sr"], hop_sr);
        assert_close(&b["task_sr"], task_sr);
    }
    let positions: Vec<(u64, u64, Value)> = s["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["hops"].as_u64().unwrap(),
                p["tasks"].as_u64().unwrap(),
                p["reached"].clone(),
            )
        })
        .collect();
    assert_eq!(
        positions,
        [
            (1, 2, serde_json::json!([1])),
            (2, 1, serde_json::json!([0, 0])),
            (3, 2, serde_json::json!([2, 1, 1])),
            (5, 1, serde_json::json!([1, 1, 1, 1, 0])),
        ]
    );
    assert_eq!(s["notes"], serde_json::json!([]));

    // The same numbers are printed as Markdown.
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("6 tasks: 2 PASS, 3 FAIL, 1 ERROR\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| 2-4 hops | 3 | 50.00 | 33.33 |\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| 5 hops (1 task) | 100.00 | 100.00 | 100.00 | 100.00 | 0.00 |"),
        "{stdout}"
    );
    assert!(
        stdout.contains("report.html (1 trajectory page)"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn report_html_shows_the_same_numbers_and_escapes_run_data() {
    let dir = temp_dir("html");
    copy_dir(&fixture("run"), &dir);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();

    for row in [
        "<tr><td>1 hop</td><td class=\"num\">2</td><td class=\"num\">1 / 2</td><td class=\"num\">50.00</td><td class=\"num\">50.00</td></tr>",
        "<tr><td>2-4 hops</td><td class=\"num\">3</td><td class=\"num\">4 / 8</td><td class=\"num\">50.00</td><td class=\"num\">33.33</td></tr>",
        "<tr><td>5+ hops</td><td class=\"num\">1</td><td class=\"num\">4 / 5</td><td class=\"num\">80.00</td><td class=\"num\">0.00</td></tr>",
        "<tr><td>overall</td><td class=\"num\">6</td><td class=\"num\">9 / 15</td><td class=\"num\">60.00</td><td class=\"num\">33.33</td></tr>",
    ] {
        assert!(html.contains(row), "missing {row}");
    }
    // Per-position row of the 3-hop tasks: 2/2, 1/2, 1/2, then blanks up to hop 5.
    assert!(html.contains(
        "<tr><td>3 hops (2 tasks)</td><td class=\"num\" title=\"2/2\">100.00</td>\
         <td class=\"num\" title=\"1/2\">50.00</td><td class=\"num\" title=\"1/2\">50.00</td>\
         <td></td><td></td></tr>"
    ));
    assert!(html.contains("<th class=\"num\">hop 5</th>"));
    // The chart: one series per task length, a point per position.
    assert!(html.contains("<svg id=\"position-chart\""));
    assert_eq!(html.matches("<g class=\"series\"").count(), 4);
    assert_eq!(html.matches("<circle ").count(), 1 + 2 + 3 + 5);
    assert!(html.contains("<title>5 hops (1 task): hop 5: 0.00% (0/1)</title>"));
    // Counts and totals.
    assert!(html.contains("<b>6</b> tasks"));
    assert!(html.contains("hops 9/15 · 43 steps · tokens 12,500 in / 1,250 out · 35.5 s"));
    // Task rows: linked when a trajectory exists, escaped everywhere.
    assert!(html.contains("<a href=\"trajectories/suite~2Ft3.html\">suite/t3</a>"));
    assert!(html.contains("suite/t1 <span class=\"muted small\">(no trajectory)</span>"));
    assert!(html.contains("Tokyo &amp; &quot;Kyoto&quot; &lt;b&gt;"));
    assert!(html.contains("http://127.0.0.1:9/ &lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.contains("<script"), "unescaped markup in report.html");
    assert!(html.contains("<td class=\"ERROR\">ERROR</td>"));
    assert!(html.contains("early stop: the last 3 actions were identical"));
    // Self-contained: nothing is fetched.
    assert!(!html.contains("http-equiv=\"refresh\""));
    assert!(!html.contains("<link") && !html.contains("src=\"http"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn trajectory_page_shows_each_step_escaped_and_without_the_key() {
    let dir = temp_dir("trajectory");
    copy_dir(&fixture("run"), &dir);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("trajectories/suite~2Ft3.html")).unwrap();
    assert_eq!(page.matches("<section class=\"step\"").count(), 3);
    assert!(page.contains("<img class=\"shot\" src=\"suite~2Ft3-m1.png\""));
    assert!(page.contains("<img src=\"suite~2Ft3-m2.png\" alt=\"viewport image\">"));
    assert!(
        page.contains("<details class=\"observation\"><summary>Observation (4 lines)</summary>")
    );
    assert!(page.contains("StaticText &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39;"));
    assert!(page.contains("The tower is &lt;red&gt;."));
    assert!(page.contains("<dt>action</dt><dd>goto [http://127.0.0.1:8106/?city=tokyo]</dd>"));
    assert!(page
        .contains("<dt>hop progress</dt><dd>1/3 hops done; working on: Open the events site</dd>"));
    assert!(page.contains("3/3 hops done; all hops complete"));
    assert!(page.contains("<p class=\"err\">no element [9] in the last observation</p>"));
    assert!(page.contains("hop 1 at step 1, hop 2 at step 2, hop 3 at step 3"));
    assert!(page.contains(
        "<p class=\"err\">model call failed: server: 503 &lt;Service Unavailable&gt; (try again later)</p>"
    ));
    assert!(page.contains("<a href=\"../report.html\">"));
    assert!(!page.contains("<script"));
    assert!(
        !page.contains("sk-should-never-show"),
        "the API key reached the page"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One task's folder: its result line and `trajectory` as the runner writes them.
fn write_run(dir: &Path, id: &str, stem: &str, trajectory: &Value) {
    std::fs::create_dir_all(dir.join("trajectories")).unwrap();
    let line = serde_json::json!({"id": id, "hops_total": 1, "hops_completed": 0,
        "hop_steps": [null], "verdict": "FAIL", "answer": null, "answer_score": null,
        "steps": 3, "tokens": {"input": 0, "output": 0}, "time_ms": 10, "error": null,
        "reason": "replay ended"});
    std::fs::write(dir.join("results.jsonl"), format!("{line}\n")).unwrap();
    std::fs::write(
        dir.join(format!("trajectories/{stem}.json")),
        trajectory.to_string(),
    )
    .unwrap();
}

#[test]
fn trajectory_page_lists_the_timings_a_step_has_and_leaves_out_the_missing_ones() {
    let dir = temp_dir("timings");
    let trajectory = serde_json::json!({
        "format": "hopbench-trajectory", "version": 2,
        "steps": [{"step": 1, "timings": {"observe_ms": 41.5, "model_ms": null,
            "act_ms": 12, "judge_ms": null, "settle_signal_ms": 30}}],
        "media": {},
    });
    write_run(&dir, "timed", "timed", &trajectory);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("trajectories/timed.html")).unwrap();
    assert!(
        page.contains("act_ms 12 · observe_ms 41.5 · settle_signal_ms 30"),
        "{page}"
    );
    assert!(!page.contains("model_ms"), "{page}");
    assert!(!page.contains("judge_ms"), "{page}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn trajectory_page_shows_the_readers_screenshot_and_every_image_of_each_step() {
    let dir = temp_dir("pictures");
    let trajectory = serde_json::json!({
        "format": "hopbench-trajectory", "version": 2,
        "steps": [
            {"step": 1, "observation": {"images": ["r/1/image-17", "r/1/image-48"],
                "screenshot": null, "page_screenshot": "r/1/page"}},
            // The same element at the next step: a picture of its own.
            {"step": 2, "observation": {"images": ["r/2/image-17"], "screenshot": null,
                "page_screenshot": "r/2/page"}},
        ],
        "media": {
            "r/1/image-17": {"step": 1, "kind": "image", "file": "p-1.png"},
            "r/1/image-48": {"step": 1, "kind": "image", "file": "p-2.png"},
            "r/1/page": {"step": 1, "kind": "page_screenshot", "file": "p-3.png"},
            "r/2/image-17": {"step": 2, "kind": "image", "file": "p-4.png"},
            "r/2/page": {"step": 2, "kind": "page_screenshot", "file": "p-5.png"},
        },
    });
    write_run(&dir, "pictures", "pictures", &trajectory);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("trajectories/pictures.html")).unwrap();
    let steps: Vec<&str> = page.split("<section class=\"step\"").skip(1).collect();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0].matches("<img").count(), 3, "{}", steps[0]);
    assert_eq!(steps[1].matches("<img").count(), 2, "{}", steps[1]);
    assert!(steps[0].contains("<img class=\"shot\" src=\"p-3.png\" alt=\"screenshot of step 1\">"));
    assert!(steps[0].contains("(not shown to the model)"));
    assert!(steps[0].contains("<img src=\"p-1.png\" alt=\"viewport image\"><img src=\"p-2.png\""));
    assert!(steps[1].contains("<img src=\"p-4.png\" alt=\"viewport image\">"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_version_1_trajectory_marks_the_pictures_it_lost_and_shows_no_other_steps() {
    let dir = temp_dir("legacy");
    // Version 1 keyed images by element id: element 17 appeared at steps 1 and 3, and
    // step 3's picture replaced step 1's; 48 was taken over by another run.
    let trajectory = serde_json::json!({
        "format": "hopbench-trajectory", "version": 1,
        "steps": [
            {"step": 1, "observation": {"images": [17, 48], "screenshot": null}},
            {"step": 2, "observation": {"images": [{"lost": "overwritten (store upgrade)", "element": 5}]}},
            {"step": 3, "observation": {"images": [17], "screenshot": null}},
        ],
        "media": {"17": {"runId": "r", "step": 3, "kind": "image", "elementId": 17, "file": "old-1.png"}},
    });
    write_run(&dir, "legacy", "legacy", &trajectory);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("trajectories/legacy.html")).unwrap();
    let steps: Vec<&str> = page.split("<section class=\"step\"").skip(1).collect();
    assert_eq!(
        steps[0].matches("<img").count(),
        0,
        "step 3's picture is not step 1's"
    );
    assert!(steps[0].contains("image of element [17] lost: this picture was overwritten"));
    assert!(steps[0].contains("image of element [48] lost: "));
    assert!(steps[1].contains("image of element [5] lost: overwritten (store upgrade)"));
    assert_eq!(steps[2].matches("<img src=\"old-1.png\"").count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

// Shards: shard-a holds t1, t2 (FAIL), t3; shard-b holds t4, t5, t6 and a re-run of
// t2 that passed (1/1). The later line wins, so by hand:
// 1 hop: t1, t2 both pass -> hops 2/2, tasks 2/2; overall hops 10/15, tasks 3/6.
#[test]
fn shards_merge_and_the_later_duplicate_wins_with_a_note() {
    let out_dir = temp_dir("shards");
    let (a, b) = (fixture("shard-a"), fixture("shard-b"));
    let out = Command::new(env!("CARGO_BIN_EXE_hopbench"))
        .arg("report")
        .args([&a, &b])
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = read_json(&out_dir.join("summary.json"));
    assert_eq!(
        s["counts"],
        serde_json::json!({"tasks": 6, "pass": 3, "fail": 2, "error": 1})
    );
    assert_eq!(s["buckets"][0]["hops_completed"], 2);
    assert_eq!(s["buckets"][0]["tasks_passed"], 2);
    assert_close(&s["buckets"][3]["hop_sr"], 10.0 / 15.0);
    assert_close(&s["buckets"][3]["task_sr"], 0.5);
    let note = format!(
        "task \"suite/t2\" appears more than once: {}:4 replaces {}:2",
        b.join("results.jsonl").display(),
        a.join("results.jsonl").display()
    );
    assert_eq!(s["notes"], serde_json::json!([note]));
    assert!(text(&out.stdout).contains(&format!("note: {note}")));
    assert_eq!(s["sources"][1]["lines"], 4);
    // Tasks are listed in id order although the shards interleave.
    let html = std::fs::read_to_string(out_dir.join("report.html")).unwrap();
    let order: Vec<usize> = (1..=6)
        .map(|i| html.find(&format!("data-id=\"suite/t{i}\"")).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    // Nothing was written into the shard folders.
    assert!(!a.join("summary.json").exists() && !b.join("report.html").exists());
    std::fs::remove_dir_all(&out_dir).unwrap();
}

// tests/fixtures/report/retried: a runner's lines with retries, by hand. Each task's
// last attempt counts:
//
// task  attempts                                   last     hops  steps  tokens  time
// t1    ERROR infrastructure (browser died), PASS   PASS     2/2   5       0/0   6000
// t2    ERROR infrastructure (timeout), FAIL        FAIL     0/1   9     900/90  9000
// t3    PASS                                        PASS     1/1   2       0/0   2000
// t4    ERROR run (start URL unreachable)           ERROR    0/1   0       0/0     10
//
// counts 4: 2 PASS, 1 FAIL, 1 ERROR; hops 3/5; steps 16; time 17,010 ms. Retried: t1
// and t2, one earlier attempt each, both infrastructure errors. t1's two attempts each
// have a trajectory (suite~2Ft1.json with 3 steps, suite~2Ft1.attempt-2.json with 5).
#[test]
fn retried_tasks_count_their_last_attempt_and_keep_the_earlier_ones() {
    let dir = temp_dir("retried");
    copy_dir(&fixture("retried"), &dir);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = read_json(&dir.join("summary.json"));
    assert_eq!(
        s["counts"],
        serde_json::json!({"tasks": 4, "pass": 2, "fail": 1, "error": 1})
    );
    assert_eq!(s["totals"]["hops_completed"], 3);
    assert_eq!(s["totals"]["steps"], 16);
    assert_eq!(s["totals"]["time_ms"], 17_010);
    assert_eq!(s["notes"], serde_json::json!([]));
    let retries = &s["retries"];
    assert_eq!(
        (
            &retries["tasks"],
            &retries["infrastructure"],
            &retries["run"],
            &retries["other"]
        ),
        (&2.into(), &2.into(), &0.into(), &0.into())
    );
    let earlier: Vec<(String, u64, String)> = retries["earlier_attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["id"].as_str().unwrap().to_string(),
                a["attempt"].as_u64().unwrap(),
                a["error"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(earlier.len(), 2);
    assert_eq!((earlier[0].0.as_str(), earlier[0].1), ("suite/t1", 1));
    assert!(earlier[0].2.starts_with("the browser (pid 4242) died"));
    assert_eq!((earlier[1].0.as_str(), earlier[1].1), ("suite/t2", 1));
    assert!(earlier[1].2.starts_with("timed out after 60 s"));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "4 tasks: 2 PASS, 1 FAIL, 1 ERROR\n2 tasks retried: 2 earlier attempts \
             (2 infrastructure errors); counted: each task's last attempt\n"
        ),
        "{stdout}"
    );

    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    // The task row shows the attempt that counts and links to its trajectory.
    assert!(html.contains("<a href=\"trajectories/suite~2Ft1.attempt-2.html\">suite/t1</a>"));
    assert!(html
        .contains("<td class=\"PASS\">PASS <span class=\"muted small\">(attempt 2)</span></td>"));
    // The earlier attempts, with their error and, for t1, the partial trajectory.
    assert!(html.contains("<table id=\"attempts\">"));
    assert!(html.contains(
        "<tr data-id=\"suite/t1\" data-attempt=\"1\"><td><a href=\"trajectories/suite~2Ft1.html\">suite/t1</a></td>"
    ));
    assert!(html.contains("suite/t2 <span class=\"muted small\">(no trajectory)</span>"));
    assert!(html.contains("<td>infrastructure</td>"));
    let first = std::fs::read_to_string(dir.join("trajectories/suite~2Ft1.html")).unwrap();
    let last = std::fs::read_to_string(dir.join("trajectories/suite~2Ft1.attempt-2.html")).unwrap();
    assert!(first.contains("step 3 page") && !first.contains("step 4 page"));
    assert!(last.contains("step 5 page"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_elsewhere_gets_the_trajectory_images_copied() {
    let out_dir = temp_dir("copy");
    let out = Command::new(env!("CARGO_BIN_EXE_hopbench"))
        .arg("report")
        .arg(fixture("run"))
        .arg(format!("--out={}", out_dir.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for name in [
        "suite~2Ft3.html",
        "suite~2Ft3-m1.png",
        "suite~2Ft3-m2.png",
        "suite~2Ft3-m3.png",
    ] {
        assert!(out_dir.join("trajectories").join(name).is_file(), "{name}");
    }
    assert!(!fixture("run").join("summary.json").exists());
    std::fs::remove_dir_all(&out_dir).unwrap();
}

#[test]
fn a_bad_line_is_an_error_naming_file_and_line_and_nothing_is_written() {
    let dir = temp_dir("bad");
    copy_dir(&fixture("bad"), &dir);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(1));
    let file = dir.join("results.jsonl");
    assert_eq!(
        text(&out.stderr),
        format!(
            "hopbench: {}:3: missing field `verdict` (column 147)\n",
            file.display()
        )
    );
    assert!(!dir.join("summary.json").exists() && !dir.join("report.html").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inconsistent_and_truncated_lines_are_errors_too() {
    let dir = temp_dir("inconsistent");
    let good = std::fs::read_to_string(fixture("run/results.jsonl")).unwrap();
    let first = good.lines().next().unwrap();
    let cases = [
        (
            first.replace("\"hops_completed\":1", "\"hops_completed\":0"),
            "`hops_completed` is 0 but `hop_steps` records 1 completed hops",
        ),
        (
            first.replace("\"hop_steps\":[3]", "\"hop_steps\":[3,4]"),
            "`hop_steps` has 2 entries but `hops_total` is 1",
        ),
        (
            first.replace("\"PASS\"", "\"ERROR\""),
            "`error` must be set exactly when `verdict` is ERROR",
        ),
        (
            first.replace("\"PASS\"", "\"pass\""),
            "`verdict`: unknown variant `pass`",
        ),
        (
            first.replace("\"input\":1000", "\"input\":\"1000\""),
            "`tokens.input`: invalid type: string \"1000\", expected u64",
        ),
        (
            first.replace("\"reason\":\"stop\"", "\"reason\":\"stop\",\"attempt\":0"),
            "`attempt` is 0; attempts count from 1",
        ),
        (
            first.replace(
                "\"reason\":\"stop\"",
                "\"reason\":\"stop\",\"error_kind\":\"infrastructure\"",
            ),
            "`error_kind` is set but the verdict is PASS; only an ERROR has a kind",
        ),
        (
            first.replace(
                "\"reason\":\"stop\"",
                "\"reason\":\"stop\",\"error_kind\":\"oops\"",
            ),
            "`error_kind`: unknown variant `oops`",
        ),
        (first[..40].to_string(), "EOF while parsing"),
    ];
    for (line, expected) in cases {
        std::fs::write(dir.join("results.jsonl"), format!("{first}\n{line}\n")).unwrap();
        let out = hopbench(&[&dir]);
        assert_eq!(out.status.code(), Some(1), "{line}");
        let stderr = text(&out.stderr);
        let prefix = format!(
            "hopbench: {}:2: {expected}",
            dir.join("results.jsonl").display()
        );
        assert!(stderr.starts_with(&prefix), "{stderr}\nexpected: {prefix}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors_print_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_hopbench"))
        .arg("report")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("report: give at least one run folder"));
    assert!(text(&out.stderr).contains("usage: hopbench report DIR... [--out OUT]"));
    let out = hopbench(&[Path::new("/nonexistent/run")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a folder: /nonexistent/run"));
    let dir = temp_dir("empty-folder");
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("results.jsonl: cannot read: No such file"));
    std::fs::remove_dir_all(&dir).unwrap();
}
