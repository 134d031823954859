//! `hopbench report` on a runner's newer lines (tests/fixtures/report/ended): why each
//! task ended (`end`, `reason`, `error`), the tokens the provider served from its
//! cache, and costs from a price table (`--prices`). Numbers worked by hand below.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

mod report_support;

use report_support::{copy_dir, fixture, hopbench, read_json, temp_dir, text};
use serde_json::{json, Value};
use std::path::Path;

// tests/fixtures/report/ended (run.json: model small-model), by hand. `end` and
// `cached_input` are absent from e/4, a line of an older runner (cached 0).
//
// task      verdict  end                 tokens in / cached / out
// e/1       FAIL     early_stop          10,000 / 4,000 / 2,000
// e/2       ERROR    context_overflow     2,000 /     0 /   200  (a reason of 400+ characters)
// e/3       PASS     answered             3,000 / 3,000 /   200
// e/4       FAIL     (none)               5,000 /     0 /   500
// e/5 (1)   ERROR    timeout              1,000 /   400 /    60  (earlier attempt)
// e/5 (2)   FAIL     early_stop           2,000 / 1,000 /   100
// e/6       ERROR    unsupported_input        0 /     0 /     0
// e/7       FAIL     out_of_budget            0 /     0 /     0  (a word this version does not know)
//
// Counted (last attempts): input 10,000 + 2,000 + 3,000 + 5,000 + 2,000 = 22,000;
// cached 4,000 + 3,000 + 1,000 = 8,000 (36.36 % of the input); output
// 2,000 + 200 + 200 + 500 + 100 = 3,000.
//
// Prices (tests/fixtures/report/prices/prices.json, per million): small-model input
// 0.15, cached input 0.075, output 0.6. Cost = (in − cached) × 0.15 + cached × 0.075 +
// out × 0.6, per million:
// e/1      6,000 × 0.15 + 4,000 × 0.075 + 2,000 × 0.6 = 900 + 300 + 1,200 = 2,400 → $0.0024
// e/2      2,000 × 0.15 + 200 × 0.6                   = 300 + 120         =   420 → $0.00042
// e/3      3,000 × 0.075 + 200 × 0.6                  = 225 + 120         =   345 → $0.000345
// e/4      5,000 × 0.15 + 500 × 0.6                   = 750 + 300         = 1,050 → $0.00105
// e/5 (1)  600 × 0.15 + 400 × 0.075 + 60 × 0.6        = 90 + 30 + 36      =   156 → $0.000156
// e/5 (2)  1,000 × 0.15 + 1,000 × 0.075 + 100 × 0.6   = 150 + 75 + 60     =   285 → $0.000285
// e/6, e/7 no tokens                                                            → $0
// The folder, every attempt: 4,656 per million = $0.004656, shown $0.00466; its
// tokens 23,000 / 8,400 / 3,060.

fn assert_close(actual: &Value, expected: f64) {
    let a = actual
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {actual}"));
    assert!((a - expected).abs() < 1e-12, "expected {expected}, got {a}");
}

/// The task table's row of `id` (from `<tr` to `</tr>`).
fn row<'a>(html: &'a str, table: &str, id: &str) -> &'a str {
    let table_start = html
        .find(&format!("<table id=\"{table}\">"))
        .unwrap_or_else(|| panic!("no table {table}"));
    let html = &html[table_start..];
    let start = html
        .find(&format!("<tr data-id=\"{id}\""))
        .unwrap_or_else(|| panic!("no row {id} in {table}"));
    let end = html[start..].find("</tr>").unwrap() + start;
    &html[start..end]
}

/// The row's "why it ended" cell.
fn why(row: &str) -> &str {
    let start = row.find("<td class=\"why\">").unwrap();
    let end = row[start..].find("</td>").unwrap() + start;
    &row[start..end + "</td>".len()]
}

/// What a reader sees of some HTML: the text without the tags (tooltips are in the
/// tags, so they are left out too), entities read as their characters.
fn visible(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    [
        ("&quot;", "\""),
        ("&#39;", "'"),
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&amp;", "&"),
    ]
    .iter()
    .fold(out, |text, (entity, c)| text.replace(entity, c))
}

fn with_prices(dirs: &[&Path], out: &Path, prices: &Path) -> std::process::Output {
    let mut args: Vec<&Path> = dirs.to_vec();
    args.extend([Path::new("--out"), out, Path::new("--prices"), prices]);
    hopbench(&args)
}

