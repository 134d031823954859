//! `report.html`: counts, tokens and costs, the Table-2 buckets, the per-position
//! table and chart, one row per task linking to its trajectory page, and the earlier
//! attempts of retried tasks.

use super::chart::position_chart;
use super::{duration, esc, page, percent, percent_or_dash, thousands};
use crate::report::cost::{dollars, Costs};
use crate::report::results::{ResultLine, Tokens, Verdict};
use crate::report::summary::Summary;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One row of the task table or of the earlier attempts; `trajectory` is the link to
/// its viewer page, if written; `cost` its cost in US dollars when the report has a
/// price table and one for its model.
pub struct ResultRow<'a> {
    pub result: &'a ResultLine,
    pub trajectory: Option<String>,
    pub cost: Option<f64>,
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
    let priced = summary.costs.is_some();
    task_table(&mut body, tasks, priced);
    attempt_table(&mut body, attempts, priced);
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
    usage(body, s);
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

/// The tokens with the cache's share, and, with a price table, the costs per folder.
fn usage(body: &mut String, s: &Summary) {
    let t = &s.totals.tokens;
    if t.input > 0 || t.output > 0 || s.costs.is_some() {
        let _ = writeln!(
            body,
            "<p id=\"usage\">tokens: {} in, of which {} served from the provider's cache \
             ({} %) · {} out</p>",
            thousands(t.input),
            thousands(t.cached_input),
            percent_or_dash(s.totals.cached_share),
            thousands(t.output)
        );
    }
    if let Some(costs) = &s.costs {
        cost_table(body, costs);
    }
}

fn cost_table(body: &mut String, costs: &Costs) {
    let _ = writeln!(
        body,
        "<p id=\"cost\">cost: <b>{}</b>{} over every attempt in the folders, at the \
         prices of {} (US dollars per million tokens)</p>",
        dollars(costs.total_usd),
        if costs.complete {
            ""
        } else {
            " (some tokens could not be priced, see the notes)"
        },
        esc(&costs.prices)
    );
    body.push_str(
        "<table id=\"costs\">\n<thead><tr><th>folder</th><th>model</th>\
         <th class=\"num\">attempts</th><th class=\"num\">tokens in / cached / out</th>\
         <th class=\"num\">cost</th></tr></thead>\n<tbody>\n",
    );
    for f in &costs.folders {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>{}</tr>",
            esc(&f.dir),
            f.model.as_deref().map_or_else(
                || "<span class=\"muted\">(none named)</span>".to_string(),
                esc
            ),
            f.attempts,
            tokens_cell(&f.tokens),
            cost_cell(f.cost_usd)
        );
    }
    body.push_str("</tbody>\n</table>\n");
}

/// `12,000 / 3,000 / 800`: input (cached part included), cached, output.
fn tokens_cell(t: &Tokens) -> String {
    format!(
        "{} / {} / {}",
        thousands(t.input),
        thousands(t.cached_input),
        thousands(t.output)
    )
}

