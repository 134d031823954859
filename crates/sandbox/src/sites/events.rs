//! CityEvents (eventbrite-like): city, date and category → an events list → an event
//! page → tickets. Searching redirects to the city's canonical list URL, as real event
//! sites do (`/events/search?city=tokyo` → `/events/tokyo`).

use super::{
    cities, city_options, find_city, image, labelled, load_pictured, reference, City, SandboxError,
};
use crate::date::Date;
use crate::html::{
    self, bound_input, esc, facet, form, img, input, opts, page, paginate, select, with_any,
};
use crate::http::{encode, Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "events",
    name: "CityEvents",
    tagline: "things to do this season",
    offset: 5,
    accent: "#db2777",
    nav: &[("Find events", "/"), ("All cities", "/events")],
    routes: &[
        ("/", "the search form"),
        ("/events/search?city=<slug>&date=YYYY-MM-DD&category=<category>", "redirects to /events/<city>?date=&category="),
        ("/events", "cities with events"),
        ("/events/<city>?date=YYYY-MM-DD&month=YYYY-MM&category=<category>&sort=<date|price>&page=<n>", "events in a city"),
        ("/events/<city>/<slug>", "an event"),
        ("/events/<city>/<slug>/tickets?qty=<n>&name=<text>", "ticket confirmation"),
        ("/img/<slug>.png", "an event's picture"),
    ],
    build,
};

const CATEGORIES: &[(&str, &str)] = &[
    ("music", "Music"),
    ("food", "Food & drink"),
    ("art", "Art"),
    ("sports", "Sports"),
    ("theatre", "Theatre"),
    ("tech", "Tech"),
    ("family", "Family"),
];
const MONTHS: &[(&str, &str)] = &[
    ("2026-11", "November 2026"),
    ("2026-12", "December 2026"),
    ("2027-01", "January 2027"),
    ("2027-02", "February 2027"),
];

#[derive(Deserialize)]
struct Event {
    slug: String,
    title: String,
    city: String,
    category: String,
    date: String,
    time: String,
    venue: String,
    /// USD per ticket; 0 is free.
    price: u32,
    organizer: String,
    description: String,
    image: ImageSpec,
}

impl Event {
    fn price_text(&self) -> String {
        if self.price == 0 {
            "Free".to_string()
        } else {
            format!("${}", self.price)
        }
    }

    fn when(&self) -> String {
        let day = Date::parse(&self.date).map_or(self.date.clone(), Date::pretty);
        format!("{day}, {}", self.time)
    }
}

struct Events {
    events: Vec<Event>,
    cities: Vec<City>,
}

fn build() -> Result<Box<dyn Site>, SandboxError> {
    Ok(Box::new(Events {
        events: load_pictured(
            "events.json",
            include_str!("../../data/events.json"),
            |e: &Event| (&e.slug, &e.image),
        )?,
        cities: cities()?,
    }))
}

fn category_name(slug: &str) -> &str {
    CATEGORIES
        .iter()
        .find(|(k, _)| *k == slug)
        .map_or(slug, |(_, n)| n)
}

impl Events {
    fn search_form(&self, city: &str, req: &Req) -> String {
        let cats = with_any("All categories", opts(CATEGORIES));
        form(
            "/events/search",
            "Event search",
            &[
                select("City", "city", &city_options(&self.cities), city),
                bound_input(req, "Date", "date", "date", ""),
                select(
                    "Category",
                    "category",
                    &cats,
                    req.get("category").unwrap_or(""),
                ),
            ],
            "Find events",
        )
    }

    fn home(&self, ctx: &Ctx, req: &Req) -> Resp {
        let mut body = format!(
            "<h1>Discover events</h1>{}<h2>Browse by category</h2><ul>",
            self.search_form("", req)
        );
        for (slug, name) in CATEGORIES {
            let n = self.events.iter().filter(|e| e.category == *slug).count();
            let _ = write!(body, "<li>{name}: {n} events</li>");
        }
        body.push_str("</ul>");
        page(ctx, "", &body)
    }

    fn cities_page(&self, ctx: &Ctx) -> Resp {
        let mut body = String::from("<h1>Events by city</h1><ul>");
        for c in &self.cities {
            let n = self.events.iter().filter(|e| e.city == c.slug).count();
            let _ = write!(
                body,
                "<li><a href=\"/events/{}\">Events in {}</a> ({n})</li>",
                esc(&c.slug),
                esc(&c.name)
            );
        }
        body.push_str("</ul>");
        page(ctx, "Events by city", &body)
    }

    fn search(&self, ctx: &Ctx, req: &Req) -> Resp {
        let Some(city) = req.get("city").and_then(|c| find_city(&self.cities, c)) else {
            let body = format!(
                "<h1>Find events</h1>{}<p role=\"alert\">Choose a city.</p>",
                self.search_form("", req)
            );
            return page(ctx, "Find events", &body);
        };
        let mut target = format!("/events/{}", city.slug);
        let mut sep = '?';
        for key in ["date", "category"] {
            if let Some(v) = req.get(key) {
                let _ = write!(target, "{sep}{key}={}", encode(v));
                sep = '&';
            }
        }
        Resp::redirect(target)
    }