#[test]
fn the_task_table_says_why_each_task_ended() {
    // A folder of its own: the tests run at once, and each writes its report.
    let dir = temp_dir("ended-table");
    copy_dir(&fixture("ended"), &dir);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<th>why it ended</th>"));

    // The end in words, then the run's own reason.
    assert_eq!(
        why(row(&html, "tasks", "e/1")),
        "<td class=\"why\"><span class=\"end\">early stop</span> <span class=\"reason muted\">\
         Early stop: the last 3 steps gave no action (the last: the model call failed \
         (bad_request): the model returned an empty reply)</span></td>"
    );
    assert_eq!(
        why(row(&html, "tasks", "e/3")),
        "<td class=\"why\"><span class=\"end\">answered</span> <span class=\"reason muted\">\
         the agent stopped with the answer &quot;Tokyo&quot;</span></td>"
    );
    // An ERROR: the end, the reason, and the error that says what to change.
    assert_eq!(
        why(row(&html, "tasks", "e/6")),
        "<td class=\"why\"><span class=\"end\">unsupported input</span> <span class=\"reason\">\
         the run cannot go on: the model call failed (unsupported_input): image input is not \
         supported by this model</span> <span class=\"err\">set the observation mode to text</span></td>"
    );
    // An ERROR whose reason quotes a long server reply: the reason is cut so that the
    // error's hint stays on the row's first screen; the whole reason is the tooltip.
    let overflow = why(row(&html, "tasks", "e/2"));
    let seen = visible(overflow);
    let hint = "the prompt does not fit the model's context: set --max-obs-tokens or use \
                --observation-format compact";
    assert!(
        seen.starts_with(
            "context overflow the run cannot go on: the model call failed (context_overflow): \
             request (2480 tokens) exceeds the available context size (1024 tokens)"
        ),
        "{seen}"
    );
    assert!(seen.ends_with(&format!("… {hint}")), "{seen}");
    // The end, at most 300 characters of the reason and an ellipsis, the hint.
    let (reason, _) = seen.split_once('…').unwrap();
    assert!(
        reason.chars().count() <= "context overflow ".len() + 300,
        "{reason}"
    );
    assert!(overflow.contains("title=\"the run cannot go on: "));
    assert!(overflow.contains("quoted whole by the client so nothing is lost\">"));
    // The runner's own end, whose error is its reason: said once.
    let timeout = why(row(&html, "attempts", "e/5"));
    assert_eq!(
        timeout,
        "<td class=\"why\"><span class=\"end\">timeout</span> <span class=\"reason\">timed out \
         after 900 s (per-task timeout, --task-timeout)</span></td>"
    );
    assert_eq!(
        why(row(&html, "tasks", "e/5")),
        "<td class=\"why\"><span class=\"end\">early stop</span> <span class=\"reason muted\">\
         Early stop: the last 3 actions were the same (click [7])</span></td>"
    );
    // A line of an older runner: no end, its reason; no cached tokens.
    let old = row(&html, "tasks", "e/4");
    assert_eq!(
        why(old),
        "<td class=\"why\"><span class=\"reason muted\">max steps (30) reached</span></td>"
    );
    assert!(
        old.contains("<td class=\"num\">5,000 / 0 / 500</td>"),
        "{old}"
    );
    // A word this version does not know loads and reads as words.
    assert!(why(row(&html, "tasks", "e/7")).contains("<span class=\"end\">out of budget</span>"));

    // Input, cached and output tokens per task and in the header.
    assert!(html.contains("<th class=\"num\">tokens in / cached / out</th>"));
    assert!(row(&html, "tasks", "e/1").contains("<td class=\"num\">10,000 / 4,000 / 2,000</td>"));
    assert!(html.contains(
        "<p id=\"usage\">tokens: 22,000 in, of which 8,000 served from the provider's cache \
         (36.36 %) · 3,000 out</p>"
    ));
    // No price table: no cost anywhere.
    assert!(!html.contains("<th class=\"num\">cost</th>") && !html.contains("id=\"cost\""));

    let s = read_json(&dir.join("summary.json"));
    assert_eq!(
        s["totals"]["tokens"],
        json!({"input": 22000, "cached_input": 8000, "output": 3000})
    );
    assert_close(&s["totals"]["cached_share"], 8000.0 / 22000.0);
    assert!(s.get("costs").is_none(), "{s}");
    let earlier = &s["retries"]["earlier_attempts"][0];
    assert_eq!(
        (&earlier["id"], &earlier["end"]),
        (&json!("e/5"), &json!("timeout"))
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("tokens: 22000 in (8000 cached, 36.36 %) / 3000 out\n"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_viewer_page_says_why_the_run_ended_in_full_and_what_each_call_cached() {
    let dir = temp_dir("ended-viewer");
    copy_dir(&fixture("ended"), &dir);
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("trajectories/e~2F2.html")).unwrap();
    let header = &page[page.find("<dl id=\"summary\">").unwrap()..];
    let header = &header[..header.find("</dl>").unwrap()];
    let why = &header[header.find("<dt>why it ended</dt>").unwrap()..];
    assert!(why.starts_with(
        "<dt>why it ended</dt><dd><div class=\"why\"><span class=\"end\">context overflow</span> \
         <span class=\"reason\">the run cannot go on: the model call failed (context_overflow): "
    ));
    // Whole here, not cut.
    assert!(why.contains(
        "quoted whole by the client so nothing is lost</span> <span class=\"err\">the prompt \
         does not fit the model&#39;s context: set --max-obs-tokens or use \
         --observation-format compact</span></div></dd>"
    ));
    assert!(header.contains("<dt>tokens</dt><dd>2,000 in (0 cached) / 200 out</dd>"));
    // Per step: the cached part of the call's input, and how much of the observation
    // the prompt kept.
    assert!(page.contains("<dt>tokens</dt><dd>2,000 in (1,500 cached) / 200 out</dd>"));
    assert!(page.contains(
        "<dt>observation cut</dt><dd>kept about 990 of about 5,400 tokens (max_obs_tokens 1,000)</dd>"
    ));
    assert!(page
        .contains("<p class=\"err\">model call failed: context_overflow: request (2480 tokens)"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn costs_follow_the_price_table_per_task_and_per_folder() {
    let out_dir = temp_dir("costs");
    let prices = fixture("prices/prices.json");
    let out = with_prices(&[&fixture("ended")], &out_dir, &prices);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let s = read_json(&out_dir.join("summary.json"));
    let costs = &s["costs"];
    assert_eq!(costs["prices"], json!(prices.display().to_string()));
    assert_eq!(costs["complete"], json!(true));
    assert_close(&costs["total_usd"], 0.004656);
    let folder = &costs["folders"][0];
    assert_eq!(
        (&folder["model"], &folder["attempts"], &folder["tokens"]),
        (
            &json!("small-model"),
            &json!(8),
            &json!({"input": 23000, "cached_input": 8400, "output": 3060})
        )
    );
    assert_close(&folder["cost_usd"], 0.004656);
    assert_eq!(s["notes"], json!([]));

    let html = std::fs::read_to_string(out_dir.join("report.html")).unwrap();
    for (table, id, cost) in [
        ("tasks", "e/1", "$0.0024"),
        ("tasks", "e/2", "$0.00042"),
        ("tasks", "e/3", "$0.000345"),
        ("tasks", "e/4", "$0.00105"),
        ("tasks", "e/5", "$0.000285"),
        ("tasks", "e/6", "$0"),
        ("attempts", "e/5", "$0.000156"),
    ] {
        let r = row(&html, table, id);
        assert!(
            r.contains(&format!("<td class=\"num cost\">{cost}</td>")),
            "{table} {id}: {r}"
        );
    }
    assert!(html.contains("<p id=\"cost\">cost: <b>$0.00466</b> over every attempt in the folders"));
    assert!(html.contains(&format!(
        "<tr><td>{}</td><td>small-model</td><td class=\"num\">8</td>\
         <td class=\"num\">23,000 / 8,400 / 3,060</td><td class=\"num cost\">$0.00466</td></tr>",
        fixture("ended").display()
    )));
    // The task's own page says what it cost.
    let page = std::fs::read_to_string(out_dir.join("trajectories/e~2F2.html")).unwrap();
    assert!(page.contains("<dt>cost</dt><dd>$0.00042</dd>"));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "tokens: 22000 in (8000 cached, 36.36 %) / 3000 out; cost $0.00466 over every \
             attempt in the folders ({})\n",
            prices.display()
        )),
        "{stdout}"
    );
    std::fs::remove_dir_all(&out_dir).unwrap();
}

#[test]
fn a_model_missing_from_the_price_table_gets_a_note_and_no_price() {
    let out_dir = temp_dir("unpriced");
    let prices = fixture("prices/prices.json");
    let (ended, unpriced) = (fixture("ended"), fixture("unpriced"));
    let out = with_prices(&[&ended, &unpriced], &out_dir, &prices);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let note = format!(
        "no price for model \"unpriced-model\" in {}: the cost of {} (7000 input, 300 output \
         tokens) is left out",
        prices.display(),
        unpriced.display()
    );
    let s = read_json(&out_dir.join("summary.json"));
    assert_eq!(s["notes"], json!([note]));
    assert!(text(&out.stdout).contains(&format!("note: {note}")));
    let costs = &s["costs"];
    assert_eq!(costs["complete"], json!(false));
    // The total is the priced folder's alone; nothing is made up for the other.
    assert_close(&costs["total_usd"], 0.004656);
    assert_eq!(costs["folders"][1]["model"], json!("unpriced-model"));
    assert_eq!(costs["folders"][1]["cost_usd"], Value::Null);
    let html = std::fs::read_to_string(out_dir.join("report.html")).unwrap();
    assert!(row(&html, "tasks", "u/1")
        .contains("<td class=\"num cost muted\" title=\"no price for this model\">—</td>"));
    assert!(html.contains(
        "cost: <b>$0.00466</b> (some tokens could not be priced, see the notes) over every attempt"
    ));
    std::fs::remove_dir_all(&out_dir).unwrap();
}

#[test]
fn a_bad_price_file_is_a_usage_error_naming_the_file_and_the_field() {
    let out_dir = temp_dir("bad-prices");
    let bad = fixture("prices/bad-type.json");
    let out = with_prices(&[&fixture("ended")], &out_dir, &bad);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "hopbench: report: {}: \"small-model\".input: expected a number (US dollars per \
             million tokens), found the string \"0.15\"\n",
            bad.display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("usage: hopbench report DIR... [--out OUT] [--prices FILE]"));
    assert!(!out_dir.join("summary.json").exists() && !out_dir.join("report.html").exists());

    let missing = out_dir.join("no-such-prices.json");
    let out = with_prices(&[&fixture("ended")], &out_dir, &missing);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with(&format!(
        "hopbench: report: {}: cannot read: ",
        missing.display()
    )));
    std::fs::remove_dir_all(&out_dir).unwrap();
}

