//! The parts of an exported trajectory (`trajectories/<task>.json`, written by the
//! runner from EXPORT_RUN) that the viewer page shows. Every field is optional: a page
//! with gaps is more useful than no page, and the export may gain fields.
//!
//! Media: the runner writes each data URL of the export out as an image file beside
//! the JSON and puts the file name in its place, so `media` maps a media id to a file
//! name and a step's `screenshot` / `page_screenshot` / `images` hold media ids (or
//! file names directly). Exports before version 2 referred to images by their element
//! id alone (a number), and such keys collided across steps and runs: a number is the
//! step's picture only when its media entry names that step; otherwise the picture was
//! lost, and is said to be, never shown as another step's. Version 2 marks the pictures
//! its store upgrade found lost as `{lost: <why>, element: <id>}`.

use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Trajectory {
    pub run: Value,
    pub task: Value,
    pub settings: Value,
    pub steps: Vec<Step>,
    pub media: Value,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Step {
    pub step: Option<u64>,
    pub observation: Option<Observation>,
    /// The prompt the model was given; the viewer reads its `observation_cut`.
    pub prompt: Option<Value>,
    pub reply: Option<Reply>,
    /// `{error: {kind, message, hint}, attempts}` when the model call failed for good.
    pub model_error: Option<Value>,
    pub action: Option<Value>,
    pub result: Option<Value>,
    pub progress: Option<Value>,
    pub timings: Option<Value>,
    pub tokens: Option<Value>,
    pub note: Option<Value>,
    /// The modular agent's stage inputs and outputs (`{log, ...}`); see diagnosis.
    pub stages: Option<Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Observation {
    pub text: Option<String>,
    pub url: Option<String>,
    pub images: Vec<Value>,
    /// The picture the model was given (screenshot or set-of-marks).
    pub screenshot: Option<Value>,
    /// A screenshot for the reader only, in modes that give the model no picture.
    pub page_screenshot: Option<Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Reply {
    pub text: Option<String>,
    /// A person's own agent's reasons (its `text` is the action alone).
    #[serde(default)]
    pub reasoning: Option<String>,
}

/// Where an image of the page is: a file beside the page, or an inline data URL
/// (when the writer left one in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageSource {
    File(String),
    DataUrl(String),
}

impl ImageSource {
    /// The value for `src`; a file name needs no escaping beyond HTML's.
    pub fn src(&self) -> &str {
        match self {
            ImageSource::File(name) | ImageSource::DataUrl(name) => name,
        }
    }
}

/// One picture reference of a step, as the viewer shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picture {
    Shown(ImageSource),
    /// A picture the recording lost: the element it showed (when known) and why.
    Lost {
        element: Option<u64>,
        why: String,
    },
}

/// Why a version 1 number does not stand for this step's picture.
pub const LOST_BEFORE_V2: &str = "this picture was overwritten before hopbench stored media \
     per run and step (a later step or run showed an element with the same id)";

impl Trajectory {
    pub fn parse(text: &str) -> Result<Trajectory, String> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            format!("`{path}`: {}", e.into_inner())
        })
    }

    /// A step's image references in order: each resolved to a picture, or lost (a
    /// `{lost}` marker, or a version 1 number whose entry is another step's). References
    /// that resolve to nothing showable are left out.
    pub fn step_images(&self, step: &Step) -> Vec<Picture> {
        let Some(obs) = &step.observation else {
            return Vec::new();
        };
        obs.images
            .iter()
            .filter_map(|reference| match reference {
                Value::Number(n) => Some(self.numbered_image(n.as_u64(), step.step)),
                Value::Object(o) if o.contains_key("lost") => Some(Picture::Lost {
                    element: o.get("element").and_then(Value::as_u64),
                    why: o
                        .get("lost")
                        .and_then(Value::as_str)
                        .unwrap_or(LOST_BEFORE_V2)
                        .to_string(),
                }),
                other => self.image(other).map(Picture::Shown),
            })
            .collect()
    }

    /// A version 1 reference: the element id, which was also the media key.
    fn numbered_image(&self, element: Option<u64>, step: Option<u64>) -> Picture {
        let lost = Picture::Lost {
            element,
            why: LOST_BEFORE_V2.to_string(),
        };
        let Some(key) = element.map(|n| n.to_string()) else {
            return lost;
        };
        let entry = self.media_entry(&key);
        let same_step = step.is_some()
            && entry
                .as_ref()
                .and_then(|e| e.get("step"))
                .and_then(Value::as_u64)
                == step;
        if !same_step {
            return lost;
        }
        match entry.as_ref().and_then(media_target).and_then(image_source) {
            Some(source) => Picture::Shown(source),
            None => lost,
        }
    }

    fn media_entry(&self, key: &str) -> Option<Value> {
        match &self.media {
            Value::Object(map) => map.get(key).cloned(),
            Value::Array(items) => items
                .iter()
                .find(|m| m.get("id").and_then(Value::as_str) == Some(key))
                .cloned(),
            _ => None,
        }
    }

    /// Resolves a step's media reference (a media id, a file name, or an object with
    /// one of those) to something an `<img>` may show. Anything else, including file
    /// names with a path, yields `None`: the page must not point outside its folder.
    pub fn image(&self, reference: &Value) -> Option<ImageSource> {
        let key = match reference {
            Value::String(s) => s.as_str(),
            Value::Object(o) => ["id", "mediaId", "file", "src"]
                .iter()
                .find_map(|k| o.get(*k).and_then(Value::as_str))?,
            _ => return None,
        };
        match self.media_entry(key) {
            Some(entry) => media_target(&entry).and_then(image_source),
            None => image_source(key),
        }
    }
}

