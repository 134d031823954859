//! CoinConvert (xe.com-like): a converter form, the result page with the rate, a rate
//! table for any base, and a page per currency.

use super::{load, SandboxError};
use crate::html::{self, esc, form, input, money, page, select};
use crate::http::{encode, Req, Resp};
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "currency",
    name: "CoinConvert",
    tagline: "Live-looking exchange rates, frozen for the sandbox",
    offset: 7,
    accent: "#0b6e4f",
    nav: &[
        ("Converter", "/"),
        ("Rate table", "/rates"),
        ("Currencies", "/currencies"),
    ],
    routes: &[
        ("/", "the converter form"),
        (
            "/convert?amount=100&from=USD&to=JPY",
            "a conversion with its rate",
        ),
        ("/rates?base=EUR", "every rate against one base currency"),
        ("/currencies", "all currencies"),
        ("/currency/JPY", "one currency"),
    ],
    build,
};

#[derive(Deserialize)]
struct Data {
    as_of: String,
    currencies: Vec<Currency>,
}

#[derive(Deserialize)]
struct Currency {
    code: String,
    name: String,
    symbol: String,
    /// Units of this currency one US dollar buys.
    per_usd: f64,
    countries: Vec<String>,
}

struct CoinConvert(Data);

fn build() -> Result<Box<dyn Site>, SandboxError> {
    let data: Data = load("currency.json", include_str!("../../data/currency.json"))?;
    Ok(Box::new(CoinConvert(data)))
}

/// Rates with 4 decimals, or 6 when under 1 (1 JPY = 0.006606 USD), as converters show.
fn rate_text(rate: f64) -> String {
    if rate >= 1.0 {
        format!("{rate:.4}")
    } else {
        format!("{rate:.6}")
    }
}

impl CoinConvert {
    fn find(&self, code: &str) -> Option<&Currency> {
        self.0
            .currencies
            .iter()
            .find(|c| c.code.eq_ignore_ascii_case(code))
    }

    /// How many `to` one `from` buys.
    fn rate(from: &Currency, to: &Currency) -> f64 {
        to.per_usd / from.per_usd
    }

    fn options(&self) -> Vec<(String, String)> {
        self.0
            .currencies
            .iter()
            .map(|c| (c.code.clone(), format!("{} – {}", c.code, c.name)))
            .collect()
    }

    fn converter(&self, amount: &str, from: &str, to: &str) -> String {
        form(
            "/convert",
            "Currency converter",
            &[
                input("Amount", "amount", "number", amount),
                select("From", "from", &self.options(), from),
                select("To", "to", &self.options(), to),
            ],
            "Convert",
        )
    }

    fn home(&self, ctx: &Ctx) -> Resp {
        let mut body = format!(
            "<h1>Currency converter</h1>{}<h2>Popular conversions</h2><ul>",
            self.converter("100", "USD", "EUR")
        );
        for (f, t) in [
            ("USD", "EUR"),
            ("EUR", "GBP"),
            ("USD", "JPY"),
            ("GBP", "USD"),
            ("AUD", "USD"),
            ("EUR", "THB"),
        ] {
            let _ = write!(
                body,
                "<li><a href=\"/convert?amount=100&amp;from={f}&amp;to={t}\">100 {f} to {t}</a></li>"
            );
        }
        let _ = write!(body, "</ul><p>Rates as of {}.</p>", esc(&self.0.as_of));
        page(ctx, "", &body)
    }

