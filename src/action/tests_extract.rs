//! Taking the action out of realistic model replies.

use super::*;

fn found(reply: &str) -> ExtractedAction {
    extract_action(reply).unwrap_or_else(|e| panic!("{reply:?} should yield an action: {e}"))
}

fn failed(reply: &str) -> ExtractError {
    match extract_action(reply) {
        Ok(a) => panic!("{reply:?} should fail, got {a:?}"),
        Err(e) => e,
    }
}

#[test]
fn chain_of_thought_summary_with_fence() {
    let reply =
        "Let's think step-by-step. This page lists restaurants. The search box has id 164. \
                 I should search for restaurants near CMU. In summary, the next action I will \
                 perform is ```type [164] [restaurants near CMU] [1]```";
    let got = found(reply);
    assert_eq!(got.raw, "type [164] [restaurants near CMU] [1]");
    assert_eq!(
        got.action,
        Action::Type {
            id: 164,
            text: "restaurants near CMU".into(),
            press_enter: true
        }
    );
}

#[test]
fn summary_phrase_wins_over_later_fences_and_is_case_insensitive() {
    let reply = "Earlier I saw ```click [1]```.\nIN SUMMARY, THE NEXT ACTION I WILL PERFORM IS \
                 ```click [3]``` and afterwards maybe ```click [9]```";
    assert_eq!(found(reply).action, Action::Click { id: 3 });
}

#[test]
fn summary_phrase_with_multiline_tagged_fence() {
    let reply = "Reasoning...\nIn summary, the next action I will perform is\n```text\n  scroll [down]  \n```\n";
    let got = found(reply);
    assert_eq!(got.raw, "scroll [down]");
    assert_eq!(
        got.action,
        Action::Scroll {
            direction: ScrollDirection::Down
        }
    );
}

#[test]
fn summary_phrase_with_single_backticks_or_plain_text() {
    let reply = "In summary, the next action I will perform is `click [3]`.";
    assert_eq!(found(reply).action, Action::Click { id: 3 });
    let reply = "So the next action I will perform is: go_back.";
    assert_eq!(found(reply).action, Action::GoBack);
}

#[test]
fn summary_phrase_with_bad_fenced_action_reports_parse_error() {
    let reply = "In summary, the next action I will perform is ```clik [3]```";
    match failed(reply) {
        ExtractError::Unparseable { raw, source } => {
            assert_eq!(raw, "clik [3]");
            assert!(matches!(
                source,
                ActionParseError {
                    kind: ParseErrorKind::UnknownAction { .. },
                    ..
                }
            ));
        }
        other => panic!("{other:?}"),
    }
    let msg = failed(reply).to_string();
    assert!(msg.contains("did you mean `click`"), "{msg}");
}

#[test]
fn direct_reply_without_fence() {
    assert_eq!(found("click [3]").action, Action::Click { id: 3 });
    assert_eq!(found("\n  stop [N/A]  \n").raw, "stop [N/A]");
}

#[test]
fn multi_line_fence_without_summary() {
    let got = found("I will open the menu.\n```\nhover [42]\n```\n");
    assert_eq!(got.action, Action::Hover { id: 42 });
    assert_eq!(got.raw, "hover [42]");
}

#[test]
fn last_parsing_fence_wins_over_earlier_code() {
    let reply = "The page has this element:\n```html\n<button id=\"3\">Go</button>\n```\n\
                 I'll press it:\n```click [3]```\nThe JSON was:\n```json\n{\"a\": 1}\n```";
    assert_eq!(found(reply).action, Action::Click { id: 3 });
    let two_actions = "First ```click [1]``` then ```click [2]```";
    assert_eq!(found(two_actions).action, Action::Click { id: 2 });
}

#[test]
fn no_parsing_fence_reports_the_last_ones_error() {
    let reply = "```python\nprint(1)\n```\n and then ```scroll [sideways]```";
    match failed(reply) {
        ExtractError::Unparseable { raw, source } => {
            assert_eq!(raw, "scroll [sideways]");
            assert!(matches!(
                source,
                ActionParseError {
                    kind: ParseErrorKind::InvalidScrollDirection { .. },
                    ..
                }
            ));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn empty_fence_is_its_own_error() {
    assert_eq!(failed("Next: ```  ```"), ExtractError::EmptyFence);
    assert_eq!(
        failed("In summary, the next action I will perform is ```\n\n```"),
        ExtractError::EmptyFence
    );
    assert!(failed("``````").to_string().contains("empty"));
}

#[test]
fn go_back_alone_in_fence_is_not_a_language_tag() {
    assert_eq!(found("```go_back\n```").action, Action::GoBack);
}

#[test]
fn unclosed_fence_runs_to_end() {
    assert_eq!(found("Doing it: ```new_tab").action, Action::NewTab);
}

#[test]
fn prose_without_action_is_no_action() {
    let e = failed("I am not sure what to do here. Maybe look around.");
    assert_eq!(e, ExtractError::NoAction { parse_error: None });
    let msg = e.to_string();
    assert!(msg.contains("no action found"), "{msg}");
    assert!(msg.contains("```click [1234]```"), "{msg}");
    assert!(msg.contains("`type [id] [text] [1|0]`"), "{msg}");
    assert!(matches!(
        failed(""),
        ExtractError::NoAction { parse_error: None }
    ));
}

#[test]
fn single_line_near_miss_explains_itself() {
    match failed("click [abc]") {
        ExtractError::NoAction {
            parse_error:
                Some(ActionParseError {
                    kind: ParseErrorKind::InvalidId { token, .. },
                    ..
                }),
        } => assert_eq!(token, "abc"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn single_line_misspelt_action_gets_a_suggestion() {
    let e = failed("clik [3]");
    assert!(matches!(
        e,
        ExtractError::NoAction {
            parse_error: Some(ActionParseError {
                kind: ParseErrorKind::UnknownAction { .. },
                ..
            })
        }
    ));
    let msg = e.to_string();
    assert!(msg.contains("did you mean `click`"), "{msg}");
    // The grammar is listed once, by the parse error.
    assert_eq!(msg.matches("`hover [id]`").count(), 1, "{msg}");
}

#[test]
fn several_actions_are_refused() {
    assert_eq!(
        failed("stop [a]\nstop [b]"),
        ExtractError::SeveralActions { count: 2 }
    );
    assert_eq!(
        failed("```\nclick [1]\nclick [2]\n```"),
        ExtractError::SeveralActions { count: 2 }
    );
}

#[test]
fn type_text_with_brackets_inside_fence() {
    let reply = "In summary, the next action I will perform is ```type [5] [a [b] c] [0]```";
    assert_eq!(
        found(reply).action,
        Action::Type {
            id: 5,
            text: "a [b] c".into(),
            press_enter: false
        }
    );
}
