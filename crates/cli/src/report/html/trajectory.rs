//! The viewer page of one task's trajectory: the result line on top, then per step the
//! screenshot, the model's reasoning, the action and its result, the hop progress and
//! the observation text (collapsed, it is long).

use super::{duration, esc, page, thousands};
use crate::report::cost::dollars;
use crate::report::results::ResultLine;
use crate::report::trajectory::{Picture, Step, Trajectory};
use serde_json::Value;
use std::fmt::Write;

/// `trajectory` is `Err` with a message when the JSON could not be read: the page
/// then says so, and still shows the result line. `cost`: the attempt's cost in US
/// dollars, when the report was given a price for its model.
pub fn trajectory_page(
    result: &ResultLine,
    trajectory: Result<&Trajectory, &str>,
    cost: Option<f64>,
) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<p class=\"small\"><a href=\"../report.html\">← report</a></p>\n<h1>{}</h1>",
        esc(&result.id)
    );
    summary(&mut body, result, trajectory.ok(), cost);
    match trajectory {
        Ok(t) if t.steps.is_empty() => body.push_str("<p class=\"muted\">No steps recorded.</p>\n"),
        Ok(t) => {
            for (index, step) in t.steps.iter().enumerate() {
                step_section(&mut body, t, step, index);
            }
        }
        Err(message) => {
            let _ = writeln!(
                body,
                "<p class=\"err\">The trajectory file could not be read: {}</p>",
                esc(message)
            );
        }
    }
    page(&format!("{} · hopbench trajectory", result.id), &body)
}

fn summary(body: &mut String, r: &ResultLine, t: Option<&Trajectory>, cost: Option<f64>) {
    let intent = t.and_then(|t| {
        [&t.task, &t.run]
            .iter()
            .find_map(|v| v.get("intent").and_then(Value::as_str).map(str::to_string))
    });
    body.push_str("<dl id=\"summary\">\n");
    let mut item = |name: &str, html: String| {
        let _ = writeln!(body, "<dt>{name}</dt><dd>{html}</dd>");
    };
    if let Some(intent) = intent {
        item("intent", esc(&intent));
    }
    item(
        "verdict",
        format!("<span class=\"{v}\">{v}</span>", v = r.shown_verdict()),
    );
    item("hops", format!("{}/{}", r.hops_completed, r.hops_total));
    let hop_steps: Vec<String> = r
        .hop_steps
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Some(step) => format!("hop {} at step {step}", i + 1),
            None => format!("hop {} not done", i + 1),
        })
        .collect();
    item("hop steps", esc(&hop_steps.join(", ")));
    item("steps", r.steps.to_string());
    item(
        "tokens",
        format!(
            "{} in ({} cached) / {} out",
            thousands(r.tokens.input),
            thousands(r.tokens.cached_input),
            thousands(r.tokens.output)
        ),
    );
    if let Some(usd) = cost {
        item("cost", dollars(usd));
    }
    item("time", duration(r.time_ms));
    if let Some(answer) = &r.answer {
        let score = r
            .answer_score
            .map(|s| format!(" (score {s})"))
            .unwrap_or_default();
        item("answer", format!("{}{}", esc(answer), esc(&score)));
    }
    // Whole here (the report's table cuts long texts): the end in words, the run's
    // reason, and the error where it adds to the reason.
    let ending = r.ending();
    if !ending.is_empty() {
        let parts: Vec<String> = [
            ("end", ending.end.as_deref()),
            ("reason", ending.reason),
            ("err", ending.error),
        ]
        .into_iter()
        .filter_map(|(class, text)| {
            text.map(|text| format!("<span class=\"{class}\">{}</span>", esc(text)))
        })
        .collect();
        item(
            "why it ended",
            format!("<div class=\"why\">{}</div>", parts.join(" ")),
        );
    }
    if let Some(settings) = t.map(|t| &t.settings).filter(|s| !s.is_null()) {
        item(
            "settings",
            format!(
                "<details><summary>as the run used them</summary><pre>{}</pre></details>",
                esc(&pretty(&without_secrets(settings)))
            ),
        );
    }
    body.push_str("</dl>\n");
}