#[test]
fn more_cached_than_input_tokens_is_a_bad_line() {
    let dir = temp_dir("cached-over");
    let line = json!({"id": "x", "hops_total": 1, "hops_completed": 0, "hop_steps": [null],
        "verdict": "FAIL", "steps": 1, "tokens": {"input": 100, "output": 5, "cached_input": 200},
        "time_ms": 10});
    std::fs::write(dir.join("results.jsonl"), format!("{line}\n")).unwrap();
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "hopbench: {}:1: `tokens.cached_input` is 200 but `tokens.input` is 100; the \
             cached part is part of the input\n",
            dir.join("results.jsonl").display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_someone_stopped_reads_stopped_and_still_counts_as_not_passed() {
    // The runner writes a stopped run (an export of a run stopped in the extension)
    // as an ERROR whose end is `stopped`; the report tells it apart as the panel does.
    let dir = temp_dir("stopped-row");
    let stopped = json!({"id": "s/1", "hops_total": 2, "hops_completed": 1, "hop_steps": [3, null],
        "verdict": "ERROR", "steps": 4, "tokens": {"input": 0, "output": 0}, "time_ms": 9000,
        "error": "the run was stopped before it finished", "end": "stopped", "attempt": 1,
        "error_kind": "run"});
    let failed = json!({"id": "s/2", "hops_total": 1, "hops_completed": 0, "hop_steps": [null],
        "verdict": "ERROR", "steps": 1, "tokens": {"input": 0, "output": 0}, "time_ms": 10,
        "error": "net::ERR_CONNECTION_REFUSED", "end": "start_page", "attempt": 1,
        "error_kind": "run"});
    std::fs::write(dir.join("results.jsonl"), format!("{stopped}\n{failed}\n")).unwrap();
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let stopped_row = row(&html, "tasks", "s/1");
    assert!(
        stopped_row.contains("<td class=\"STOPPED\">STOPPED</td>"),
        "{stopped_row}"
    );
    assert!(
        visible(why(stopped_row)).contains("stopped"),
        "{stopped_row}"
    );
    // Any other ERROR is still an ERROR.
    assert!(row(&html, "tasks", "s/2").contains("<td class=\"ERROR\">ERROR</td>"));
    // Neither passed: the pass rate over both is 0.
    let summary: Value = read_json(&dir.join("summary.json"));
    assert_eq!(
        summary["counts"],
        json!({"tasks": 2, "pass": 0, "fail": 0, "error": 2})
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
