//! Parsing every action, typical and edge inputs, and every error kind.

use super::*;

fn p(s: &str) -> Action {
    Action::parse(s).unwrap_or_else(|e| panic!("{s:?} should parse: {e}"))
}

fn err(s: &str) -> ActionParseError {
    match Action::parse(s) {
        Ok(a) => panic!("{s:?} should not parse, got {a:?}"),
        Err(e) => e,
    }
}

fn ty(id: u32, text: &str, press_enter: bool) -> Action {
    Action::Type {
        id,
        text: text.into(),
        press_enter,
    }
}

#[test]
fn parses_id_actions() {
    assert_eq!(p("click [12]"), Action::Click { id: 12 });
    assert_eq!(p("hover [0]"), Action::Hover { id: 0 });
    assert_eq!(p("click  [ 12 ]"), Action::Click { id: 12 });
    assert_eq!(p("  Click[3]\n"), Action::Click { id: 3 });
    assert_eq!(p("CLICK [007]"), Action::Click { id: 7 });
    assert_eq!(p("click [4294967295]"), Action::Click { id: u32::MAX });
}

#[test]
fn parses_type_with_and_without_flag() {
    assert_eq!(
        p("type [164] [restaurants near CMU] [1]"),
        ty(164, "restaurants near CMU", true)
    );
    assert_eq!(p("type [5] [hello] [0]"), ty(5, "hello", false));
    assert_eq!(p("type [5] [hello]"), ty(5, "hello", true));
    assert_eq!(p("type [5] [hello]   [ 0 ]"), ty(5, "hello", false));
    // Text is typed verbatim, inner spaces included.
    assert_eq!(
        p("type [5] [ two  spaces ] [1]"),
        ty(5, " two  spaces ", true)
    );
}

#[test]
fn type_text_may_hold_brackets() {
    assert_eq!(p("type [5] [a [b] c] [0]"), ty(5, "a [b] c", false));
    assert_eq!(p("type [5] [a [b] c]"), ty(5, "a [b] c", true));
    assert_eq!(p("type [5] [see [1]] [1]"), ty(5, "see [1]", true));
    assert_eq!(p("type [5] [x [1]"), ty(5, "x [1", true));
    // A lone bracketed number is the text, not a flag.
    assert_eq!(p("type [5] [1]"), ty(5, "1", true));
    assert_eq!(p("type [5] [] [0]"), ty(5, "", false));
    assert_eq!(p("type [5] [日本語 ü] [1]"), ty(5, "日本語 ü", true));
}

#[test]
fn parses_press_and_scroll() {
    let press = |s: &str| match p(s) {
        Action::Press { key_comb } => key_comb.to_string(),
        other => panic!("{other:?}"),
    };
    assert_eq!(press("press [Enter]"), "Enter");
    assert_eq!(press("press [Control+v]"), "Control+v");
    assert_eq!(
        press("press [ctrl+shift+arrowleft]"),
        "Control+Shift+ArrowLeft"
    );
    assert_eq!(press("press []]"), "]");
    assert_eq!(press("press [Shift++]"), "Shift++");
    let down = Action::Scroll {
        direction: ScrollDirection::Down,
    };
    assert_eq!(p("scroll [down]"), down);
    assert_eq!(p("scroll [direction=down]"), down);
    assert_eq!(p("Scroll [ Direction = DOWN ]"), down);
    assert_eq!(
        p("scroll [up]"),
        Action::Scroll {
            direction: ScrollDirection::Up
        }
    );
}

#[test]
fn parses_tab_and_navigation_actions() {
    assert_eq!(p("new_tab"), Action::NewTab);
    assert_eq!(p("close_tab"), Action::CloseTab);
    assert_eq!(p("go_back"), Action::GoBack);
    assert_eq!(p("Go_Forward  "), Action::GoForward);
    assert_eq!(p("go_back []"), Action::GoBack);
    assert_eq!(p("tab_focus [0]"), Action::TabFocus { index: 0 });
    assert_eq!(p("tab_focus [ 2 ]"), Action::TabFocus { index: 2 });
    assert_eq!(
        p("goto [ https://example.com/a?b=[1] ]"),
        Action::Goto {
            url: "https://example.com/a?b=[1]".into()
        }
    );
}

#[test]
fn parses_stop_answers() {
    let stop = |a: &str| Action::Stop { answer: a.into() };
    assert_eq!(p("stop [N/A]"), stop("N/A"));
    assert_eq!(p("stop []"), stop(""));
    assert_eq!(p("stop [ $279.49 ]"), stop("$279.49"));
    assert_eq!(
        p("stop [the answer is [b], not [c]]"),
        stop("the answer is [b], not [c]")
    );
    assert_eq!(p("stop [line one\nline two]"), stop("line one\nline two"));
}

