//! Markdown rendering of a [`MetricsReport`] as two GitHub tables.

use std::fmt::Write;

use super::MetricsReport;

/// Shown instead of a percentage when a bucket has no tasks, so an empty
/// bucket cannot be mistaken for 0%.
const NO_DATA: &str = "—";

pub(super) fn render(report: &MetricsReport) -> String {
    let mut out = String::new();
    out.push_str("| bucket | tasks | hop SR % | task SR % |\n");
    out.push_str("|---|---:|---:|---:|\n");
    for s in &report.buckets {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            s.bucket.label(),
            s.tasks,
            percent_or_dash(s.hop_sr),
            percent_or_dash(s.task_sr),
        );
    }

    out.push('\n');
    let max_hops = report.positions.iter().map(|r| r.hops).max().unwrap_or(0);
    let mut header = String::from("| task length |");
    let mut rule = String::from("|---|");
    for j in 1..=max_hops {
        let _ = write!(header, " hop {j} |");
        rule.push_str("---:|");
    }
    out.push_str(&header);
    out.push('\n');
    out.push_str(&rule);
    out.push('\n');
    for row in &report.positions {
        let _ = write!(
            out,
            "| {} ({}) |",
            plural(row.hops, "hop", "hops"),
            plural(row.tasks, "task", "tasks"),
        );
        for j in 0..max_hops {
            // Positions past this task's length do not exist; leave them
            // blank rather than 0, which would claim a measured failure.
            match row.share.get(j) {
                Some(&share) => {
                    let _ = write!(out, " {} |", percent(share));
                }
                None => out.push_str("  |"),
            }
        }
        out.push('\n');
    }
    out
}

fn percent(fraction: f64) -> String {
    format!("{:.2}", fraction * 100.0)
}

fn percent_or_dash(fraction: Option<f64>) -> String {
    fraction.map_or_else(|| NO_DATA.to_string(), percent)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
