//! Inline SVG line chart of the per-position table: one line per task length k, the
//! share of those tasks that completed at least hop j, for j = 1..=k. Drops along a
//! line show where agents fail (MMInA's "early hops fail first" finding).

use super::{esc, percent};
use hopbench::metrics::PositionRow;
use std::fmt::Write;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 320.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 150.0; // room for the legend
const TOP: f64 = 16.0;
const BOTTOM: f64 = 44.0;

/// Distinguishable on white and for common colour blindness (Okabe-Ito).
const COLOURS: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];

pub(super) fn position_chart(rows: &[PositionRow]) -> String {
    let max_hops = rows.iter().map(|r| r.hops).max().unwrap_or(0);
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg id=\"position-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" \
         height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" \
         aria-labelledby=\"chart-title\">\n<title id=\"chart-title\">Share of tasks that \
         completed at least hop j, per task length</title>\n"
    );
    axes(&mut svg, max_hops);
    if rows.is_empty() {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">no tasks</text>",
            LEFT + plot_width() / 2.0,
            TOP + plot_height() / 2.0
        );
    }
    for (i, row) in rows.iter().enumerate() {
        series(&mut svg, row, max_hops, COLOURS[i % COLOURS.len()], i);
    }
    svg.push_str("</svg>\n");
    svg
}

fn plot_width() -> f64 {
    WIDTH - LEFT - RIGHT
}

fn plot_height() -> f64 {
    HEIGHT - TOP - BOTTOM
}

/// x of hop position j (1-based); a single position sits in the middle.
fn x_of(j: usize, max_hops: usize) -> f64 {
    if max_hops <= 1 {
        return LEFT + plot_width() / 2.0;
    }
    LEFT + plot_width() * (j - 1) as f64 / (max_hops - 1) as f64
}

fn y_of(share: f64) -> f64 {
    TOP + plot_height() * (1.0 - share.clamp(0.0, 1.0))
}

fn axes(svg: &mut String, max_hops: usize) {
    let (x0, x1) = (LEFT, LEFT + plot_width());
    for tick in 0..=4 {
        let share = f64::from(tick) / 4.0;
        let y = y_of(share);
        let _ = writeln!(
            svg,
            "<line x1=\"{x0}\" y1=\"{y}\" x2=\"{x1}\" y2=\"{y}\" stroke=\"#e4e7ec\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}%</text>",
            x0 - 6.0,
            y + 4.0,
            tick * 25
        );
    }
    let base = TOP + plot_height();
    for j in 1..=max_hops {
        let x = x_of(j, max_hops);
        let _ = writeln!(
            svg,
            "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{j}</text>",
            base + 16.0
        );
    }
    let _ = writeln!(
        svg,
        "<line x1=\"{x0}\" y1=\"{base}\" x2=\"{x1}\" y2=\"{base}\" stroke=\"#667085\"/>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">hop position j</text>",
        LEFT + plot_width() / 2.0,
        HEIGHT - 6.0
    );
}

fn series(svg: &mut String, row: &PositionRow, max_hops: usize, colour: &str, index: usize) {
    let points: Vec<(f64, f64)> = row
        .share
        .iter()
        .enumerate()
        .map(|(j, &s)| (x_of(j + 1, max_hops), y_of(s)))
        .collect();
    let label = format!(
        "{} hop{} ({} task{})",
        row.hops,
        if row.hops == 1 { "" } else { "s" },
        row.tasks,
        if row.tasks == 1 { "" } else { "s" }
    );
    let _ = write!(svg, "<g class=\"series\" data-hops=\"{}\">", row.hops);
    if points.len() > 1 {
        let path: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = write!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
            path.join(" ")
        );
    }
    for (j, ((x, y), share)) in points.iter().zip(&row.share).enumerate() {
        let reached = row.reached.get(j).copied().unwrap_or(0);
        let _ = write!(
            svg,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"{colour}\"><title>{}: hop {}: \
             {}% ({reached}/{})</title></circle>",
            esc(&label),
            j + 1,
            percent(*share),
            row.tasks
        );
    }
    let ly = TOP + 8.0 + 18.0 * index as f64;
    let lx = LEFT + plot_width() + 16.0;
    let _ = writeln!(
        svg,
        "<line x1=\"{lx}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{colour}\" \
         stroke-width=\"3\"/><text x=\"{}\" y=\"{}\">{}</text></g>",
        lx + 18.0,
        lx + 24.0,
        ly + 4.0,
        esc(&label)
    );
}