#[test]
fn prints_canonical_forms() {
    let cases = [
        ("click  [ 12 ]", "click [12]"),
        ("Hover [3]", "hover [3]"),
        ("type [12] [hello world]", "type [12] [hello world] [1]"),
        ("type [5] [a [b] c] [0]", "type [5] [a [b] c] [0]"),
        ("press [ctrl + v]", "press [Control+v]"),
        (
            "press [Cmd+Shift+arrowleft]",
            "press [Meta+Shift+ArrowLeft]",
        ),
        ("scroll [direction=down]", "scroll [down]"),
        ("NEW_TAB", "new_tab"),
        ("tab_focus [01]", "tab_focus [1]"),
        ("close_tab []", "close_tab"),
        ("goto [ http://x.org ]", "goto [http://x.org]"),
        ("go_back", "go_back"),
        ("go_forward", "go_forward"),
        ("stop [N/A]", "stop [N/A]"),
        ("stop [ ]", "stop []"),
    ];
    for (input, printed) in cases {
        assert_eq!(p(input).to_string(), printed, "{input}");
    }
}

#[test]
fn serde_is_internally_tagged() {
    let json = serde_json::to_value(ty(12, "hi", false)).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"kind": "type", "id": 12, "text": "hi", "press_enter": false})
    );
    let press: Action = serde_json::from_str(r#"{"kind":"press","key_comb":"Ctrl+c"}"#).unwrap();
    assert_eq!(press.to_string(), "press [Control+c]");
    let back: Action = serde_json::from_str(r#"{"kind":"new_tab"}"#).unwrap();
    assert_eq!(back, Action::NewTab);
    assert_eq!(
        serde_json::to_value(p("scroll [up]")).unwrap(),
        serde_json::json!({"kind": "scroll", "direction": "up"})
    );
}

#[test]
fn error_unknown_action_suggests_closest() {
    let e = err("clik [3]");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(1),
            kind: ParseErrorKind::UnknownAction {
                name: "clik".into(),
                suggestion: Some("click")
            }
        }
    );
    let msg = e.to_string();
    assert!(msg.contains("unknown action `clik`"), "{msg}");
    assert!(msg.contains("did you mean `click`?"), "{msg}");
    assert!(msg.contains("`type [id] [text] [1|0]`"), "{msg}");
    let far = err("  navigate [x]");
    assert_eq!(far.column(), Some(3));
    assert!(!far.to_string().contains("did you mean"), "{far}");
}

#[test]
fn error_empty_and_no_name() {
    assert_eq!(err("   \n").kind, ParseErrorKind::Empty);
    assert!(err("").to_string().contains("`click [id]`"));
    let e = err("[3] click");
    assert_eq!(e.column(), Some(1));
    assert!(e.to_string().contains("found `[3]`"), "{e}");
}

#[test]
fn error_missing_argument_names_action_and_format() {
    let e = err("click");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(6),
            kind: ParseErrorKind::MissingArgument {
                kind: ActionKind::Click,
                argument: "id"
            }
        }
    );
    assert!(
        e.to_string()
            .contains("missing id for `click` at column 6 (expected `click [id]`)"),
        "{e}"
    );
    assert!(matches!(
        err("click []"),
        ActionParseError {
            column: Some(8),
            kind: ParseErrorKind::MissingArgument { .. }
        }
    ));
    let e = err("type [3]");
    assert!(e.to_string().contains("missing text for `type`"), "{e}");
    assert!(matches!(
        err("goto [ ]"),
        ActionParseError {
            kind: ParseErrorKind::MissingArgument { .. },
            ..
        }
    ));
    assert!(matches!(
        err("press []"),
        ActionParseError {
            kind: ParseErrorKind::MissingArgument { .. },
            ..
        }
    ));
    assert!(err("stop")
        .to_string()
        .contains("missing answer for `stop`"));
}

#[test]
fn error_expected_bracket() {
    let e = err("click 12");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(7),
            kind: ParseErrorKind::ExpectedBracket {
                kind: ActionKind::Click,
                argument: "id",
                found: "12".into()
            }
        }
    );
    assert!(e.to_string().contains("expected `click [id]`"), "{e}");
}

#[test]
fn error_id_not_a_number() {
    let e = err("click [abc]");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(8),
            kind: ParseErrorKind::InvalidId {
                kind: ActionKind::Click,
                token: "abc".into()
            }
        }
    );
    assert!(
        e.to_string()
            .contains("id `abc` at column 8 is not a number"),
        "{e}"
    );
    assert!(e.to_string().contains("`click [id]`"), "{e}");
    assert!(matches!(
        err("hover [-1]"),
        ActionParseError {
            kind: ParseErrorKind::InvalidId { .. },
            ..
        }
    ));
    assert!(matches!(
        err("click [+1]"),
        ActionParseError {
            kind: ParseErrorKind::InvalidId { .. },
            ..
        }
    ));
    assert!(matches!(
        err("click [4294967296]"),
        ActionParseError {
            kind: ParseErrorKind::InvalidId { .. },
            ..
        }
    ));
    let e = err("type [x] [hi] [1]");
    assert!(e.to_string().contains("`type [id] [text] [1|0]`"), "{e}");
}

