use super::*;

fn click(id: u32) -> Option<Action> {
    Some(Action::Click { id })
}

fn typing(text: &str) -> Option<Action> {
    Some(Action::Type {
        id: 7,
        text: text.to_string(),
        press_enter: true,
    })
}

fn check(history: &[Option<Action>]) -> Option<EarlyStopReason> {
    check_early_stop(history, &EarlyStopConfig::default()).map(|s| s.reason)
}

/// Distinct clicks, so no rule but the step budget can fire.
fn distinct_steps(n: usize) -> Vec<Option<Action>> {
    (0..n).map(|i| click(i as u32)).collect()
}

#[test]
fn defaults_are_30_3_3() {
    let c = EarlyStopConfig::default();
    assert_eq!((c.max_steps, c.parse_failures, c.repeats), (30, 3, 3));
}

#[test]
fn empty_history_never_stops() {
    assert_eq!(check(&[]), None);
}

#[test]
fn step_limit_fires_at_30_not_29() {
    assert_eq!(check(&distinct_steps(29)), None);
    assert_eq!(
        check(&distinct_steps(30)),
        Some(EarlyStopReason::MaxSteps {
            steps: 30,
            max_steps: 30
        })
    );
}

#[test]
fn parse_failures_fire_at_3_in_a_row_not_2() {
    assert_eq!(check(&[click(1), None, None]), None);
    assert_eq!(
        check(&[click(1), None, None, None]),
        Some(EarlyStopReason::ParseFailures { count: 3 })
    );
    // Three failures that are not consecutive do not count.
    assert_eq!(check(&[None, None, click(1), None]), None);
}

#[test]
fn repeated_action_fires_at_3_in_a_row_not_2() {
    assert_eq!(check(&[click(1), click(2), click(2)]), None);
    assert_eq!(
        check(&[click(1), click(2), click(2), click(2)]),
        Some(EarlyStopReason::RepeatedAction {
            action: Action::Click { id: 2 },
            count: 3
        })
    );
    // Same kind, different argument: not a repeat.
    assert_eq!(check(&[click(2), click(2), click(3)]), None);
    // A parse failure in between breaks the run.
    assert_eq!(check(&[click(2), None, click(2), click(2)]), None);
}

#[test]
fn repeated_type_counts_anywhere_in_history() {
    let two = [typing("cmu"), click(1), typing("cmu"), click(2)];
    assert_eq!(check(&two), None);
    let three = [
        typing("cmu"),
        click(1),
        typing("cmu"),
        click(2),
        typing("cmu"),
    ];
    assert_eq!(
        check(&three),
        Some(EarlyStopReason::RepeatedType {
            action: Action::Type {
                id: 7,
                text: "cmu".into(),
                press_enter: true
            },
            count: 3
        })
    );
}

#[test]
fn repeated_type_needs_same_text_and_flag() {
    let flagless = Some(Action::Type {
        id: 7,
        text: "cmu".into(),
        press_enter: false,
    });
    let history = [typing("cmu"), click(1), typing("cmu"), click(2), flagless];
    assert_eq!(check(&history), None);
    let history = [
        typing("cmu"),
        click(1),
        typing("CMU"),
        click(2),
        typing("cmu"),
    ];
    assert_eq!(check(&history), None);
}

#[test]
fn precedence_step_limit_then_failures_then_repeats() {
    let mut history = distinct_steps(27);
    history.extend([None, None, None]);
    assert!(matches!(
        check(&history),
        Some(EarlyStopReason::MaxSteps { .. })
    ));
    let config = EarlyStopConfig {
        parse_failures: 2,
        repeats: 2,
        ..EarlyStopConfig::default()
    };
    // Consecutive identical `type` actions satisfy rules 3 and 4; rule 3 is reported.
    let reason = check_early_stop(&[typing("a"), typing("a")], &config).map(|s| s.reason);
    assert!(matches!(
        reason,
        Some(EarlyStopReason::RepeatedAction { .. })
    ));
}

#[test]
fn zero_disables_a_rule() {
    let off = EarlyStopConfig {
        max_steps: 0,
        parse_failures: 0,
        repeats: 0,
    };
    let history = vec![None; 50];
    assert_eq!(check_early_stop(&history, &off), None);
}

#[test]
fn stop_action_carries_the_reason() {
    let stop = check_early_stop(&distinct_steps(30), &EarlyStopConfig::default());
    let stop = stop.unwrap();
    assert_eq!(stop.reason(), "reached the step limit (30 of 30 steps)");
    assert_eq!(
        stop.as_action(),
        Action::Stop {
            answer: "Early stop: reached the step limit (30 of 30 steps)".into()
        }
    );
    let stop = check_early_stop(&[click(4), click(4), click(4)], &EarlyStopConfig::default());
    assert_eq!(
        stop.unwrap().reason(),
        "the same action `click [4]` was repeated 3 times in a row"
    );
}

#[test]
fn each_reason_names_its_rule_as_it_is_written() {
    let reasons = [
        EarlyStopReason::MaxSteps {
            steps: 30,
            max_steps: 30,
        },
        EarlyStopReason::ParseFailures { count: 3 },
        EarlyStopReason::RepeatedAction {
            action: Action::Click { id: 4 },
            count: 3,
        },
        EarlyStopReason::RepeatedType {
            action: Action::Click { id: 4 },
            count: 3,
        },
    ];
    let rules: Vec<EarlyStopRule> = reasons.iter().map(EarlyStopReason::rule).collect();
    assert_eq!(rules, EarlyStopRule::ALL);
    for (reason, rule) in reasons.iter().zip(rules) {
        // The reason's `rule` tag and the rule's own name are one spelling.
        let tagged = serde_json::to_value(reason).unwrap();
        assert_eq!(tagged["rule"], serde_json::to_value(rule).unwrap());
        let back: EarlyStopRule = crate::json_read::from_value(tagged["rule"].clone()).unwrap();
        assert_eq!(back, rule);
    }
}
