//! HTML pages of a report: `report.html` and one viewer page per trajectory.
//!
//! Pages are self-contained (inline CSS and SVG, no script, no network) so a report
//! folder can be zipped, mailed and opened from disk. Every piece of run data goes
//! through [`esc`]; the Content-Security-Policy forbids scripts as a second line of
//! defence should something slip through.

mod analysis;
mod chart;
mod human;
pub(crate) mod index;
mod trajectory;

pub(crate) use analysis::analysis_sections;
pub use index::report_page;
pub use trajectory::trajectory_page;

/// Escapes text for HTML element content and quoted attribute values alike.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// No scripts, no fetches; images only from the page's own folder or inline data.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' file: data:";

const CSS: &str = "
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2433;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
table{border-collapse:collapse;margin:8px 0}
th,td{border:1px solid #d5d9e0;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f2f4f7}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
#tasks td:first-child{white-space:nowrap}
.muted{color:#667085}.small{font-size:12px}
.PASS{color:#067647;font-weight:600}.FAIL{color:#b42318;font-weight:600}
.ERROR{color:#b54708;font-weight:600}.STOPPED{color:#475467;font-weight:600}
.err{color:#b42318;white-space:pre-wrap;max-width:36em}
.answer{max-width:24em;overflow-wrap:anywhere}
.without-reply{color:#b54708}
.why{max-width:40em;overflow-wrap:anywhere}.why>span{display:block}.why .end{font-weight:600}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f8f9fb;border:1px solid #e4e7ec;padding:8px;margin:4px 0;max-height:40em;overflow:auto}
.step{border:1px solid #d5d9e0;border-radius:6px;padding:10px 14px;margin:14px 0}
.step h3{margin:0 0 6px;font-size:15px}
.shot{max-width:100%;max-height:480px;border:1px solid #d5d9e0}
.thumbs img{max-height:120px;margin:4px;border:1px solid #d5d9e0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}
dt{color:#667085}dd{margin:0;overflow-wrap:anywhere}
svg text{font:12px system-ui,sans-serif;fill:#1d2433}
";

/// A whole page around `body` (already HTML); `title` is escaped here.
pub(crate) fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        esc(title)
    )
}

/// A fraction as a percentage with two decimals, as the paper's tables print it.
pub(crate) fn percent(fraction: f64) -> String {
    format!("{:.2}", fraction * 100.0)
}

/// An empty bucket has no rate; a dash keeps it from reading as 0%.
pub(crate) fn percent_or_dash(fraction: Option<f64>) -> String {
    fraction.map_or_else(|| "—".to_string(), percent)
}

/// `12,345`: token counts run into the millions.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 03 min`.
pub(crate) fn duration(ms: u64) -> String {
    if ms < 1000 {
        return format!("{ms} ms");
    }
    let secs = ms / 1000;
    if secs < 60 {
        return format!("{}.{} s", secs, (ms % 1000) / 100);
    }
    if secs < 3600 {
        return format!("{} min {:02} s", secs / 60, secs % 60);
    }
    format!("{} h {:02} min", secs / 3600, (secs % 3600) / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_both_quotes() {
        assert_eq!(
            esc(r#"<a href="x" onclick='y'>&</a>"#),
            "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(duration(850), "850 ms");
        assert_eq!(duration(12_345), "12.3 s");
        assert_eq!(duration(245_000), "4 min 05 s");
        assert_eq!(duration(7_380_000), "2 h 03 min");
        assert_eq!(percent(2.0 / 3.0), "66.67");
        assert_eq!(percent_or_dash(None), "—");
    }
}