#[test]
fn error_bad_tab_index_and_scroll_direction() {
    let e = err("tab_focus [-1]");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(12),
            kind: ParseErrorKind::InvalidTabIndex { token: "-1".into() }
        }
    );
    assert!(e.to_string().contains("`tab_focus [index]`"), "{e}");
    let e = err("scroll [sideways]");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(9),
            kind: ParseErrorKind::InvalidScrollDirection {
                token: "sideways".into()
            }
        }
    );
    assert!(
        e.to_string().contains("bad scroll direction `sideways`"),
        "{e}"
    );
    assert!(e.to_string().contains("expected up or down"), "{e}");
}

#[test]
fn error_bad_enter_flag() {
    let e = err("type [5] [hi] [2]");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(16),
            kind: ParseErrorKind::InvalidEnterFlag { token: "2".into() }
        }
    );
    assert!(e.to_string().contains("must be 1"), "{e}");
}

#[test]
fn error_unknown_key_has_column_in_action() {
    let e = err("press [Cntrl+v]");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(8),
            kind: ParseErrorKind::UnknownKey {
                key: "Cntrl".into(),
                suggestion: Some("Control")
            }
        }
    );
    assert!(
        e.to_string().contains("unknown key `Cntrl` in `press`"),
        "{e}"
    );
    let e = err("press [Control+Shift]");
    assert!(
        matches!(
            e,
            ActionParseError {
                column: Some(16),
                kind: ParseErrorKind::MalformedKeyCombo { .. }
            }
        ),
        "{e:?}"
    );
}

#[test]
fn error_unbalanced_bracket() {
    let e = err("click [12");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(7),
            kind: ParseErrorKind::UnbalancedBracket {
                kind: ActionKind::Click
            }
        }
    );
    assert!(e.to_string().contains("never closed"), "{e}");
    assert!(matches!(
        err("type [3] [hello"),
        ActionParseError {
            column: Some(10),
            kind: ParseErrorKind::UnbalancedBracket { .. }
        }
    ));
    assert!(matches!(
        err("stop [N/A"),
        ActionParseError {
            kind: ParseErrorKind::UnbalancedBracket { .. },
            ..
        }
    ));
}

#[test]
fn error_unexpected_trailing_text() {
    let e = err("click [3] [4]");
    assert_eq!(
        e,
        ActionParseError {
            column: Some(11),
            kind: ParseErrorKind::UnexpectedText {
                kind: ActionKind::Click,
                text: "[4]".into()
            }
        }
    );
    assert!(e.to_string().contains("expected `click [id]`"), "{e}");
    assert!(matches!(
        err("go_back now"),
        ActionParseError {
            column: Some(9),
            kind: ParseErrorKind::UnexpectedText { .. }
        }
    ));
    assert!(matches!(
        err("stop [42] because"),
        ActionParseError {
            kind: ParseErrorKind::UnexpectedText { .. },
            ..
        }
    ));
    assert!(matches!(
        err("new_tab [1]"),
        ActionParseError {
            kind: ParseErrorKind::UnexpectedText { .. },
            ..
        }
    ));
    assert!(matches!(
        err("click [3]."),
        ActionParseError {
            kind: ParseErrorKind::UnexpectedText { .. },
            ..
        }
    ));
}

#[test]
fn from_str_matches_parse() {
    let a: Action = "click [3]".parse().unwrap();
    assert_eq!(a, Action::Click { id: 3 });
    assert!("clack".parse::<Action>().is_err());
    assert_eq!(p("type [1] [x]").kind(), ActionKind::Type);
}

#[test]
fn messages_name_the_column_token_and_format() {
    let cases = [
        (
            "click 12",
            "expected `[` to open the id of `click` at column 7, found `12` (expected `click [id]`)",
        ),
        (
            "click [abc]",
            "id `abc` at column 8 is not a number: element ids are whole numbers such as 42 (expected `click [id]`)",
        ),
        (
            "scroll [left]",
            "bad scroll direction `left` at column 9: expected up or down (expected `scroll [up|down]`, e.g. `scroll [down]`)",
        ),
        (
            "click [12",
            "unbalanced bracket in `click`: `[` at column 7 is never closed by `]` (expected `click [id]`)",
        ),
        (
            "click [3] [4]",
            "unexpected text `[4]` after the `click` action at column 11 (expected `click [id]`)",
        ),
    ];
    for (input, message) in cases {
        assert_eq!(err(input).to_string(), message, "{input}");
    }
}
