//! What each prompt must contain, checked the way a person reading it would.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use super::*;
use crate::action::{extract_action, Action, ActionKind, ExtractError};
use crate::agent::events::{ObservedImage, Picture};
use crate::model::Part;

const STYLES: [PromptStyle; 2] = [PromptStyle::Cot, PromptStyle::Direct];
const MODES: [ObservationMode; 4] = [
    ObservationMode::Text,
    ObservationMode::TextImages,
    ObservationMode::TextScreenshot,
    ObservationMode::Som,
];

#[test]
fn each_style_carries_its_two_examples_laid_out_like_a_real_turn() {
    for style in STYLES {
        let system = system_prompt(style, ObservationMode::Text);
        for (i, example) in EXAMPLES.iter().enumerate() {
            let turn = turn_text(&TurnInput {
                observation: example.observation,
                url: example.url,
                objective: example.objective,
                previous_action: example.previous_action,
                feedback: None,
            });
            assert!(
                system.contains(&format!("Example {}\n\n{turn}", i + 1)),
                "{style:?} example {i}"
            );
            let reply = match style {
                PromptStyle::Cot => example.cot_reply,
                PromptStyle::Direct => example.direct_reply,
            };
            assert!(
                system.contains(&format!("REPLY:\n{reply}")),
                "{style:?} example {i} reply"
            );
        }
        assert!(!system.contains("Example 3"));
    }
}

#[test]
fn every_example_reply_yields_a_valid_action_on_an_element_it_shows() {
    for example in &EXAMPLES {
        let cot = extract_action(example.cot_reply).unwrap();
        let direct = extract_action(example.direct_reply).unwrap();
        assert_eq!(cot.action, direct.action, "both styles take the same step");
        assert!(example.cot_reply.starts_with("Let's think step by step."));
        let summary = example
            .cot_reply
            .rsplit("In summary, the next action I will perform is")
            .next()
            .unwrap();
        assert_eq!(summary.trim(), format!("```{}```", cot.raw));
        assert_eq!(
            Action::parse(&cot.raw).unwrap().to_string(),
            cot.raw,
            "canonical spelling"
        );
        if let Action::Click { id } = cot.action {
            assert!(crate::agent::element_text(example.observation, id).is_some());
        }
    }
}

#[test]
fn the_system_prompt_lists_all_twelve_actions_grouped_and_the_rules() {
    for style in STYLES {
        let system = system_prompt(style, ObservationMode::Text);
        for kind in ActionKind::ALL {
            assert!(
                system.contains(&format!("`{}`", kind.usage())),
                "{kind:?} missing"
            );
        }
        for group in [
            "Page operations:",
            "Tab management:",
            "URL navigation:",
            "Completion:",
        ] {
            assert!(system.contains(group));
        }
        assert!(system.contains("exactly one action per reply"));
        assert!(system.contains("`stop [N/A]`"));
        assert!(system.contains("Nothing you write after a `stop` is carried out"));
    }
    let cot = system_prompt(PromptStyle::Cot, ObservationMode::Text);
    assert!(cot.contains("\"In summary, the next action I will perform is\" followed by the action between triple backticks"));
    let direct = system_prompt(PromptStyle::Direct, ObservationMode::Text);
    assert!(direct.contains("Reply with the action alone"));
    assert!(!direct.contains("Let's think step by step"));
}

#[test]
fn the_system_prompt_describes_what_each_mode_shows() {
    let texts: Vec<String> = MODES
        .iter()
        .map(|m| system_prompt(PromptStyle::Cot, *m))
        .collect();
    assert!(!texts[0].contains("IMAGES:") && !texts[0].contains("SCREENSHOT:"));
    assert!(texts[1].contains("IMAGES: the pictures visible on screen"));
    assert!(texts[2].contains("SCREENSHOT: a picture of the visible part"));
    assert!(texts[3].contains("a box drawn around each element"));
}