fn cost_cell(cost: Option<f64>) -> String {
    match cost {
        Some(usd) => format!("<td class=\"num cost\">{}</td>", dollars(usd)),
        None => "<td class=\"num cost muted\" title=\"no price for this model\">—</td>".to_string(),
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

fn task_table(body: &mut String, tasks: &[ResultRow<'_>], priced: bool) {
    let _ = write!(
        body,
        "<h2>Tasks</h2>\n<table id=\"tasks\">\n<thead><tr><th>task</th><th class=\"num\">hops</th>\
         <th>verdict</th><th class=\"num\">steps</th>\
         <th class=\"num\">tokens in / cached / out</th>{}\
         <th class=\"num\">time</th><th>answer</th><th>why it ended</th></tr></thead>\n<tbody>\n",
        if priced {
            "<th class=\"num\">cost</th>"
        } else {
            ""
        }
    );
    for row in tasks {
        let r = row.result;
        let id = row.id_cell();
        let note = why_it_ended(r);
        let cost = if priced {
            cost_cell(row.cost)
        } else {
            String::new()
        };
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
             <td class=\"num\">{}</td>{cost}<td class=\"num\">{}</td>\
             <td class=\"answer\">{}</td>{note}</tr>",
            esc(&r.id),
            r.hops_completed,
            r.hops_total,
            r.steps,
            tokens_cell(&r.tokens),
            duration(r.time_ms),
            esc(r.answer.as_deref().unwrap_or("")),
            v = r.shown_verdict(),
        );
    }
    body.push_str("</tbody>\n</table>\n");
}

/// Longer texts are cut in the tables so that every part of a row's "why it ended"
/// stays on its first screen (a server's reply quoted in a reason can run to pages);
/// the whole text is the cut one's tooltip and is on the task's own page.
const CELL_TEXT: usize = 300;

/// The "why it ended" cell: the end in words, the reason, then the error where it
/// adds to the reason (for an ERROR, often what to change).
fn why_it_ended(r: &ResultLine) -> String {
    let ending = r.ending();
    let mut parts = Vec::new();
    if let Some(end) = &ending.end {
        parts.push(format!("<span class=\"end\">{}</span>", esc(end)));
    }
    if let Some(reason) = ending.reason {
        // An ERROR's reason is its cause: shown as plainly as its error.
        let class = if r.verdict == Verdict::Error {
            "reason"
        } else {
            "reason muted"
        };
        parts.push(format!(
            "<span class=\"{class}\">{}</span>",
            clipped(reason, CELL_TEXT)
        ));
    }
    if let Some(error) = ending.error {
        parts.push(format!(
            "<span class=\"err\">{}</span>",
            clipped(error, CELL_TEXT)
        ));
    }
    // The parts are blocks on screen; the spaces keep them apart in copied text.
    format!("<td class=\"why\">{}</td>", parts.join(" "))
}

/// `text` escaped, cut after `limit` characters with an ellipsis and the whole text
/// as a tooltip.
fn clipped(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        None => esc(text),
        Some((cut, _)) => format!(
            "<span title=\"{}\">{}…</span>",
            esc(text),
            esc(text[..cut].trim_end())
        ),
    }
}

/// The attempts that did not count, each with its error and a link to what it did.
fn attempt_table(body: &mut String, attempts: &[ResultRow<'_>], priced: bool) {
    if attempts.is_empty() {
        return;
    }
    let _ = write!(
        body,
        "<h2>Earlier attempts</h2>\n<p class=\"muted small\">Attempts a later attempt of \
         the same task replaced; they are in no count or rate.</p>\n<table id=\"attempts\">\n\
         <thead><tr><th>task</th><th class=\"num\">attempt</th><th>verdict</th>\
         <th>kind</th><th class=\"num\">hops</th><th class=\"num\">steps</th>{}\
         <th class=\"num\">time</th><th>why it ended</th></tr></thead>\n<tbody>\n",
        if priced {
            "<th class=\"num\">cost</th>"
        } else {
            ""
        }
    );
    for row in attempts {
        let r = row.result;
        let id = row.id_cell();
        let cost = if priced {
            cost_cell(row.cost)
        } else {
            String::new()
        };
        let _ = writeln!(
            body,
            "<tr data-id=\"{}\" data-attempt=\"{}\"><td>{id}</td><td class=\"num\">{}</td>\
             <td class=\"{v}\">{v}</td><td>{}</td><td class=\"num\">{}/{}</td>\
             <td class=\"num\">{}</td>{cost}<td class=\"num\">{}</td>{}</tr>",
            esc(&r.id),
            r.attempt,
            r.attempt,
            r.error_kind.map_or("", |k| k.as_str()),
            r.hops_completed,
            r.hops_total,
            r.steps,
            duration(r.time_ms),
            why_it_ended(r),
            v = r.shown_verdict(),
        );
    }
    body.push_str("</tbody>\n</table>\n");
}
