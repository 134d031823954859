//! `report.html`: counts, the Table-2 buckets, the per-position table and chart, one
//! row per task linking to its trajectory page, and the earlier attempts of retried
//! tasks.

use super::chart::position_chart;
use super::{duration, esc, page, percent, percent_or_dash, thousands};
use crate::report::results::ResultLine;
use crate::report::summary::Summary;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One row of the task table or of the earlier attempts; `trajectory` is the link to
/// its viewer page, if written.
pub struct ResultRow<'a> {
    pub result: &'a ResultLine,
    pub trajectory: Option<String>,
}

impl ResultRow<'_> {
    /// The task id, linked to the trajectory page when there is one.
    fn id_cell(&self) -> String {
        let id = esc(&self.result.id);
        match &self.trajectory {
            Some(href) => format!("<a href=\"{}\">{id}</a>", esc(href)),
            None => format!("{id} <span class=\"muted small\">(no trajectory)</span>"),
        }
    }
}

pub fn report_page(
    summary: &Summary,
    tasks: &[ResultRow<'_>],
    attempts: &[ResultRow<'_>],
    human_links: &BTreeMap<String, String>,
) -> String {
    let mut body = String::new();
    header(&mut body, summary);
    buckets(&mut body, summary);
    positions(&mut body, summary);
    let _ = write!(
        body,
        "<h2>Success by hop position</h2>\n<figure>\n{}<figcaption class=\"muted small\">\
         For the tasks of each length k: the share that completed at least hop j.\
         </figcaption>\n</figure>\n",
        position_chart(&summary.metrics.positions)
    );
    super::analysis_sections(&mut body, &summary.analysis);
    if let Some(h) = &summary.human {
        super::human::human_section(&mut body, h, human_links);
    }
    task_table(&mut body, tasks);
    attempt_table(&mut body, attempts);
    page("hopbench report", &body)
}

fn header(body: &mut String, s: &Summary) {
    let c = &s.counts;
    let t = &s.totals;
    let _ = writeln!(body, "<h1>hopbench report</h1>");
    let sources: Vec<String> = s
        .sources
        .iter()
        .map(|src| format!("{} ({} lines)", esc(&src.results), src.lines))
        .collect();
    let _ = writeln!(
        body,
        "<p class=\"muted small\">from {} · {}</p>",
        sources.join(", "),
        esc(&s.generator)
    );
    let _ = writeln!(
        body,
        "<p id=\"counts\"><b>{}</b> tasks: <span class=\"PASS\">{} PASS</span>, \
         <span class=\"FAIL\">{} FAIL</span>, <span class=\"ERROR\">{} ERROR</span> · \
         hops {}/{} · {} steps · tokens {} in / {} out · {}</p>",
        c.tasks,
        c.pass,
        c.fail,
        c.error,
        t.hops_completed,
        t.hops_total,
        thousands(t.steps),
        thousands(t.tokens.input),
        thousands(t.tokens.output),
        duration(t.time_ms)
    );
    if c.error > 0 {
        let _ = writeln!(
            body,
            "<p class=\"muted small\">ERROR tasks count as not passed in every rate.</p>"
        );
    }
    if let Some(line) = s.retries.describe() {
        let _ = writeln!(
            body,
            "<p id=\"retries\">{} (<a href=\"#attempts\">earlier attempts</a>).</p>",
            esc(&line)
        );
    }
    if !s.notes.is_empty() {
        body.push_str("<ul id=\"notes\">\n");
        for note in &s.notes {
            let _ = writeln!(body, "<li>{}</li>", esc(note));
        }
        body.push_str("</ul>\n");
    }
}

fn buckets(body: &mut String, s: &Summary) {
    body.push_str(
        "<h2>Success rates by task length</h2>\n<table id=\"buckets\">\n<thead><tr>\
         <th>bucket</th><th class=\"num\">tasks</th><th class=\"num\">hops done / total</th>\
         <th class=\"num\">hop SR %</th><th class=\"num\">task SR %</th></tr></thead>\n<tbody>\n",
    );
    for b in &s.metrics.buckets {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{} / {}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            esc(b.bucket.label()),
            b.tasks,
            b.hops_completed,
            b.hops_total,
            percent_or_dash(b.hop_sr),
            percent_or_dash(b.task_sr)
        );
    }
    body.push_str("</tbody>\n</table>\n");
}

fn positions(body: &mut String, s: &Summary) {
    let rows = &s.metrics.positions;
    let max_hops = rows.iter().map(|r| r.hops).max().unwrap_or(0);
    body.push_str(
        "<h2>Hops reached, per task length</h2>\n<table id=\"positions\">\n<thead><tr>\
         <th>task length</th>",
    );
    for j in 1..=max_hops {
        let _ = write!(body, "<th class=\"num\">hop {j}</th>");
    }
    body.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        let _ = write!(
            body,
            "<tr><td>{} hop{} ({} task{})</td>",
            row.hops,
            if row.hops == 1 { "" } else { "s" },
            row.tasks,
            if row.tasks == 1 { "" } else { "s" }
        );
        for j in 0..max_hops {
            // Positions past a task's length do not exist: blank, not 0%.
            match (row.share.get(j), row.reached.get(j)) {
                (Some(&share), Some(&reached)) => {
                    let _ = write!(
                        body,
                        "<td class=\"num\" title=\"{reached}/{}\">{}</td>",
                        row.tasks,
                        percent(share)
                    );
                }
                _ => body.push_str("<td></td>"),
            }
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</tbody>\n</table>\n");
}

fn task_table(body: &mut String, tasks: &[ResultRow<'_>]) {
    body.push_str(
        "<h2>Tasks</h2>\n<table id=\"tasks\">\n<thead><tr><th>task</th><th class=\"num\">hops</th>\
         <th>verdict</th><th class=\"num\">steps</th><th class=\"num\">tokens in / out</th>\
         <th class=\"num\">time</th><th>answer</th><th>error / reason</th></tr></thead>\n<tbody>\n",
    );
    for row in tasks {
        let r = row.result;
        let id = row.id_cell();
        let note = error_or_reason(r);
        let attempt = if r.attempt > 1 {
            format!(
                " <span class=\"muted small\">(attempt {})</span>",
                r.attempt
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            body,
            "<tr data-id=\"{}\"><td>{id}</td><td class=\"num\">{}/{}</td>\
             <td class=\"{v}\">{v}{attempt}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{} / {}</td><td class=\"num\">{}</td>\
             <td class=\"answer\">{}</td><td>{note}</td></tr>",
            esc(&r.id),
            r.hops_completed,
            r.hops_total,
            r.steps,
            thousands(r.tokens.input),
            thousands(r.tokens.output),
            duration(r.time_ms),
            esc(r.answer.as_deref().unwrap_or("")),
            v = r.verdict.as_str(),
        );
    }
    body.push_str("</tbody>\n</table>\n");
}

fn error_or_reason(r: &ResultLine) -> String {
    match (&r.error, &r.reason) {
        (Some(e), _) => format!("<span class=\"err\">{}</span>", esc(e)),
        (None, Some(reason)) => format!("<span class=\"muted\">{}</span>", esc(reason)),
        (None, None) => String::new(),
    }
}

/// The attempts that did not count, each with its error and a link to what it did.
fn attempt_table(body: &mut String, attempts: &[ResultRow<'_>]) {
    if attempts.is_empty() {
        return;
    }
    body.push_str(
        "<h2>Earlier attempts</h2>\n<p class=\"muted small\">Attempts a later attempt of \
         the same task replaced; they are in no count or rate.</p>\n<table id=\"attempts\">\n\
         <thead><tr><th>task</th><th class=\"num\">attempt</th><th>verdict</th>\
         <th>kind</th><th class=\"num\">hops</th><th class=\"num\">steps</th>\
         <th class=\"num\">time</th><th>error / reason</th></tr></thead>\n<tbody>\n",
    );
    for row in attempts {
        let r = row.result;
        let id = row.id_cell();
        let _ = writeln!(
            body,
            "<tr data-id=\"{}\" data-attempt=\"{}\"><td>{id}</td><td class=\"num\">{}</td>\
             <td class=\"{v}\">{v}</td><td>{}</td><td class=\"num\">{}/{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            esc(&r.id),
            r.attempt,
            r.attempt,
            r.error_kind.map_or("", |k| k.as_str()),
            r.hops_completed,
            r.hops_total,
            r.steps,
            duration(r.time_ms),
            error_or_reason(r),
            v = r.verdict.as_str(),
        );
    }
    body.push_str("</tbody>\n</table>\n");
}