#[test]
fn the_turn_has_observation_url_objective_previous_action_and_feedback() {
    let observation = "Tab 0 (current): Wiki\n\n[1] RootWebArea 'Wiki'\n\t[12] link 'Tokyo'";
    let previous = previous_action_text(&Action::Click { id: 12 }, observation);
    assert_eq!(previous, "click [12] where [12] is link 'Tokyo'");
    let typed = Action::Type {
        id: 12,
        text: "x".into(),
        press_enter: false,
    };
    assert_eq!(
        previous_action_text(&typed, observation),
        "type [12] [x] [0] where [12] is link 'Tokyo'"
    );
    assert_eq!(
        previous_action_text(&Action::GoBack, observation),
        "go_back"
    );

    let feedback = malformed_feedback(
        PromptStyle::Direct,
        &ExtractError::NoAction { parse_error: None },
    );
    let turn = turn_text(&TurnInput {
        observation,
        url: "http://wiki.test/",
        objective: "Find the red tower.",
        previous_action: &previous,
        feedback: Some(&feedback),
    });
    assert_eq!(
        turn,
        format!(
            "OBSERVATION:\n{observation}\nURL: http://wiki.test/\nOBJECTIVE: Find the red tower.\n\
             PREVIOUS ACTION: click [12] where [12] is link 'Tokyo'\nFEEDBACK: {feedback}"
        )
    );
    assert!(feedback.contains("Reply with one action from the list between triple backticks"));
}

#[test]
fn a_missing_element_is_named_in_the_feedback() {
    let observation = "[1] RootWebArea 'Wiki'\n\t[12] link 'Tokyo'";
    let missing = act_failed_feedback(&Action::Hover { id: 5 }, observation, "unknown id");
    assert_eq!(
        missing,
        "`hover [5]` was not carried out: there is no element [5] on the page (unknown id). \
         Use only ids shown in the current observation."
    );
    let other = act_failed_feedback(
        &Action::Click { id: 12 },
        observation,
        "the element is hidden",
    );
    assert_eq!(other, "`click [12]` failed: the element is hidden.");
}

#[test]
fn pictures_follow_the_text_as_the_mode_asks() {
    let images = [ObservedImage {
        id: 7,
        mime: "image/png".into(),
        base64: "SU1H".into(),
    }];
    let shot = Picture {
        mime: "image/jpeg".into(),
        base64: "U0hPVA==".into(),
    };
    let parts = |mode| turn_parts("turn".into(), mode, &images, Some(&shot));
    assert_eq!(parts(ObservationMode::Text), [Part::text("turn")]);
    assert_eq!(
        parts(ObservationMode::TextImages),
        [
            Part::text("turn"),
            Part::text("IMAGE of element [7]:"),
            Part::Image {
                mime: "image/png".into(),
                base64: "SU1H".into()
            }
        ]
    );
    for mode in [ObservationMode::TextScreenshot, ObservationMode::Som] {
        assert_eq!(
            parts(mode),
            [
                Part::text("turn"),
                Part::text("SCREENSHOT:"),
                Part::Image {
                    mime: "image/jpeg".into(),
                    base64: "U0hPVA==".into()
                }
            ]
        );
    }
}

#[test]
fn the_compact_format_is_described_and_shown_in_its_examples() {
    for style in STYLES {
        let compact = system_prompt_with_memory(
            style,
            ObservationMode::Text,
            ObservationFormat::Compact,
            None,
        );
        let mmina = system_prompt(style, ObservationMode::Text);
        assert!(
            compact.contains("text on the page as a plain line"),
            "{compact}"
        );
        assert!(!compact.contains("indented under"), "{compact}");
        assert!(mmina.contains("indented under the element that contains it"));
        // The examples as the compact format writes them: the elements the replies
        // name keep their ids, text loses its id, nothing is indented.
        assert!(compact.contains("\n[37] link 'Mount Fuji'\n"), "{compact}");
        assert!(
            compact.contains("\nActive volcano on Honshu; at 3,776 m the tallest peak of Japan.\n")
        );
        assert!(compact.contains("\n$96 per night\n"));
        assert!(!compact.contains("StaticText"));
        assert!(!compact.contains("RootWebArea"));
        assert!(!compact.contains("\n\t["));
        assert!(mmina.contains("\t[38] StaticText 'Active volcano"));
        assert!(compact.len() < mmina.len());
    }
}

#[test]
fn malformed_feedback_writes_the_format_with_a_placeholder_and_quotes_the_mistake() {
    let mistake = extract_action("The price shows in `StaticText '$96 per night'`.").unwrap_err();
    for style in STYLES {
        let feedback = malformed_feedback(style, &mistake);
        assert!(
            feedback.contains("`StaticText '$96 per night'`"),
            "{feedback}"
        );
        assert!(feedback.contains("```click [ID]```"), "{feedback}");
        assert!(
            feedback.contains("ID is the number in brackets before the element you chose"),
            "{feedback}"
        );
        // No number in brackets anywhere: nothing a model could copy as an id.
        let bracketed_number = feedback.split('[').skip(1).any(|after| {
            let digits = after.chars().take_while(char::is_ascii_digit).count();
            digits > 0 && after[digits..].starts_with(']')
        });
        assert!(!bracketed_number, "{style:?}: {feedback}");
    }
}
