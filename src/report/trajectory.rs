//! The parts of an exported trajectory (`trajectories/<task>.json`, written by the
//! runner from EXPORT_RUN) that the viewer page shows. Every field is optional: a page
//! with gaps is more useful than no page, and the export may gain fields.
//!
//! Media: the runner writes each data URL of the export out as an image file beside
//! the JSON and puts the file name in its place, so `media` maps a media id to a file
//! name and a step's `screenshot` / `images` hold media ids (or file names directly).

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
    pub screenshot: Option<Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Reply {
    pub text: Option<String>,
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

impl Trajectory {
    pub fn parse(text: &str) -> Result<Trajectory, String> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            format!("`{path}`: {}", e.into_inner())
        })
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
        let entry = match &self.media {
            Value::Object(map) => map.get(key).cloned(),
            Value::Array(items) => items
                .iter()
                .find(|m| m.get("id").and_then(Value::as_str) == Some(key))
                .cloned(),
            _ => None,
        };
        let target = match &entry {
            Some(Value::String(s)) => s.as_str(),
            Some(Value::Object(o)) => ["file", "dataUrl", "data_url", "url"]
                .iter()
                .find_map(|k| o.get(*k).and_then(Value::as_str))?,
            _ => key,
        };
        image_source(target)
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

    #[test]
    fn missing_fields_read_as_empty_and_wrong_types_name_the_field() {
        let t = Trajectory::parse(r#"{"steps":[{"step":1}]}"#).unwrap();
        assert_eq!(t.steps.len(), 1);
        assert!(t.steps[0].observation.is_none());
        let err = Trajectory::parse(r#"{"steps":[{"observation":{"text":5}}]}"#).unwrap_err();
        assert!(err.starts_with("`steps[0].observation.text`"), "{err}");
    }
}
