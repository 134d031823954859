//! Page building blocks shared by every site: escaping, the page frame (header with the
//! site's navigation, main, footer), pagination, form fields and facet links. Pages are
//! plain semantic HTML so that Chrome's accessibility tree names everything: labelled
//! inputs, headings, nav landmarks, links with text and images with alt text.

use super::http::{Req, Resp};
use super::site::Ctx;
use std::fmt::Write as _;

/// Escapes text for HTML element content and double-quoted attributes.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CSS: &str = "body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fafafa}\
header{background:var(--accent);color:#fff;padding:8px 16px;display:flex;gap:24px;align-items:center}\
header a{color:#fff}.brand{font-size:1.4em;font-weight:bold;text-decoration:none}\
header ul,footer ul{list-style:none;display:flex;gap:16px;margin:0;padding:0;flex-wrap:wrap}\
main{max-width:1100px;margin:0 auto;padding:16px}\
footer{border-top:1px solid #ccc;padding:12px 16px;font-size:.9em;color:#555}\
.cards{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:16px}\
.cards li,.result{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px}\
.results{list-style:none;padding:0}.result{margin-bottom:10px;display:flex;gap:12px}\
.layout{display:flex;gap:24px}aside{min-width:200px}\
form.search{background:#fff;border:1px solid #ddd;padding:12px;display:flex;gap:12px;flex-wrap:wrap;align-items:end}\
form.search label{display:flex;flex-direction:column;font-size:.9em}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}\
.infobox{float:right;margin:0 0 12px 16px;background:#fff;border:1px solid #ccc;padding:8px}\
nav.pages ul{list-style:none;display:flex;gap:8px;padding:0}.price{font-weight:bold}";

/// A whole HTML document: the site's header and navigation, `body` in `<main>`, and
/// a footer naming the sandbox. The title is "`title` | Site name" as on real sites.
pub fn page(ctx: &Ctx, title: &str, body: &str) -> Resp {
    Resp::html(document(ctx, title, body))
}

pub fn document(ctx: &Ctx, title: &str, body: &str) -> String {
    let def = ctx.def;
    let full_title = if title.is_empty() {
        def.name.to_string()
    } else {
        format!("{title} | {}", def.name)
    };
    let mut nav = String::new();
    for (label, path) in def.nav {
        let _ = write!(nav, "<li><a href=\"{}\">{}</a></li>", esc(path), esc(label));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{}</title><style>:root{{--accent:{}}}{CSS}</style></head>\n<body>\
<header><a class=\"brand\" href=\"/\">{}</a><nav aria-label=\"Main\"><ul>{nav}</ul></nav></header>\n\
<main>{body}</main>\n<footer><p>{} — {}. Part of the hopbench offline sandbox; \
all content is fictional.</p></footer>\n</body></html>\n",
        esc(&full_title),
        def.accent,
        esc(def.name),
        esc(def.name),
        esc(def.tagline),
    )
}

/// The 404 page: says what was asked for and lists every URL pattern the site serves.
pub fn not_found(ctx: &Ctx, what: &str) -> Resp {
    let mut body = format!(
        "<h1>Page not found</h1><p>{} has no page at <code>{}</code>.</p>\
<h2>Pages on this site</h2><ul>",
        esc(ctx.def.name),
        esc(what)
    );
    for (pattern, about) in ctx.def.routes {
        let _ = write!(
            body,
            "<li><code>{}</code>: {}</li>",
            esc(pattern),
            esc(about)
        );
    }
    body.push_str("</ul><p><a href=\"/\">Back to the home page</a></p>");
    page(ctx, "Page not found", &body).with_status(404)
}

/// Pagination: a slice of `items` for the request's `page` and the nav that moves
/// between pages, keeping every filter in the links. Out-of-range pages show no items.
pub fn paginate<'a, T>(req: &Req, items: &'a [T], per_page: usize) -> (&'a [T], String) {
    let pages = items.len().div_ceil(per_page).max(1);
    let page = req.page();
    let start = (page - 1).saturating_mul(per_page).min(items.len());
    let end = (start + per_page).min(items.len());
    let mut nav = format!(
        "<nav class=\"pages\" aria-label=\"Pagination\"><p>Page {page} of {pages} ({} result{})</p><ul>",
        items.len(),
        if items.len() == 1 { "" } else { "s" }
    );
    if page > 1 {
        let _ = write!(
            nav,
            "<li><a href=\"{}\" rel=\"prev\">Previous page</a></li>",
            esc(&req.with("page", &(page - 1).to_string()))
        );
    }
    for p in 1..=pages {
        if p == page {
            let _ = write!(nav, "<li aria-current=\"page\">{p}</li>");
        } else {
            let _ = write!(
                nav,
                "<li><a href=\"{}\" aria-label=\"Page {p}\">{p}</a></li>",
                esc(&req.with("page", &p.to_string()))
            );
        }
    }
    if page < pages {
        let _ = write!(
            nav,
            "<li><a href=\"{}\" rel=\"next\">Next page</a></li>",
            esc(&req.with("page", &(page + 1).to_string()))
        );
    }
    nav.push_str("</ul></nav>");
    (&items[start..end], nav)
}

/// One facet group: links that set `param` to each value (the first entry, "Any" or
/// for `sort` "Recommended", clears it); the current choice is marked, not a link.
pub fn facet(req: &Req, heading: &str, param: &str, options: &[(String, String)]) -> String {
    let mut out = format!("<section><h3>{}</h3><ul>", esc(heading));
    let current = req.get(param).unwrap_or("");
    let default = if param == "sort" {
        "Recommended"
    } else {
        "Any"
    };
    let any = std::iter::once((String::new(), default.to_string()));
    for (value, label) in any.chain(options.iter().cloned()) {
        if value.eq_ignore_ascii_case(current) {
            let _ = write!(
                out,
                "<li><strong aria-current=\"true\">{}</strong></li>",
                esc(&label)
            );
        } else {
            let _ = write!(
                out,
                "<li><a href=\"{}\">{}</a></li>",
                esc(&req.with(param, &value)),
                esc(&label)
            );
        }
    }
    out.push_str("</ul></section>");
    out
}

/// Owned (value, label) pairs from string slices, for `facet` and `select`.
pub fn opts(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(v, l)| (v.to_string(), l.to_string()))
        .collect()
}

/// `options` after a leading "no choice" entry (`""`, `any`), for a filter select.
pub fn with_any(
    any: &str,
    options: impl IntoIterator<Item = (String, String)>,
) -> Vec<(String, String)> {
    std::iter::once((String::new(), any.to_string()))
        .chain(options)
        .collect()
}

/// An input showing the request's value of `name`, or `default` when it has none, so a
/// results page repeats the search that led to it.
pub fn bound_input(req: &Req, label: &str, name: &str, kind: &str, default: &str) -> String {
    input(label, name, kind, req.get(name).unwrap_or(default))
}

/// A search form with one search box (`name` = `q`), as a site's header search.
pub fn search_box(action: &str, label: &str, field: &str, name: &str, q: &str) -> String {
    form(action, label, &[input(field, name, "search", q)], "Search")
}

/// A labelled text-like input (`type` text, search, date, number) prefilled from `value`.
pub fn input(label: &str, name: &str, kind: &str, value: &str) -> String {
    format!(
        "<label>{} <input type=\"{kind}\" name=\"{name}\" value=\"{}\"></label>",
        esc(label),
        esc(value)
    )
}

/// A labelled select; `options` are (value, label), the one equal to `value` selected.
pub fn select(label: &str, name: &str, options: &[(String, String)], value: &str) -> String {
    let mut out = format!("<label>{} <select name=\"{name}\">", esc(label));
    for (v, l) in options {
        let sel = if v.eq_ignore_ascii_case(value) {
            " selected"
        } else {
            ""
        };
        let _ = write!(out, "<option value=\"{}\"{sel}>{}</option>", esc(v), esc(l));
    }
    out.push_str("</select></label>");
    out
}

/// A GET search form posting to `action` with the given fields and a submit button.
pub fn form(action: &str, label: &str, fields: &[String], button: &str) -> String {
    format!(
        "<form class=\"search\" method=\"get\" action=\"{}\" role=\"search\" aria-label=\"{}\">{}<button type=\"submit\">{}</button></form>",
        esc(action),
        esc(label),
        fields.concat(),
        esc(button)
    )
}

/// An image element with alt text and fixed size (sizes keep layout stable for the
/// observation's viewport filter).
pub fn img(src: &str, alt: &str, width: u32) -> String {
    let height = width * 2 / 3;
    format!(
        "<img src=\"{}\" alt=\"{}\" width=\"{width}\" height=\"{height}\">",
        esc(src),
        esc(alt)
    )
}

/// `1234.5` → `1,234.50`; prices are shown with thousands separators as real sites do.
pub fn money(amount: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, amount.abs());
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let mut grouped = String::new();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if amount < 0.0 { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    }
}

/// "4.5 out of 5" style rating text.
pub fn stars(rating: f64) -> String {
    format!("{rating:.1} out of 5")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_groups_thousands() {
        assert_eq!(money(1234.5, 2), "1,234.50");
        assert_eq!(money(999.0, 0), "999");
        assert_eq!(money(1_000_000.0, 0), "1,000,000");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
