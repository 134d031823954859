//! `hopbench report`'s analysis: the by-K table, the failure-mode table and the stage
//! funnel, on hand-made run folders (tests/fixtures/report/analysis and sweep). The
//! expected numbers are worked out by hand below.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

mod report_support;

use report_support::{copy_of, hopbench, read_json, text};
use serde_json::{json, Value};
use std::path::Path;

// tests/fixtures/report/analysis (model openai m1), by hand:
//
// suite/a  1 hop  PASS   reference: click {link 'Tokyo'}, stop. Steps: click [3] (Tokyo),
//                         stop. Step 1 right at every stage; step 2 (stop, no element)
//                         right for grounding, first viable and select.
// suite/b  2 hops FAIL   reference: click {link 'Tokyo'}, stop; alternative: scroll [down],
//                         click {link 'Tokyo'}, stop. Steps: scroll [down] three times.
//                         Reference: each step RE yes (Tokyo is on the page), the rest no.
//                         With the alternative: step 1 matches it (AP no: a scroll names no
//                         element; grounding, first viable, select yes); steps 2-3 expect
//                         click Tokyo: RE yes, the rest no.
//                         Failure: the same action three times in a row: loop.
// suite/c  1 hop  ERROR  no trajectory: step error; no stage scores.
//
// Stages, 2 tasks, 5 steps: reference RE 4/4, AP 1/4, grounding 2/5, first viable 2/5,
// select 2/5; with alternatives RE 4/4, AP 1/4, grounding 3/5, first viable 3/5,
// select 3/5.
// Failure modes: 1 hop: step error 1; 2-4 hops: loop 1; overall: both.
#[test]
fn failure_modes_and_stage_accuracies_match_the_numbers_worked_by_hand() {
    let dir = copy_of("analysis");
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = read_json(&dir.join("summary.json"));

    let rows: Vec<(String, u64, Value)> = s["failure_modes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["bucket"].as_str().unwrap().to_string(),
                r["failed"].as_u64().unwrap(),
                r["counts"].clone(),
            )
        })
        .collect();
    let counts = |step_error: u64, loops: u64| {
        json!({"failed_early_hop": 0, "wandered": 0, "missed_finished_hop": 0, "loop": loops,
               "unparseable_output": 0, "step_error": step_error, "other": 0})
    };
    assert_eq!(
        rows,
        [
            ("one_hop".to_string(), 1, counts(1, 0)),
            ("two_to_four".to_string(), 1, counts(0, 1)),
            ("five_plus".to_string(), 0, counts(0, 0)),
            ("overall".to_string(), 2, counts(1, 1)),
        ]
    );
    assert_eq!(
        s["failed_tasks"],
        json!([
            {"id": "suite/b", "mode": "loop", "why": "`scroll [down]` three times in a row"},
            {"id": "suite/c", "mode": "step_error", "why": "the run broke (verdict ERROR)"},
        ])
    );

    let acc = |c: u64, t: u64| json!({"correct": c, "total": t});
    assert_eq!(
        s["stages"],
        json!([{
            "model": "openai m1",
            "tasks": 2,
            "strict": {"steps": 5, "relevant_element": acc(4, 4), "action_prediction": acc(1, 4),
                       "grounding": acc(2, 5), "first_viable": acc(2, 5), "model_select": acc(2, 5)},
            "with_alternatives": {"steps": 5, "relevant_element": acc(4, 4),
                       "action_prediction": acc(1, 4), "grounding": acc(3, 5),
                       "first_viable": acc(3, 5), "model_select": acc(3, 5)},
            // Every step of the fixture had a reply.
            "without_reply": 0,
        }])
    );

    // Printed as Markdown.
    let stdout = text(&out.stdout);
    assert!(stdout.contains("| loop | 0 | 1 | 0 | 1 |\n"), "{stdout}");
    assert!(
        stdout.contains("| step error | 1 | 0 | 0 | 1 |\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| all failed | 1 | 1 | 0 | 2 |\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "| openai m1 | reference | 2 | 5 | 100.00 | 25.00 | 40.00 | 40.00 | 40.00 |\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "| openai m1 | with alternatives | 2 | 5 | 100.00 | 25.00 | 60.00 | 60.00 | 60.00 |\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("| K=0 (off) | 3 |"), "{stdout}");

    // And in report.html: the failure table and one funnel.
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains(
        "<tr><td>loop</td><td class=\"num\">0</td><td class=\"num\">1</td><td class=\"num\">0</td><td class=\"num\">1</td></tr>"
    ));
    assert!(html.contains("<figure class=\"funnel\" data-model=\"openai m1\">"));
    assert!(html.contains("data-stage=\"grounding\">40.00 % (60.00 %)</text>"));
    std::fs::remove_dir_all(&dir).unwrap();
}

