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
    assert!(msg.contains("```click [ID]```"), "{msg}");
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

/// True when `text` holds a number in brackets, the shape of an element id a model
/// could copy from an example.
fn has_bracketed_number(text: &str) -> bool {
    text.split('[').skip(1).any(|after| {
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && after[digits..].starts_with(']')
    })
}

#[test]
fn prose_with_a_single_backtick_action_yields_that_action() {
    // The reply that once got "unknown action `The` at column 1; did you mean `type`?".
    let got = found("The page shows a search box. `click [21]`");
    assert_eq!(got.action, Action::Click { id: 21 });
    assert_eq!(got.raw, "click [21]");
    let multi_line =
        found("The results are listed below.\nI will open the first one: `click [48]`.\n");
    assert_eq!(multi_line.action, Action::Click { id: 48 });
}

#[test]
fn the_last_backtick_span_that_parses_wins() {
    let reply = "I could `scroll [down]`, but the link is visible, so `click [7]`.";
    assert_eq!(found(reply).action, Action::Click { id: 7 });
    // Code spans that are not actions (role names, page text) are passed over.
    let reply = "The `link` labelled `Tokyo` is what I need: `click [7]` and not the `StaticText`.";
    assert_eq!(found(reply).action, Action::Click { id: 7 });
}

#[test]
fn a_stray_backtick_does_not_shift_the_spans_of_later_lines() {
    let reply = "Backticks like ` are easy to miss.\nSo: `hover [3]`";
    assert_eq!(found(reply).action, Action::Hover { id: 3 });
}

#[test]
fn a_misspelt_action_in_backticks_is_quoted_back_with_the_parsers_reason() {
    let e = failed("The search box is there, so I will `clik [7]` on it.");
    match &e {
        ExtractError::Unparseable { raw, .. } => assert_eq!(raw, "clik [7]"),
        other => panic!("{other:?}"),
    }
    let msg = e.to_string();
    assert!(
        msg.starts_with("the action `clik [7]` does not parse"),
        "{msg}"
    );
    assert!(msg.contains("did you mean `click`"), "{msg}");
}

#[test]
fn backtick_text_that_is_no_action_at_all_is_quoted_back() {
    let e = failed("The price is in the `StaticText '$96 per night'` line.");
    assert_eq!(
        e,
        ExtractError::NotAnAction {
            span: "StaticText '$96 per night'".into()
        }
    );
    let msg = e.to_string();
    assert!(
        msg.starts_with(
            "no action found in the reply: the text in backticks, `StaticText '$96 per night'`, \
             is not an action"
        ),
        "{msg}"
    );
    assert!(msg.contains("```click [ID]```"), "{msg}");
    assert!(msg.contains("`scroll [up|down]`"), "{msg}");
    // A bare id in backticks is not an action either, and is said so.
    assert_eq!(
        failed("I pick `[12]`."),
        ExtractError::NotAnAction {
            span: "[12]".into()
        }
    );
}

#[test]
fn a_long_span_is_quoted_shortened() {
    let long = "word ".repeat(40);
    match failed(&format!("Here: `{long}`")) {
        ExtractError::NotAnAction { span } => {
            assert_eq!(span.chars().count(), 81, "{span}");
            assert!(span.ends_with('…'));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn prose_opening_with_a_word_like_an_action_name_gets_no_suggestion() {
    // "The" is close to `type`, but a sentence is not an attempt at an action.
    let e = failed("The answer is not on this page.");
    assert_eq!(e, ExtractError::NoAction { parse_error: None });
    assert!(!e.to_string().contains("did you mean"), "{e}");
    // A near miss used like an action still gets one.
    assert!(failed("scrol [down]")
        .to_string()
        .contains("did you mean `scroll`"));
    assert!(failed("go_bak")
        .to_string()
        .contains("did you mean `go_back`"));
}

#[test]
fn the_messages_hold_no_id_a_model_could_copy() {
    for reply in [
        "I am not sure what to do here.",
        "```  ```",
        "```\nclick [1]\nclick [2]\n```",
        "The `StaticText` says nothing.",
        "clik [3]",
    ] {
        let msg = failed(reply).to_string();
        let own: Vec<&str> = ["[1]", "[2]", "[3]"]
            .into_iter()
            .filter(|id| reply.contains(id))
            .collect();
        let mut rest = msg.clone();
        for id in own {
            rest = rest.replace(id, "");
        }
        assert!(!has_bracketed_number(&rest), "{reply:?}: {msg}");
    }
}
