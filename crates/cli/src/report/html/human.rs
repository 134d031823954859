//! The report's human-vs-agent section: the buckets with both sides' rates, then one
//! row per task with both results (each person's session linked to its viewer page).

use super::{esc, percent_or_dash};
use crate::report::human::{describe, HumanComparison};
use std::collections::BTreeMap;
use std::fmt::Write;

pub fn human_section(body: &mut String, h: &HumanComparison, links: &BTreeMap<String, String>) {
    body.push_str(
        "<h2>Human vs agent</h2>\n<table id=\"human-buckets\">\n<thead><tr><th>bucket</th>\
         <th class=\"num\">human tasks</th><th class=\"num\">human task SR %</th>\
         <th class=\"num\">human hop SR %</th><th class=\"num\">agent tasks</th>\
         <th class=\"num\">agent task SR %</th><th class=\"num\">agent hop SR %</th></tr></thead>\n<tbody>\n",
    );
    for b in &h.buckets {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            esc(&b.bucket),
            b.human_tasks,
            percent_or_dash(b.human_task_sr),
            percent_or_dash(b.human_hop_sr),
            b.agent_tasks,
            percent_or_dash(b.agent_task_sr),
            percent_or_dash(b.agent_hop_sr)
        );
    }
    body.push_str(
        "</tbody>\n</table>\n<table id=\"human-tasks\">\n<thead><tr><th>task</th>\
         <th class=\"num\">hops</th><th>human</th><th>agent</th></tr></thead>\n<tbody>\n",
    );
    for t in &h.tasks {
        let human = esc(&describe(t.human.as_ref(), t.hops_total));
        let human = match links.get(&t.id) {
            Some(link) => format!("<a href=\"{}\">{human}</a>", esc(link)),
            None => human,
        };
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td class=\"num\">{}</td><td>{human}</td><td>{}</td></tr>",
            esc(&t.id),
            t.hops_total,
            esc(&describe(t.agent.as_ref(), t.hops_total))
        );
    }
    body.push_str("</tbody>\n</table>\n");
}
