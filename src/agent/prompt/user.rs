//! The user turn: the current observation, URL, objective, previous action and any
//! feedback as text, with the images or screenshot the observation mode asks for.

use crate::agent::config::ObservationMode;
use crate::agent::events::{ObservedImage, Picture};
use crate::model::Part;

pub struct TurnInput<'a> {
    pub observation: &'a str,
    pub url: &'a str,
    pub objective: &'a str,
    /// Already rendered with its element, or `None` at the start.
    pub previous_action: &'a str,
    pub feedback: Option<&'a str>,
}

pub fn turn_text(input: &TurnInput) -> String {
    let mut text = format!(
        "OBSERVATION:\n{}\nURL: {}\nOBJECTIVE: {}\nPREVIOUS ACTION: {}",
        input.observation, input.url, input.objective, input.previous_action
    );
    if let Some(feedback) = input.feedback {
        text.push_str("\nFEEDBACK: ");
        text.push_str(feedback);
    }
    text
}

/// The turn as message parts: the text first, then the pictures of the mode, each
/// introduced by a line that says what it is (images by their element id, which is
/// also painted on them). Pictures a mode does not use are left out even if given.
pub fn turn_parts(
    text: String,
    mode: ObservationMode,
    images: &[ObservedImage],
    screenshot: Option<&Picture>,
) -> Vec<Part> {
    let mut parts = vec![Part::text(text)];
    let mut picture = |label: String, mime: &str, base64: &str| {
        parts.push(Part::text(label));
        parts.push(Part::Image {
            mime: mime.to_string(),
            base64: base64.to_string(),
        });
    };
    match mode {
        ObservationMode::Text => {}
        ObservationMode::TextImages => {
            for image in images {
                picture(
                    format!("IMAGE of element [{}]:", image.id),
                    &image.mime,
                    &image.base64,
                );
            }
        }
        ObservationMode::TextScreenshot | ObservationMode::Som => {
            if let Some(shot) = screenshot {
                picture("SCREENSHOT:".to_string(), &shot.mime, &shot.base64);
            }
        }
    }
    parts
}