    fn list(&self, ctx: &Ctx, req: &Req, city_slug: &str) -> Resp {
        let Some(city) = self.cities.iter().find(|c| c.slug == city_slug) else {
            return html::not_found(ctx, &req.path);
        };
        let mut shown: Vec<&Event> = self
            .events
            .iter()
            .filter(|e| e.city == city.slug)
            .filter(|e| req.get("date").is_none_or(|d| e.date == d))
            .filter(|e| req.get("month").is_none_or(|m| e.date.starts_with(m)))
            .filter(|e| {
                req.get("category")
                    .is_none_or(|c| e.category.eq_ignore_ascii_case(c))
            })
            .collect();
        match req.get("sort") {
            Some("price") => shown.sort_by_key(|e| (e.price, e.date.clone())),
            _ => shown.sort_by_key(|e| (e.date.clone(), e.time.clone())),
        }
        let (items, nav) = paginate(req, &shown, 4);
        let on = req
            .get("date")
            .and_then(Date::parse)
            .map_or(String::new(), |d| format!(" on {}", d.pretty()));
        let mut body = format!(
            "<h1>Events in {}{on}</h1>{}<div class=\"layout\"><aside aria-label=\"Filters\">{}{}{}</aside><section aria-label=\"Events\"><ul class=\"results\">",
            esc(&city.name),
            self.search_form(&city.slug, req),
            facet(req, "Sort by", "sort", &opts(&[("date", "Date"), ("price", "Price")])),
            facet(req, "Category", "category", &opts(CATEGORIES)),
            facet(req, "Month", "month", &opts(MONTHS)),
        );
        for e in items {
            let _ = write!(
                body,
                "<li class=\"result\">{}<div><h3><a href=\"/events/{}/{}\">{}</a></h3><p>{} · {} · {}</p><p class=\"price\">{}</p></div></li>",
                img(&format!("/img/{}.png", e.slug), &e.title, 150),
                esc(&e.city), esc(&e.slug), esc(&e.title), esc(&e.when()), esc(&e.venue), category_name(&e.category), e.price_text(),
            );
        }
        if items.is_empty() {
            body.push_str("<li>No events match. Try another date or category.</li>");
        }
        let _ = write!(body, "</ul>{nav}</section></div>");
        page(ctx, &format!("Events in {}", city.name), &body)
    }

    fn find(&self, city: &str, slug: &str) -> Option<&Event> {
        self.events
            .iter()
            .find(|e| e.city == city && e.slug == slug)
    }

    fn event(&self, ctx: &Ctx, req: &Req, city: &str, slug: &str) -> Resp {
        let Some(e) = self.find(city, slug) else {
            return html::not_found(ctx, &req.path);
        };
        let city_name =
            find_city(&self.cities, &e.city).map_or(e.city.as_str(), |c| c.name.as_str());
        let body = format!(
            "<nav aria-label=\"Breadcrumb\"><a href=\"/events/{}\">Events in {}</a></nav><h1>{}</h1><figure>{}</figure>\
<dl><dt>When</dt><dd>{}</dd><dt>Where</dt><dd>{}, {}</dd><dt>Category</dt><dd>{}</dd><dt>Price</dt><dd class=\"price\">{}</dd>\
<dt>Organizer</dt><dd>{}</dd></dl><p>{}</p>\
<form method=\"get\" action=\"/events/{}/{}/tickets\" aria-label=\"Get tickets\"><label>Tickets <input type=\"number\" name=\"qty\" value=\"1\" min=\"1\" max=\"10\"></label>{}<button type=\"submit\">Get tickets</button></form>\
<h2>Staying in {}?</h2><ul><li>{}</li><li>{}</li></ul>",
            esc(&e.city), esc(city_name), esc(&e.title), img(&format!("/img/{}.png", e.slug), &e.title, 320),
            esc(&e.when()), esc(&e.venue), esc(city_name), category_name(&e.category), e.price_text(), esc(&e.organizer), esc(&e.description),
            esc(&e.city), esc(&e.slug), input("Your name", "name", "text", ""),
            esc(city_name),
            ctx.cross("hotels", &format!("/hotels/search?city={}&checkin={}", e.city, e.date), &format!("Hotels in {city_name}")),
            ctx.cross("travel", &format!("/destination/{}", e.city), &format!("{city_name} travel guide")),
        );
        page(ctx, &e.title, &body)
    }

    fn tickets(&self, ctx: &Ctx, req: &Req, city: &str, slug: &str) -> Resp {
        let Some(e) = self.find(city, slug) else {
            return html::not_found(ctx, &req.path);
        };
        let qty = req.num("qty").unwrap_or(1).clamp(1, 10);
        let name = req.get("name").unwrap_or("Guest");
        let code = reference("CE", &[&e.slug, &qty.to_string(), name]);
        let total = if e.price == 0 {
            "Free".to_string()
        } else {
            format!("${}", e.price * qty)
        };
        let body = format!(
            "<h1>You're going!</h1><p role=\"status\">Order <strong>{code}</strong> for {}: {qty} ticket(s) to {} on {}.</p><p>Total: <span class=\"price\">{total}</span></p>",
            esc(name), esc(&e.title), esc(&e.when()),
        );
        page(ctx, "Order confirmed", &body)
    }
}

impl Site for Events {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx, req),
            ["events"] => self.cities_page(ctx),
            ["events", "search"] => self.search(ctx, req),
            ["events", city] => self.list(ctx, req, city),
            ["events", city, slug] => self.event(ctx, req, city, slug),
            ["events", city, slug, "tickets"] => self.tickets(ctx, req, city, slug),
            ["img", file] => image(ctx, file, |s| {
                self.events
                    .iter()
                    .find(|e| e.slug == s)
                    .map(|e| labelled(&e.image, &e.title))
            }),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
