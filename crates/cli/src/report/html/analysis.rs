//! The analysis sections of `report.html`: success by memory K, failure modes per
//! bucket (with each failed task's mode and why), and a stage funnel per model.

use std::fmt::Write;

use super::{esc, percent_or_dash};
use crate::report::analysis::STAGES;
use crate::report::analysis::{Analysis, ModelStages};
use hopbench::diagnosis::FailureMode;
use hopbench::metrics::Bucket;

pub fn analysis_sections(body: &mut String, a: &Analysis) {
    by_memory(body, a);
    failures(body, a);
    funnels(body, a);
}

fn bucket_headers(body: &mut String) {
    for b in Bucket::ALL {
        let _ = write!(body, "<th class=\"num\">{}</th>", esc(b.label()));
    }
}

fn by_memory(body: &mut String, a: &Analysis) {
    body.push_str(
        "<h2>Success by memory K</h2>\n<p class=\"muted small\">Procedural memory: K past \
         runs shown in each prompt. Task SR %, hop SR % in brackets.</p>\n\
         <table id=\"by-memory\">\n<thead><tr><th>memory</th><th class=\"num\">tasks</th>",
    );
    bucket_headers(body);
    body.push_str("</tr></thead>\n<tbody>\n");
    for row in &a.by_memory {
        let _ = write!(
            body,
            "<tr><td>{}</td><td class=\"num\">{}</td>",
            esc(&row.label()),
            row.tasks
        );
        for (task, hop) in row.task_sr.iter().zip(&row.hop_sr) {
            let _ = write!(
                body,
                "<td class=\"num\">{} <span class=\"muted\">({})</span></td>",
                percent_or_dash(*task),
                percent_or_dash(*hop)
            );
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</tbody>\n</table>\n");
}

fn failures(body: &mut String, a: &Analysis) {
    body.push_str(
        "<h2>Failure modes</h2>\n<p class=\"muted small\">Each task that did not pass, in the \
         first mode that applies (docs/diagnosis.md).</p>\n<table id=\"failure-modes\">\n\
         <thead><tr><th>failure mode</th>",
    );
    bucket_headers(body);
    body.push_str("</tr></thead>\n<tbody>\n");
    for mode in FailureMode::ALL {
        let _ = write!(body, "<tr><td>{}</td>", esc(mode.label()));
        for row in &a.failure_modes {
            let n = row.counts.get(&mode).copied().unwrap_or(0);
            let _ = write!(body, "<td class=\"num\">{n}</td>");
        }
        body.push_str("</tr>\n");
    }
    body.push_str("<tr><th>all failed</th>");
    for row in &a.failure_modes {
        let _ = write!(body, "<th class=\"num\">{}</th>", row.failed);
    }
    body.push_str("</tr>\n</tbody>\n</table>\n");
    if a.failed_tasks.is_empty() {
        return;
    }
    body.push_str(
        "<details id=\"failed-tasks\"><summary>Failed tasks</summary>\n<table>\n<tbody>\n",
    );
    for t in &a.failed_tasks {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td class=\"muted\">{}</td></tr>",
            esc(&t.id),
            esc(t.mode.label()),
            esc(&t.why)
        );
    }
    body.push_str("</tbody>\n</table>\n</details>\n");
}

const BAR_W: f64 = 320.0;
const LABEL_W: f64 = 130.0;
const ROW_H: f64 = 26.0;

fn funnels(body: &mut String, a: &Analysis) {
    body.push_str(
        "<h2>Stage funnel per model</h2>\n<p class=\"muted small\">Per step, against the \
         task's reference trajectory (dark) and with the alternative paths accepted too \
         (light): relevant element among the candidates, action prediction, grounding, \
         first viable, model select. A step whose model call failed has no reply to \
         score: it is left out, and counted beside the model's name.</p>\n",
    );
    if a.stages.is_empty() {
        body.push_str(
            "<p id=\"funnels\" class=\"muted\">No task had a reference trajectory.</p>\n",
        );
        return;
    }
    body.push_str("<div id=\"funnels\">\n");
    for m in &a.stages {
        funnel(body, m);
    }
    body.push_str("</div>\n");
}

fn funnel(body: &mut String, m: &ModelStages) {
    let height = ROW_H * STAGES.len() as f64 + 8.0;
    let width = LABEL_W + BAR_W + 120.0;
    let without_reply = m.without_reply_note().map_or_else(String::new, |note| {
        format!(
            " · <span class=\"without-reply\" data-steps=\"{}\">{} (not scored)</span>",
            m.without_reply,
            esc(&note)
        )
    });
    let _ = write!(
        body,
        "<figure class=\"funnel\" data-model=\"{}\">\n<figcaption><b>{}</b> \
         <span class=\"muted small\">{} tasks, {} steps scored</span>{without_reply}</figcaption>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         role=\"img\" aria-label=\"stage funnel of {}\">\n",
        esc(&m.model),
        esc(&m.model),
        m.tasks,
        m.strict.steps,
        esc(&m.model)
    );
    for (i, (name, get)) in STAGES.iter().enumerate() {
        let y = i as f64 * ROW_H + 4.0;
        let strict = get(&m.strict);
        let loose = get(&m.with_alternatives);
        let _ = writeln!(
            body,
            "<text x=\"0\" y=\"{:.1}\">{}</text>",
            y + 15.0,
            esc(name)
        );
        for (rate, color, dy) in [
            (loose.rate(), "#a6c8ff", 0.0),
            (strict.rate(), "#2563eb", 6.0),
        ] {
            let w = rate.unwrap_or(0.0) * BAR_W;
            let _ = writeln!(
                body,
                "<rect x=\"{LABEL_W}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"{color}\"/>",
                y + dy,
                20.0 - 2.0 * dy
            );
        }
        let _ = writeln!(
            body,
            "<text x=\"{:.1}\" y=\"{:.1}\" data-stage=\"{}\">{} % ({} %)</text>",
            LABEL_W + BAR_W + 6.0,
            y + 15.0,
            esc(name),
            percent_or_dash(strict.rate()),
            percent_or_dash(loose.rate())
        );
    }
    body.push_str("</svg>\n</figure>\n");
}