/// The export leaves the key out already; this keeps it out of the page even if a
/// writer forgot (any field whose name mentions a key or token secret is dropped).
fn without_secrets(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| {
                    let k = k.to_ascii_lowercase().replace(['_', '-'], "");
                    !(k.contains("apikey") || k.contains("secret") || k == "authorization")
                })
                .map(|(k, v)| (k.clone(), without_secrets(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_secrets).collect()),
        other => other.clone(),
    }
}

fn step_section(body: &mut String, t: &Trajectory, step: &Step, index: usize) {
    let number = step
        .step
        .map_or_else(|| (index + 1).to_string(), |n| n.to_string());
    let _ = writeln!(
        body,
        "<section class=\"step\" id=\"step-{n}\">\n<h3>Step {n}</h3>",
        n = esc(&number)
    );
    let obs = step.observation.as_ref();
    body.push_str("<dl>\n");
    let mut item = |name: &str, text: String| {
        if !text.is_empty() {
            let _ = writeln!(body, "<dt>{name}</dt><dd>{}</dd>", esc(&text));
        }
    };
    item("url", obs.and_then(|o| o.url.clone()).unwrap_or_default());
    item(
        "action",
        step.action.as_ref().map(action_text).unwrap_or_default(),
    );
    item(
        "result",
        step.result.as_ref().map(result_text).unwrap_or_default(),
    );
    item(
        "hop progress",
        step.progress
            .as_ref()
            .map(progress_text)
            .unwrap_or_default(),
    );
    item(
        "tokens",
        step.tokens.as_ref().map(tokens_text).unwrap_or_default(),
    );
    item(
        "observation cut",
        step.prompt
            .as_ref()
            .and_then(|p| p.get("observation_cut"))
            .map(observation_cut_text)
            .unwrap_or_default(),
    );
    item(
        "timings",
        step.timings.as_ref().map(fields_text).unwrap_or_default(),
    );
    item("note", step.note.as_ref().map(plain).unwrap_or_default());
    body.push_str("</dl>\n");
    if let Some(error) = step
        .result
        .as_ref()
        .and_then(|r| r.get("error"))
        .and_then(Value::as_str)
    {
        let _ = writeln!(body, "<p class=\"err\">{}</p>", esc(error));
    }
    pictures(body, t, step, &number);
    if let Some(text) = step.model_error.as_ref().map(model_error_text) {
        let _ = writeln!(
            body,
            "<p class=\"err\">model call failed: {}</p>",
            esc(&text)
        );
    }
    // A person's own agent sends its reasons apart from its action (shown above).
    let reasons = step
        .reply
        .as_ref()
        .and_then(|r| r.reasoning.as_deref().or(r.text.as_deref()));
    if let Some(reply) = reasons {
        let _ = writeln!(
            body,
            "<h4>Reasoning</h4>\n<pre class=\"reply\">{}</pre>",
            esc(reply)
        );
    }
    if let Some(text) = obs.and_then(|o| o.text.as_deref()) {
        let _ = writeln!(
            body,
            "<details class=\"observation\"><summary>Observation ({} line{})</summary>\
             <pre>{}</pre></details>",
            text.lines().count(),
            if text.lines().count() == 1 { "" } else { "s" },
            esc(text)
        );
    }
    body.push_str("</section>\n");
}