    fn convert(&self, ctx: &Ctx, req: &Req) -> Resp {
        let amount_text = req.get("amount").unwrap_or("1");
        let (from, to) = (
            req.get("from").unwrap_or("USD"),
            req.get("to").unwrap_or("EUR"),
        );
        let amount: Option<f64> = amount_text
            .replace(',', "")
            .parse()
            .ok()
            .filter(|a: &f64| a.is_finite() && *a >= 0.0);
        let mut body = format!("<h1>Convert {} to {}</h1>", esc(from), esc(to));
        body.push_str(&self.converter(amount_text, from, to));
        match (self.find(from), self.find(to), amount) {
            (Some(f), Some(t), Some(a)) => {
                let rate = Self::rate(f, t);
                let _ = write!(
                    body,
                    "<section aria-label=\"Result\"><h2>{} {} = {} {}</h2>\
<p>1 {} = {} {}</p><p>1 {} = {} {}</p><p>Mid-market rate as of {}.</p>\
<p><a href=\"/convert?amount={}&amp;from={}&amp;to={}\">Swap: convert {} to {}</a></p>\
<p><a href=\"/currency/{}\">About the {}</a></p></section>",
                    money(a, 2),
                    esc(&f.code),
                    money(a * rate, 2),
                    esc(&t.code),
                    esc(&f.code),
                    rate_text(rate),
                    esc(&t.code),
                    esc(&t.code),
                    rate_text(1.0 / rate),
                    esc(&f.code),
                    esc(&self.0.as_of),
                    encode(amount_text),
                    esc(&t.code),
                    esc(&f.code),
                    esc(&t.code),
                    esc(&f.code),
                    esc(&t.code),
                    esc(&t.name),
                );
                page(
                    ctx,
                    &format!("{} {} to {}", money(a, 2), f.code, t.code),
                    &body,
                )
            }
            _ => {
                body.push_str(
                    "<p role=\"alert\">Choose two known currencies and a non-negative amount.</p>",
                );
                page(ctx, "Conversion error", &body).with_status(400)
            }
        }
    }

    fn rates(&self, ctx: &Ctx, req: &Req) -> Resp {
        let base_code = req.get("base").unwrap_or("USD");
        let Some(base) = self.find(base_code) else {
            return html::not_found(ctx, &format!("/rates?base={base_code}"));
        };
        let mut body = format!(
            "<h1>Exchange rates against the {} ({})</h1><p>As of {}.</p><p>Base: ",
            esc(&base.name),
            esc(&base.code),
            esc(&self.0.as_of)
        );
        for c in &self.0.currencies {
            let _ = write!(body, "<a href=\"/rates?base={0}\">{0}</a> ", esc(&c.code));
        }
        let _ = write!(body, "</p><table><caption>1 {} in other currencies</caption><thead><tr><th>Currency</th><th>Code</th><th>Rate</th></tr></thead><tbody>", esc(&base.code));
        for c in self.0.currencies.iter().filter(|c| c.code != base.code) {
            let _ = write!(
                body,
                "<tr><td><a href=\"/currency/{code}\">{}</a></td><td>{code}</td><td>{}</td></tr>",
                esc(&c.name),
                rate_text(Self::rate(base, c)),
                code = esc(&c.code),
            );
        }
        body.push_str("</tbody></table>");
        page(ctx, &format!("{} rates", base.code), &body)
    }

    fn list(&self, ctx: &Ctx) -> Resp {
        let mut body = String::from("<h1>Currencies</h1><ul>");
        for c in &self.0.currencies {
            let _ = write!(
                body,
                "<li><a href=\"/currency/{}\">{} ({})</a></li>",
                esc(&c.code),
                esc(&c.name),
                esc(&c.code)
            );
        }
        body.push_str("</ul>");
        page(ctx, "Currencies", &body)
    }

    fn currency(&self, ctx: &Ctx, code: &str) -> Resp {
        let Some(c) = self.find(code) else {
            return html::not_found(ctx, &format!("/currency/{code}"));
        };
        let usd = self.find("USD").map_or(1.0, |u| Self::rate(c, u));
        let body = format!(
            "<h1>{} ({})</h1><dl><dt>Symbol</dt><dd>{}</dd><dt>Used in</dt><dd>{}</dd>\
<dt>Value of 1 {code}</dt><dd>{} USD</dd><dt>1 USD buys</dt><dd>{} {code}</dd></dl>\
<p><a href=\"/rates?base={code}\">All rates against {code}</a> · \
<a href=\"/convert?amount=100&amp;from={code}&amp;to=USD\">Convert 100 {code} to USD</a></p>",
            esc(&c.name),
            esc(&c.code),
            esc(&c.symbol),
            esc(&c.countries.join(", ")),
            rate_text(usd),
            rate_text(c.per_usd),
            code = esc(&c.code),
        );
        page(ctx, &c.name, &body)
    }
}

impl Site for CoinConvert {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx),
            ["convert"] => self.convert(ctx, req),
            ["rates"] => self.rates(ctx, req),
            ["currencies"] => self.list(ctx),
            ["currency", code] => self.currency(ctx, code),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
