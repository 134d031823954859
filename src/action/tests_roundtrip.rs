//! Property tests: printing is canonical and parsing tolerates sloppy spellings.

use proptest::prelude::*;

use super::*;

/// Text built from fragments that make bracket splitting hard (a text ending in
/// `] [1` looks like a flag), plus unicode and random printable characters.
fn any_text() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        prop::sample::select(vec![
            "[", "]", " ", "[1]", "] [0", "] [1", "]  [ 1 ", "] [2", "0", "1", "\n", "é", "中",
            "😀", "N/A", "$279.49",
        ])
        .prop_map(str::to_string),
        proptest::char::range('!', '~').prop_map(|c| c.to_string()),
    ];
    proptest::collection::vec(fragment, 0..10).prop_map(|parts| parts.concat())
}

fn key_combo() -> impl Strategy<Value = KeyCombo> {
    let key = prop_oneof![
        proptest::char::range('!', '~').prop_map(|c| c.to_string()),
        Just("é".to_string()),
        prop::sample::select(vec![
            "Enter",
            "Tab",
            "ArrowLeft",
            "PageDown",
            "Space",
            "F11"
        ])
        .prop_map(str::to_string),
    ];
    (
        prop::sample::subsequence(vec!["Control", "Shift", "Alt", "Meta"], 0..=4),
        key,
    )
        .prop_map(|(mods, key)| {
            let mut text: String = mods.iter().map(|m| format!("{m}+")).collect();
            text.push_str(&key);
            KeyCombo::parse(&text).unwrap()
        })
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        any::<u32>().prop_map(|id| Action::Click { id }),
        any::<u32>().prop_map(|id| Action::Hover { id }),
        (any::<u32>(), any_text(), any::<bool>()).prop_map(|(id, text, press_enter)| {
            Action::Type {
                id,
                text,
                press_enter,
            }
        }),
        key_combo().prop_map(|key_comb| Action::Press { key_comb }),
        prop_oneof![Just(ScrollDirection::Up), Just(ScrollDirection::Down)]
            .prop_map(|direction| Action::Scroll { direction }),
        Just(Action::NewTab),
        any::<u32>().prop_map(|index| Action::TabFocus { index }),
        Just(Action::CloseTab),
        // The parser trims urls and answers, so canonical values carry no outer spaces.
        any_text()
            .prop_filter_map("url needs text", |t| {
                let url = t.trim();
                (!url.is_empty()).then(|| format!("https://{url}"))
            })
            .prop_map(|url| Action::Goto { url }),
        Just(Action::GoBack),
        Just(Action::GoForward),
        any_text().prop_map(|t| Action::Stop {
            answer: t.trim().to_string()
        }),
    ]
}

/// Whitespace that the grammar allows between tokens.
fn gap() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", " ", "  ", "\t", " \n "])
}

/// A sloppy but valid spelling of `action`: random case of the name, extra
/// whitespace outside free text, WebArena's `direction=`, modifier aliases, and
/// an omitted enter flag where that means the same.
fn sloppy(action: Action) -> impl Strategy<Value = (Action, String)> {
    (
        proptest::collection::vec(any::<bool>(), 12),
        proptest::collection::vec(gap(), 6),
        any::<bool>(),
    )
        .prop_map(move |(upper, g, variant)| {
            let name: String = action
                .kind()
                .name()
                .chars()
                .zip(upper.iter().cycle())
                .map(|(c, up)| if *up { c.to_ascii_uppercase() } else { c })
                .collect();
            let head = format!("{}{name}{}", g[0], g[1]);
            let args = match &action {
                Action::Click { id } | Action::Hover { id } => format!("[{}{id}{}]", g[2], g[3]),
                Action::TabFocus { index } => format!("[{}{index}{}]", g[2], g[3]),
                Action::Type {
                    id,
                    text,
                    press_enter,
                } => {
                    let flag = match (press_enter, variant) {
                        // Only a text that cannot be mistaken for "text] [flag" may drop its flag.
                        (true, true) if !text.contains(']') => String::new(),
                        (true, _) => format!("{}[{}1{}]", g[4], g[2], g[3]),
                        (false, _) => format!("{}[{}0{}]", g[4], g[2], g[3]),
                    };
                    format!("[{}{id}{}]{}[{text}]{flag}", g[2], g[3], g[4])
                }
                Action::Press { key_comb } => {
                    let spelled = key_comb
                        .to_string()
                        .replace("Control+", if variant { "ctrl + " } else { "Control+" })
                        .replace("Meta+", if variant { "Cmd+" } else { "META+" });
                    format!("[{}{spelled}{}]", g[2], g[3])
                }
                Action::Scroll { direction } => {
                    let word = direction.as_str();
                    let word = if variant {
                        format!("direction{}={}{word}", g[2], g[3])
                    } else {
                        word.to_uppercase()
                    };
                    format!("[{}{word}{}]", g[4], g[5])
                }
                Action::Goto { url } => format!("[{}{url}{}]", g[2], g[3]),
                Action::Stop { answer } => format!("[{}{answer}{}]", g[2], g[3]),
                Action::NewTab | Action::CloseTab | Action::GoBack | Action::GoForward => {
                    if variant {
                        format!("[{}]", g[2])
                    } else {
                        String::new()
                    }
                }
            };
            (action.clone(), format!("{head}{args}{}", g[5]))
        })
}