/// The file name or data URL a media entry points to.
fn media_target(entry: &Value) -> Option<&str> {
    match entry {
        Value::String(s) => Some(s.as_str()),
        Value::Object(o) => ["file", "dataUrl", "data_url", "url"]
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str)),
        _ => None,
    }
}

fn image_source(target: &str) -> Option<ImageSource> {
    if is_image_data_url(target) {
        return Some(ImageSource::DataUrl(target.to_string()));
    }
    is_safe_image_file(target).then(|| ImageSource::File(target.to_string()))
}

/// A plain image file name in the same folder: no path, no leading dot.
pub fn is_safe_image_file(name: &str) -> bool {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'~'));
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    plain
        && ext
            .as_deref()
            .is_some_and(|e| matches!(e, "png" | "jpg" | "jpeg" | "webp" | "gif"))
}

fn is_image_data_url(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("data:image/") else {
        return false;
    };
    let Some((kind, data)) = rest.split_once(";base64,") else {
        return false;
    };
    matches!(kind, "png" | "jpeg" | "webp" | "gif")
        && data
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn with_media(media: Value) -> Trajectory {
        Trajectory {
            media,
            ..Trajectory::default()
        }
    }

    #[test]
    fn media_ids_resolve_through_a_map_or_a_list() {
        let t = with_media(json!({"m1": "t~2F1-m1.png", "m2": {"file": "b.jpg"}}));
        assert_eq!(
            t.image(&json!("m1")),
            Some(ImageSource::File("t~2F1-m1.png".into()))
        );
        assert_eq!(
            t.image(&json!({"id": "m2"})),
            Some(ImageSource::File("b.jpg".into()))
        );
        let t = with_media(json!([{"id": "m1", "file": "a.png"}]));
        assert_eq!(
            t.image(&json!("m1")),
            Some(ImageSource::File("a.png".into()))
        );
    }

    #[test]
    fn a_file_name_stands_for_itself_but_paths_and_scripts_do_not() {
        let t = Trajectory::default();
        assert_eq!(
            t.image(&json!("shot.png")),
            Some(ImageSource::File("shot.png".into()))
        );
        for bad in [
            "../secret.png",
            "/etc/x.png",
            "a/b.png",
            ".hidden.png",
            "x.html",
            "javascript:alert(1)",
            "data:text/html;base64,PHNjcmlwdD4=",
        ] {
            assert_eq!(t.image(&json!(bad)), None, "{bad}");
        }
        assert_eq!(t.image(&json!(3)), None);
    }

    #[test]
    fn image_data_urls_are_kept() {
        let t = with_media(json!({"m": "data:image/png;base64,iVBORw0KGgo="}));
        assert_eq!(
            t.image(&json!("m")),
            Some(ImageSource::DataUrl(
                "data:image/png;base64,iVBORw0KGgo=".into()
            ))
        );
    }

    fn step_with_images(number: u64, images: Value) -> Step {
        serde_json::from_value(json!({"step": number, "observation": {"images": images}})).unwrap()
    }

    #[test]
    fn string_references_of_the_current_format_resolve_in_order() {
        let t = with_media(json!({
            "r/2/image-17": {"file": "t-1.png", "step": 2},
            "r/2/image-48": {"file": "t-2.png", "step": 2},
        }));
        let step = step_with_images(2, json!(["r/2/image-17", "r/2/image-48"]));
        assert_eq!(
            t.step_images(&step),
            [
                Picture::Shown(ImageSource::File("t-1.png".into())),
                Picture::Shown(ImageSource::File("t-2.png".into())),
            ]
        );
    }

    #[test]
    fn a_version_1_number_is_the_picture_only_of_the_step_its_entry_names() {
        // Version 1 keyed images by element id: the row of 17 is step 3's (it was put
        // last); step 1 showed element 17 too and lost its picture to step 3.
        let t = with_media(json!({"17": {"file": "t-5.png", "step": 3, "elementId": 17}}));
        assert_eq!(
            t.step_images(&step_with_images(3, json!([17]))),
            [Picture::Shown(ImageSource::File("t-5.png".into()))]
        );
        let lost = Picture::Lost {
            element: Some(17),
            why: LOST_BEFORE_V2.into(),
        };
        assert_eq!(t.step_images(&step_with_images(1, json!([17]))), [lost]);
        // No entry at all (another run took the key over, then was deleted): lost too.
        assert_eq!(
            t.step_images(&step_with_images(3, json!([48]))),
            [Picture::Lost {
                element: Some(48),
                why: LOST_BEFORE_V2.into()
            }]
        );
    }

    #[test]
    fn a_lost_marker_is_shown_as_lost_with_its_reason() {
        let t = Trajectory::default();
        let step = step_with_images(4, json!([{"lost": "overwritten", "element": 9}]));
        assert_eq!(
            t.step_images(&step),
            [Picture::Lost {
                element: Some(9),
                why: "overwritten".into()
            }]
        );
    }

    #[test]
    fn missing_fields_read_as_empty_and_wrong_types_name_the_field() {
        let t = Trajectory::parse(r#"{"steps":[{"step":1}]}"#).unwrap();
        assert_eq!(t.steps.len(), 1);
        assert!(t.steps[0].observation.is_none());
        let err = Trajectory::parse(r#"{"steps":[{"observation":{"text":5}}]}"#).unwrap_err();
        assert!(err.starts_with("`steps[0].observation.text`"), "{err}");
    }
}
