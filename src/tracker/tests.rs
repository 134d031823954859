use super::*;

const TWO_SITES: &str = r#"{
  "id": "test/two-sites",
  "intent": "Visit alpha's page, then beta's.",
  "start_urls": ["http://127.0.0.1:1/"],
  "hops": [
    {"description": "alpha target", "condition": {"kind": "url", "part": "path", "op": "equals", "value": "/target.html"}},
    {"condition": {"kind": "url", "part": "path", "op": "contains", "value": "/beta-target"}}
  ],
  "final_answer": {"condition": {"must_include": ["blue"]}, "required": false}
}"#;

fn tracker() -> Tracker {
    Tracker::from_task_text(TWO_SITES, "two.json").unwrap()
}

#[test]
fn starts_with_the_task_summary_and_nothing_done() {
    let t = tracker();
    assert_eq!(t.task.id, "test/two-sites");
    assert_eq!(t.task.start_urls, vec!["http://127.0.0.1:1/"]);
    let p = t.progress();
    assert_eq!((p.done, p.total, p.at_end), (0, 2, false));
    assert_eq!(p.current.as_deref(), Some("alpha target"));
}

#[test]
fn navigations_complete_hops_in_order_across_tabs() {
    let mut t = tracker();
    // The second hop's page first: not the head, so no credit.
    let o = t.navigation(1, 10, 0, "http://b/beta-target.html").unwrap();
    assert_eq!(o.completed_hop, None);
    let o = t.navigation(2, 20, 0, "http://a/target.html").unwrap();
    assert_eq!(o.completed_hop, Some(0));
    let o = t.navigation(3, 30, 1, "http://b/beta-target.html").unwrap();
    assert_eq!(o.completed_hop, Some(1));
    let v = t.verdict();
    assert!(v.passed, "{v:?}");
    assert_eq!(v.hop_steps, vec![2, 3]);
}

#[test]
fn state_survives_a_json_round_trip() {
    let mut t = tracker();
    t.navigation(1, 5, 0, "http://a/target.html").unwrap();
    let back = Tracker::from_json(&t.to_json().unwrap()).unwrap();
    assert_eq!(back, t);
    assert_eq!(back.progress().done, 1);
}

#[test]
fn answers_are_recorded_with_their_step() {
    let mut t = tracker();
    let o = t.answer(4, 40, "Blue sky", Vec::new()).unwrap();
    assert!(o.answer_scored);
    let v = t.verdict();
    assert_eq!(v.answer.map(|a| a.step), Some(4));
}

#[test]
fn a_fuzzy_answer_without_a_judge_is_an_error_that_changes_nothing() {
    let text = TWO_SITES.replace(r#""must_include": ["blue"]"#, r#""fuzzy_match": ["blue"]"#);
    let mut t = Tracker::from_task_text(&text, "two.json").unwrap();
    let before = t.clone();
    let err = t.answer(1, 1, "blue", Vec::new()).unwrap_err();
    assert!(matches!(err, TrackerError::Judge(_)), "{err}");
    assert_eq!(t, before);
}

fn fuzzy_tracker() -> Tracker {
    let text = TWO_SITES
        .replace(
            r#""must_include": ["blue"]"#,
            r#""fuzzy_match": ["blue sky"]"#,
        )
        .replace(r#""required": false"#, r#""required": true"#);
    let mut t = Tracker::from_task_text(&text, "two.json").unwrap();
    t.navigation(1, 10, 0, "http://a/target.html").unwrap();
    t.navigation(2, 20, 0, "http://b/beta-target.html").unwrap();
    t
}

#[test]
fn a_fuzzy_answer_is_scored_with_the_judgements_and_keeps_them() {
    let mut t = fuzzy_tracker();
    let asked = t.judge_requests("The sky was blue");
    assert_eq!(
        asked,
        vec![JudgeRequest {
            answer: "The sky was blue".into(),
            reference: "blue sky".into()
        }]
    );
    let judgement = Judgement::from_reply(
        &asked[0],
        "openai judge",
        "Yes",
        crate::model::Usage::default(),
    );
    t.answer(3, 30, "The sky was blue", vec![judgement.clone()])
        .unwrap();
    let v = t.verdict();
    assert!(v.passed, "{v:?}");
    assert_eq!(v.answer.unwrap().judgements, vec![judgement]);
}

#[test]
fn a_judge_without_a_verdict_fails_the_answer_and_the_verdict_says_why() {
    let mut t = fuzzy_tracker();
    let asked = t.judge_requests("The sky was blue");
    let failed = Judgement::failed(
        &asked[0],
        "openai judge",
        "HTTP 500 (gave up after 2 tries)",
    );
    t.answer(3, 30, "The sky was blue", vec![failed]).unwrap();
    let v = t.verdict();
    assert!(!v.passed);
    assert_eq!(
        v.reason,
        "all hops completed, but the answer failed: judge: no verdict on \"blue sky\" \
         (the judge call failed: HTTP 500 (gave up after 2 tries))"
    );
}

#[test]
fn the_containment_fallback_decides_and_the_verdict_says_so() {
    let mut t = fuzzy_tracker();
    let asked = t.judge_requests("Blue  Sky over Tokyo");
    let by_containment = Judgement::by_containment(&asked[0]);
    t.answer(3, 30, "Blue  Sky over Tokyo", vec![by_containment])
        .unwrap();
    let v = t.verdict();
    assert!(v.passed, "{v:?}");
    let answer = v.answer.unwrap();
    assert!(answer.judgements[0].by.contains("containment"));
}

#[test]
fn bad_tasks_and_bad_state_are_errors_naming_the_problem() {
    let err = Tracker::from_task_text("{", "broken.json").unwrap_err();
    assert!(err.to_string().contains("broken.json"), "{err}");
    let no_start = TWO_SITES.replace(r#"["http://127.0.0.1:1/"]"#, "[]");
    let err = Tracker::from_task_text(&no_start, "t.json").unwrap_err();
    assert!(err.to_string().contains("start"), "{err}");
    assert!(matches!(
        Tracker::from_json("[]"),
        Err(TrackerError::State(_))
    ));
}