/// Action-like strings, many of them invalid, for the "any valid input" property.
fn action_like() -> impl Strategy<Value = String> {
    let name = prop::sample::select(vec![
        "click",
        "Type",
        "press",
        "scroll",
        "goto",
        "stop",
        "tab_focus",
        "go_back",
        "new_tab",
    ]);
    let arg = prop_oneof![
        any::<u8>().prop_map(|n| format!("[{n}]")),
        any_text().prop_map(|t| format!("[{t}]")),
        Just("[direction=up]".to_string()),
        Just("[ctrl+a]".to_string()),
    ];
    (name, proptest::collection::vec((gap(), arg), 0..4)).prop_map(|(name, args)| {
        let mut s = name.to_string();
        for (g, a) in args {
            s.push_str(g);
            s.push_str(&a);
        }
        s
    })
}

proptest! {
    #[test]
    fn printing_is_read_back_exactly(a in action()) {
        let printed = a.to_string();
        let parsed = Action::parse(&printed);
        prop_assert_eq!(parsed.as_ref(), Ok(&a), "printed: {:?}", printed);
        prop_assert_eq!(parsed.map(|p| p.to_string()), Ok(printed));
    }

    #[test]
    fn sloppy_spellings_parse_to_the_same_action(
        (a, text) in action().prop_flat_map(sloppy)
    ) {
        let parsed = Action::parse(&text);
        prop_assert_eq!(parsed.as_ref(), Ok(&a), "input: {:?}", text);
        let reprinted = Action::parse(&a.to_string());
        prop_assert_eq!(reprinted, parsed);
    }

    #[test]
    fn any_valid_input_is_canonical_after_one_print(x in action_like()) {
        if let Ok(first) = Action::parse(&x) {
            let printed = first.to_string();
            let again = Action::parse(&printed);
            prop_assert_eq!(again.as_ref(), Ok(&first), "input {:?} printed {:?}", x, printed);
            prop_assert_eq!(again.map(|a| a.to_string()), Ok(printed));
        }
    }

    #[test]
    fn arbitrary_text_never_panics_and_errors_point_inside(x in "\\PC{0,40}") {
        if let Err(e) = Action::parse(&x) {
            if let Some(column) = e.column() {
                prop_assert!(column >= 1 && column <= x.len() + 1, "{} for {:?}", e, x);
            }
        }
        let _ = extract_action(&x);
    }

    #[test]
    fn serde_json_round_trips(a in action()) {
        let json = serde_json::to_string(&a).unwrap();
        let back: Action = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, a);
    }

    #[test]
    fn extraction_finds_any_printed_action_in_a_summary(a in action()) {
        // A fence inside the action text would end the fence early, and the
        // generated texts never contain backticks, so this is always well-formed.
        let reply = format!(
            "Let's think step-by-step. ...\nIn summary, the next action I will perform is ```{a}```"
        );
        let got = extract_action(&reply);
        // Multi-line free text may contain whole action lines, which extraction refuses
        // on purpose; everything else must come back unchanged.
        if let Err(ExtractError::SeveralActions { .. }) = got {
            return Ok(());
        }
        prop_assert_eq!(got.map(|e| e.action), Ok(a));
    }
}

/// The stored JSON of an action is read by `serde_read.rs`, not serde's tagged derive:
/// it must accept what the derive accepted and refuse what it refused, by name.
#[test]
fn stored_actions_read_with_extra_fields_and_name_what_is_missing() {
    let click: Action = serde_json::from_str(r#"{"kind":"click","id":7,"note":"x"}"#).unwrap();
    assert_eq!(click, Action::Click { id: 7 });
    let back: Action = serde_json::from_str(r#"{"kind":"go_back"}"#).unwrap();
    assert_eq!(back, Action::GoBack);

    let missing = serde_json::from_str::<Action>(r#"{"kind":"type","id":3,"press_enter":true}"#)
        .unwrap_err()
        .to_string();
    assert!(missing.starts_with("missing field `text`"), "{missing}");
    let no_kind = serde_json::from_str::<Action>(r#"{"id":3}"#)
        .unwrap_err()
        .to_string();
    assert!(no_kind.starts_with("missing field `kind`"), "{no_kind}");
    let unknown = serde_json::from_str::<Action>(r#"{"kind":"fly"}"#)
        .unwrap_err()
        .to_string();
    assert!(unknown.starts_with("unknown variant `fly`"), "{unknown}");
    let bad_key = serde_json::from_str::<Action>(r#"{"kind":"press","key_comb":"Cntrl+a"}"#);
    assert!(bad_key.is_err());
}