// tests/fixtures/report/sweep: k0 (memory off) and k2 (memory_k 2, recent), by hand:
// K=0: 1 hop s/1 PASS, s/2 FAIL -> task 50, hops 1/2 = 50; 2-4: s/3 1 of 3 hops ->
//      task 0, hop 33.33; 5+: none; overall tasks 1/3 = 33.33, hops 2/5 = 40.
// K=2: everything passes: 100 everywhere but 5+ (none).
#[test]
fn the_by_k_table_compares_memory_settings_without_merging_them() {
    let dir = copy_of("sweep");
    let (k0, k2) = (dir.join("k0"), dir.join("k2"));
    let out = hopbench(&[&k0, &k2, Path::new("--out"), &dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = read_json(&dir.join("summary.json"));
    let rows = s["by_memory"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (rows[0]["k"].clone(), rows[0]["tasks"].clone()),
        (json!(0), json!(3))
    );
    assert_eq!(rows[1]["policy"], json!("recent"));
    let close = |v: &Value, want: Option<f64>| match (v.as_f64(), want) {
        (Some(a), Some(b)) => assert!((a - b).abs() < 1e-12, "{a} vs {b}"),
        (None, None) => assert!(v.is_null()),
        other => panic!("{other:?}"),
    };
    for (v, want) in rows[0]["task_sr"].as_array().unwrap().iter().zip([
        Some(0.5),
        Some(0.0),
        None,
        Some(1.0 / 3.0),
    ]) {
        close(v, want);
    }
    for (v, want) in rows[0]["hop_sr"].as_array().unwrap().iter().zip([
        Some(0.5),
        Some(1.0 / 3.0),
        None,
        Some(0.4),
    ]) {
        close(v, want);
    }
    for (v, want) in
        rows[1]["task_sr"]
            .as_array()
            .unwrap()
            .iter()
            .zip([Some(1.0), Some(1.0), None, Some(1.0)])
    {
        close(v, want);
    }
    // The main tables are K=0's, not a merge where K=2's lines replace K=0's.
    assert_eq!(
        s["counts"],
        json!({"tasks": 3, "pass": 1, "fail": 2, "error": 0})
    );
    assert_eq!(
        s["notes"],
        json!(["the folders hold 2 memory settings (K=0 (off), K=2 recent): the tables show K=0 (off), the by-K table compares them all"])
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .contains("| K=0 (off) | 3 | 50.00 (50.00) | 0.00 (33.33) | — (—) | 33.33 (40.00) |\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "| K=2 recent | 3 | 100.00 (100.00) | 100.00 (100.00) | — (—) | 100.00 (100.00) |\n"
        ),
        "{stdout}"
    );
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<table id=\"by-memory\">"));
    assert!(html.contains("<td>K=2 recent</td>"));
    std::fs::remove_dir_all(&dir).unwrap();
}

// tests/fixtures/report/failed-calls (model openai m2): one task, reference click
// {link 'Tokyo'}, stop; eight steps, the model call failed at steps 2, 3, 6, 7 and 8
// (`model_error`, no reply). By hand, over the replied steps 1, 4 and 5 only:
// step 1  expects click Tokyo; the page has only Paris: RE no; scroll: first viable
//         no, select no (AP and grounding need RE).
// step 4  expects click Tokyo: click [3] Tokyo: RE, AP, grounding, first viable and
//         select yes; the path moves on to stop.
// step 5  expects stop (no element): click Paris: grounding, first viable, select no.
// 3 steps scored: RE 1/2, AP 1/1, grounding 1/2, first viable 1/3, select 1/3; 5 steps
// without a reply. Scoring the failed calls as steps (as before) would have given 8
// steps and RE 3/4: steps 2 and 3 had Tokyo on the page and counted as found.
#[test]
fn steps_whose_model_call_failed_are_left_out_of_the_funnel_and_counted_apart() {
    let dir = copy_of("failed-calls");
    let out = hopbench(&[&dir]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = read_json(&dir.join("summary.json"));
    let acc = |c: u64, t: u64| json!({"correct": c, "total": t});
    let scores = json!({"steps": 3, "relevant_element": acc(1, 2),
        "action_prediction": acc(1, 1), "grounding": acc(1, 2), "first_viable": acc(1, 3),
        "model_select": acc(1, 3)});
    assert_eq!(
        s["stages"],
        json!([{"model": "openai m2", "tasks": 1, "strict": scores,
                "with_alternatives": scores, "without_reply": 5}])
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "| openai m2 | reference | 1 | 3 | 50.00 | 100.00 | 50.00 | 33.33 | 33.33 |\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("openai m2: 5 steps without a reply: the model call failed (not scored)\n"),
        "{stdout}"
    );
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains(
        "<span class=\"muted small\">1 tasks, 3 steps scored</span> · <span \
         class=\"without-reply\" data-steps=\"5\">5 steps without a reply: the model call \
         failed (not scored)</span></figcaption>"
    ));
    assert!(html.contains("data-stage=\"relevant element\">50.00 % (50.00 %)</text>"));
    std::fs::remove_dir_all(&dir).unwrap();
}
