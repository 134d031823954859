//! Tests of the metrics against numbers worked out by hand.

use super::*;
use proptest::prelude::*;

fn rec(id: &str, hops_total: usize, hops_completed: usize, passed: bool) -> TaskRecord {
    TaskRecord {
        task_id: id.to_string(),
        hops_total,
        hops_completed,
        passed,
    }
}

fn assert_close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() < 1e-12,
        "expected {expected}, got {actual}"
    );
}

fn assert_all_close(actual: &[f64], expected: &[f64]) {
    assert_eq!(actual.len(), expected.len(), "{actual:?} vs {expected:?}");
    for (a, e) in actual.iter().zip(expected) {
        assert_close(*a, *e);
    }
}

/// Eight tasks: three of 1 hop, three of 3 hops, two of 6 hops.
fn mixed() -> Vec<TaskRecord> {
    vec![
        rec("a1", 1, 1, true),
        // All hops done but the final answer was wrong: not passed.
        rec("a2", 1, 1, false),
        rec("a3", 1, 0, false),
        rec("b1", 3, 3, true),
        rec("b2", 3, 2, false),
        rec("b3", 3, 0, false),
        rec("c1", 6, 6, true),
        rec("c2", 6, 2, false),
    ]
}

// By hand, for `mixed()`:
//
// bucket    tasks passed hops done  hop SR        task SR
// 1 hop       3     1     3    2    2/3           1/3   (a1)
// 2-4 hops    3     1     9    5    5/9 (3+2+0)   1/3   (b1)
// 5+ hops     2     1    12    8    8/12 = 2/3    1/2   (c1)
// overall     8     3    24   15    15/24 = 5/8   3/8
#[test]
fn bucket_rates_match_hand_computation() {
    let report = MetricsReport::compute(&mixed()).unwrap();
    let got: Vec<_> = report
        .buckets
        .iter()
        .map(|s| {
            (
                s.bucket,
                s.tasks,
                s.tasks_passed,
                s.hops_total,
                s.hops_completed,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (Bucket::OneHop, 3, 1, 3, 2),
            (Bucket::TwoToFour, 3, 1, 9, 5),
            (Bucket::FivePlus, 2, 1, 12, 8),
            (Bucket::Overall, 8, 3, 24, 15),
        ]
    );
    let rates: [(Bucket, f64, f64); 4] = [
        (Bucket::OneHop, 2.0 / 3.0, 1.0 / 3.0),
        (Bucket::TwoToFour, 5.0 / 9.0, 1.0 / 3.0),
        (Bucket::FivePlus, 2.0 / 3.0, 1.0 / 2.0),
        (Bucket::Overall, 5.0 / 8.0, 3.0 / 8.0),
    ];
    for (bucket, hop_sr, task_sr) in rates {
        let s = report.bucket(bucket).unwrap();
        assert_close(s.hop_sr.unwrap(), hop_sr);
        assert_close(s.task_sr.unwrap(), task_sr);
    }
}

// By hand, for `mixed()` (reached = tasks with at least j hops done):
//
// k=1: completed 1,1,0    -> reached [2]            share [2/3]
// k=3: completed 3,2,0    -> reached [2,2,1]        share [2/3,2/3,1/3]
// k=6: completed 6,2      -> reached [2,2,1,1,1,1]  share [1,1,1/2,1/2,1/2,1/2]
#[test]
fn position_shares_match_hand_computation() {
    let report = MetricsReport::compute(&mixed()).unwrap();
    let rows: Vec<_> = report
        .positions
        .iter()
        .map(|r| (r.hops, r.tasks, r.reached.clone()))
        .collect();
    assert_eq!(
        rows,
        [
            (1, 3, vec![2]),
            (3, 3, vec![2, 2, 1]),
            (6, 2, vec![2, 2, 1, 1, 1, 1]),
        ]
    );
    let (third, half) = (1.0 / 3.0, 0.5);
    assert_all_close(&report.positions[0].share, &[2.0 * third]);
    assert_all_close(
        &report.positions[1].share,
        &[2.0 * third, 2.0 * third, third],
    );
    assert_all_close(
        &report.positions[2].share,
        &[1.0, 1.0, half, half, half, half],
    );
}

#[test]
fn positions_are_sorted_by_length_whatever_the_input_order() {
    let mut records = mixed();
    records.reverse();
    let report = MetricsReport::compute(&records).unwrap();
    let lengths: Vec<usize> = report.positions.iter().map(|r| r.hops).collect();
    assert_eq!(lengths, [1, 3, 6]);
}

// Small case, by hand:
//   x: 1 hop, 1/1, passed     y: 2 hops, 1/2, failed     z: 2 hops, 2/2, passed
// 1 hop:    1 task, hops 1/1 = 100%, tasks 1/1 = 100%
// 2-4 hops: 2 tasks, hops 3/4 = 75%, tasks 1/2 = 50%
// 5+ hops:  empty -> dashes
// overall:  3 tasks, hops 4/5 = 80%, tasks 2/3 = 66.67%
// positions: k=1: [1/1]; k=2: at least 1 hop 2/2, at least 2 hops 1/2
#[test]
fn markdown_for_small_case() {
    let report = MetricsReport::compute(&[
        rec("x", 1, 1, true),
        rec("y", 2, 1, false),
        rec("z", 2, 2, true),
    ])
    .unwrap();
    let expected = "\
| bucket | tasks | hop SR % | task SR % |
|---|---:|---:|---:|
| 1 hop | 1 | 100.00 | 100.00 |
| 2-4 hops | 2 | 75.00 | 50.00 |
| 5+ hops | 0 | — | — |
| overall | 3 | 80.00 | 66.67 |

| task length | hop 1 | hop 2 |
|---|---:|---:|
| 1 hop (1 task) | 100.00 |  |
| 2 hops (2 tasks) | 100.00 | 50.00 |
";
    assert_eq!(report.to_markdown(), expected);
}

#[test]
fn markdown_without_records_has_dashes_and_no_position_rows() {
    let report = MetricsReport::compute(&[]).unwrap();
    let expected = "\
| bucket | tasks | hop SR % | task SR % |
|---|---:|---:|---:|
| 1 hop | 0 | — | — |
| 2-4 hops | 0 | — | — |
| 5+ hops | 0 | — | — |
| overall | 0 | — | — |

| task length |
|---|
";
    assert_eq!(report.to_markdown(), expected);
}

#[test]
fn json_has_null_rates_for_empty_bucket_and_fractions_elsewhere() {
    // Only 1-hop and 2-4-hop tasks, so "5+ hops" is empty.
    let report = MetricsReport::compute(&[rec("x", 1, 1, true), rec("y", 2, 1, false)]).unwrap();
    let json: serde_json::Value = serde_json::from_str(&report.to_json().unwrap()).unwrap();
    let buckets = json["buckets"].as_array().unwrap();
    assert_eq!(buckets.len(), 4);

    let five_plus = &buckets[2];
    assert_eq!(five_plus["bucket"], "five_plus");
    assert_eq!(five_plus["tasks"], 0);
    assert!(five_plus["hop_sr"].is_null());
    assert!(five_plus["task_sr"].is_null());

    // Overall: hops 2/3, tasks 1/2, as fractions rather than percentages.
    let overall = &buckets[3];
    assert_eq!(overall["bucket"], "overall");
    assert_close(overall["hop_sr"].as_f64().unwrap(), 2.0 / 3.0);
    assert_eq!(overall["task_sr"].as_f64(), Some(0.5));

    assert_eq!(json["positions"][1]["reached"], serde_json::json!([1, 0]));
    assert_eq!(json["positions"][1]["share"], serde_json::json!([1.0, 0.0]));
}

#[test]
fn json_round_trips() {
    let report = MetricsReport::compute(&mixed()).unwrap();
    let back: MetricsReport = serde_json::from_str(&report.to_json().unwrap()).unwrap();
    assert_eq!(back, report);
}

#[test]
fn task_record_reads_from_json() {
    let r: TaskRecord = serde_json::from_str(
        r#"{"task_id":"t7","hops_total":4,"hops_completed":2,"passed":false}"#,
    )
    .unwrap();
    assert_eq!(r, rec("t7", 4, 2, false));
}

#[test]
fn more_hops_completed_than_exist_is_an_error_naming_the_task() {
    let err =
        MetricsReport::compute(&[rec("ok", 2, 2, true), rec("t-9", 3, 4, false)]).unwrap_err();
    assert_eq!(
        err,
        MetricsError::CompletedExceedsTotal {
            task_id: "t-9".into(),
            hops_completed: 4,
            hops_total: 3,
        }
    );
    assert!(err.to_string().contains("t-9"), "{err}");
}

#[test]
fn zero_hop_task_is_an_error_naming_the_task() {
    let err = MetricsReport::compute(&[rec("empty-task", 0, 0, false)]).unwrap_err();
    assert_eq!(
        err,
        MetricsError::NoHops {
            task_id: "empty-task".into()
        }
    );
    assert!(err.to_string().contains("empty-task"), "{err}");
}

#[test]
fn passed_with_hops_missing_is_an_error_naming_the_task() {
    let err = MetricsReport::compute(&[rec("half", 4, 2, true)]).unwrap_err();
    assert!(matches!(err, MetricsError::PassedWithoutAllHops { .. }));
    assert!(err.to_string().contains("half"), "{err}");
}

fn valid_record() -> impl Strategy<Value = TaskRecord> {
    (1usize..=9)
        .prop_flat_map(|total| (Just(total), 0..=total, any::<bool>()))
        .prop_map(|(total, done, answer_ok)| rec("p", total, done, done == total && answer_ok))
}

proptest! {
    // Overall must be the pooled ratio of the three length buckets, not an
    // average of their rates (which would weight short tasks too heavily).
    #[test]
    fn overall_pools_the_length_buckets(records in prop::collection::vec(valid_record(), 1..40)) {
        let report = MetricsReport::compute(&records).unwrap();
        let parts = &report.buckets[..3];
        let overall = report.bucket(Bucket::Overall).unwrap();

        let done: usize = parts.iter().map(|s| s.hops_completed).sum();
        let total: usize = parts.iter().map(|s| s.hops_total).sum();
        let tasks: usize = parts.iter().map(|s| s.tasks).sum();
        let passed: usize = parts.iter().map(|s| s.tasks_passed).sum();
        prop_assert_eq!(overall.hops_completed, done);
        prop_assert_eq!(overall.hops_total, total);
        prop_assert_eq!(overall.tasks, tasks);
        prop_assert_eq!(overall.tasks, records.len());
        prop_assert_eq!(overall.tasks_passed, passed);
        prop_assert_eq!(overall.hop_sr, Some(done as f64 / total as f64));
        prop_assert_eq!(overall.task_sr, Some(passed as f64 / tasks as f64));

        for s in parts {
            prop_assert_eq!(s.hop_sr.is_none(), s.tasks == 0);
        }
        // Shares never increase along a row: reaching hop j+1 requires hop j.
        for row in &report.positions {
            prop_assert!(row.reached.windows(2).all(|w| w[0] >= w[1]));
            prop_assert!(row.reached.iter().all(|&n| n <= row.tasks));
        }
    }
}