/// The step's screenshot (the one the model was given, else the one taken for the
/// reader), then its labelled images; a picture the recording lost is named, not shown.
fn pictures(body: &mut String, t: &Trajectory, step: &Step, number: &str) {
    let obs = step.observation.as_ref();
    let given = obs
        .and_then(|o| o.screenshot.as_ref())
        .and_then(|s| t.image(s));
    let for_reader = obs
        .and_then(|o| o.page_screenshot.as_ref())
        .and_then(|s| t.image(s));
    if let Some(shot) = &given {
        let _ = writeln!(
            body,
            "<img class=\"shot\" src=\"{}\" alt=\"screenshot of step {}\">",
            esc(shot.src()),
            esc(number)
        );
    } else if let Some(shot) = &for_reader {
        let _ = writeln!(
            body,
            "<figure><img class=\"shot\" src=\"{}\" alt=\"screenshot of step {n}\">\
             <figcaption class=\"small muted\">the page at step {n} (not shown to the model)\
             </figcaption></figure>",
            esc(shot.src()),
            n = esc(number)
        );
    }
    let images = t.step_images(step);
    let shown: Vec<_> = images
        .iter()
        .filter_map(|p| match p {
            Picture::Shown(source) => Some(source),
            Picture::Lost { .. } => None,
        })
        .collect();
    if !shown.is_empty() {
        body.push_str("<div class=\"thumbs\">");
        for image in shown {
            let _ = write!(
                body,
                "<img src=\"{}\" alt=\"viewport image\">",
                esc(image.src())
            );
        }
        body.push_str("</div>\n");
    }
    for picture in &images {
        if let Picture::Lost { element, why } = picture {
            let which = element.map_or_else(String::new, |e| format!(" of element [{e}]"));
            let _ = writeln!(
                body,
                "<p class=\"muted lost\">image{} lost: {}</p>",
                esc(&which),
                esc(why)
            );
        }
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// A string as it is; anything else as compact JSON; null as nothing.
fn plain(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `server: 503 Service Unavailable (try again later)` from `{error: {kind, message, hint}}`.
fn model_error_text(value: &Value) -> String {
    let error = value.get("error").unwrap_or(value);
    let field = |k: &str| error.get(k).and_then(Value::as_str).unwrap_or_default();
    let mut text = format!("{}: {}", field("kind"), field("message"));
    if !field("hint").is_empty() {
        text.push_str(&format!(" ({})", field("hint")));
    }
    text
}

/// `1,000 in / 100 out` from `{input, output}`, `1,000 in (800 cached) / 100 out`
/// when the provider served part of the prompt from its cache.
fn tokens_text(tokens: &Value) -> String {
    let n = |k: &str| tokens.get(k).and_then(Value::as_u64);
    match (n("input"), n("output"), n("cached_input").unwrap_or(0)) {
        (Some(i), Some(o), 0) => format!("{} in / {} out", thousands(i), thousands(o)),
        (Some(i), Some(o), c) => format!(
            "{} in ({} cached) / {} out",
            thousands(i),
            thousands(c),
            thousands(o)
        ),
        _ => plain(tokens),
    }
}

/// `kept about 1,000 of about 5,400 tokens (max_obs_tokens 1,000)` from
/// `{max_tokens, estimated_tokens, kept_tokens}`; nothing for null (nothing was cut).
fn observation_cut_text(cut: &Value) -> String {
    let n = |k: &str| cut.get(k).and_then(Value::as_u64);
    match (n("kept_tokens"), n("estimated_tokens"), n("max_tokens")) {
        (Some(kept), Some(whole), Some(max)) => format!(
            "kept about {} of about {} tokens (max_obs_tokens {})",
            thousands(kept),
            thousands(whole),
            thousands(max)
        ),
        _ => plain(cut),
    }
}

/// `observe_ms 120 · act_ms 300` from a flat object; anything else as JSON.
/// `name value · name value` for a flat object. A field without a value (a replay step
/// has no `model_ms`) is left out rather than shown as a bare name.
fn fields_text(value: &Value) -> String {
    match value.as_object() {
        Some(map) if map.values().all(|v| !v.is_object() && !v.is_array()) => map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| format!("{k} {}", plain(v)))
            .collect::<Vec<_>>()
            .join(" · "),
        _ => plain(value),
    }
}

fn action_text(action: &Value) -> String {
    action.get("text").map_or_else(|| plain(action), plain)
}

fn result_text(result: &Value) -> String {
    match result.get("effect") {
        Some(effect) => plain(effect),
        None if result.get("error").is_some() => String::new(),
        None => plain(result),
    }
}

/// `1/3 hops done; working on: <description>` from the tracker's progress view.
fn progress_text(progress: &Value) -> String {
    let number = |k: &str| progress.get(k).and_then(Value::as_u64);
    match (number("done"), number("total")) {
        (Some(done), Some(total)) => {
            let at_end = progress.get("at_end").and_then(Value::as_bool) == Some(true);
            let current = progress.get("current").and_then(Value::as_str);
            match (at_end, current) {
                (true, _) => format!("{done}/{total} hops done; all hops complete"),
                (false, Some(c)) if !c.is_empty() => {
                    format!("{done}/{total} hops done; working on: {c}")
                }
                _ => format!("{done}/{total} hops done"),
            }
        }
        _ => plain(progress),
    }
}
