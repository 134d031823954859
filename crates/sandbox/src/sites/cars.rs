//! DriveAway Car Hire (trip.com car hire-like): pick-up city and dates → cars with
//! type and transmission filters → a car page → booking confirmation. A car's colour
//! is only in its picture ("which car is red?" needs the image).

use super::{
    by_slug, chosen_city, cities, city_options, find_city, image, labelled, load_pictured,
    reference, City, SandboxError,
};
use crate::date::{span, Date};
use crate::html::{
    self, bound_input, esc, facet, form, img, input, money, opts, page, paginate, select,
};
use crate::http::{encode, Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "cars",
    name: "DriveAway Car Hire",
    tagline: "rental cars from trusted local companies",
    offset: 4,
    accent: "#b91c1c",
    nav: &[("Search cars", "/"), ("Our fleet", "/fleet")],
    routes: &[
        ("/", "the search form"),
        ("/cars/search?city=<slug>&pickup=YYYY-MM-DD&dropoff=YYYY-MM-DD&type=<type>&transmission=<automatic|manual>&sort=<price|seats>&page=<n>", "cars in a city"),
        ("/car/<id>?city=&pickup=&dropoff=", "a car"),
        ("/car/<id>/book?city=&pickup=&dropoff=&name=", "booking confirmation"),
        ("/fleet", "every car model"),
        ("/img/<id>.png", "a car's picture"),
    ],
    build,
};

const TYPES: &[(&str, &str)] = &[
    ("economy", "Economy"),
    ("compact", "Compact"),
    ("electric", "Electric"),
    ("suv", "SUV"),
    ("van", "Van"),
    ("luxury", "Luxury"),
    ("convertible", "Convertible"),
];

#[derive(Deserialize)]
struct Car {
    id: String,
    model: String,
    #[serde(rename = "type")]
    kind: String,
    seats: u32,
    bags: u32,
    transmission: String,
    company: String,
    /// USD per day.
    price: u32,
    cities: Vec<String>,
    mileage: String,
    image: ImageSpec,
}

struct Cars {
    cars: Vec<Car>,
    cities: Vec<City>,
}

fn build() -> Result<Box<dyn Site>, SandboxError> {
    Ok(Box::new(Cars {
        cars: load_pictured(
            "cars.json",
            include_str!("../../data/cars.json"),
            |c: &Car| (&c.id, &c.image),
        )?,
        cities: cities()?,
    }))
}

fn type_name(kind: &str) -> &str {
    TYPES
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(kind, |(_, n)| n)
}

/// `city=..&pickup=..&dropoff=..` of the request, for links that keep the trip.
fn trip_query(req: &Req) -> String {
    ["city", "pickup", "dropoff"]
        .iter()
        .filter_map(|k| req.get(k).map(|v| format!("{k}={}", encode(v))))
        .collect::<Vec<_>>()
        .join("&")
}

impl Cars {
    fn search_form(&self, req: &Req) -> String {
        let city = chosen_city(&self.cities, req);
        form(
            "/cars/search",
            "Car search",
            &[
                select("Pick-up city", "city", &city_options(&self.cities), city),
                bound_input(req, "Pick-up date", "pickup", "date", ""),
                bound_input(req, "Drop-off date", "dropoff", "date", ""),
            ],
            "Search cars",
        )
    }

    fn home(&self, ctx: &Ctx, req: &Req) -> Resp {
        let body = format!(
            "<h1>Rent a car</h1>{}<p>Prices per day in US dollars, insurance included.</p>",
            self.search_form(req)
        );
        page(ctx, "", &body)
    }

    fn row(c: &Car, days: Option<i64>, trip: &str) -> String {
        let total = days.map_or(String::new(), |d| {
            format!(
                " · ${} for {d} day{}",
                money(f64::from(c.price) * d as f64, 0),
                if d == 1 { "" } else { "s" }
            )
        });
        let q = if trip.is_empty() {
            String::new()
        } else {
            format!("?{trip}")
        };
        format!(
            "<li class=\"result\">{}<div><h3><a href=\"/car/{}{}\">{}</a></h3><p>{} · {} seats · {} bags · {}</p><p>Supplier: {}</p>\
<p class=\"price\">${} per day{total}</p></div></li>",
            img(&format!("/img/{}.png", c.id), &format!("{} (or similar)", c.model), 150),
            esc(&c.id), esc(&q), esc(&c.model), type_name(&c.kind), c.seats, c.bags, esc(&c.transmission), esc(&c.company), c.price,
        )
    }

    fn search(&self, ctx: &Ctx, req: &Req) -> Resp {
        let mut body = format!("<h1>Car search</h1>{}", self.search_form(req));
        let Some(city) = req.get("city").and_then(|c| find_city(&self.cities, c)) else {
            body.push_str("<p role=\"alert\">Choose a pick-up city to see cars.</p>");
            return page(ctx, "Car search", &body);
        };
        let days = span(req.get("pickup"), req.get("dropoff"));
        let mut shown: Vec<&Car> = self
            .cars
            .iter()
            .filter(|c| c.cities.contains(&city.slug))
            .filter(|c| {
                req.get("type")
                    .is_none_or(|t| c.kind.eq_ignore_ascii_case(t))
            })
            .filter(|c| {
                req.get("transmission")
                    .is_none_or(|t| c.transmission.eq_ignore_ascii_case(t))
            })
            .collect();
        match req.get("sort") {
            Some("seats") => shown.sort_by_key(|c| (std::cmp::Reverse(c.seats), c.price)),
            _ => shown.sort_by_key(|c| c.price),
        }
        let (items, nav) = paginate(req, &shown, 4);
        let dates = match (days, req.get("pickup").and_then(Date::parse)) {
            (Some(n), Some(d)) => format!(
                " from {} for {n} day{}",
                d.pretty(),
                if n == 1 { "" } else { "s" }
            ),
            _ => " (add dates to see the total price)".to_string(),
        };
        let _ = write!(
            body,
            "<h2>Cars in {}{dates}</h2><div class=\"layout\"><aside aria-label=\"Filters\">{}{}{}</aside><section aria-label=\"Cars\"><ul class=\"results\">",
            esc(&city.name),
            facet(req, "Sort by", "sort", &opts(&[("price", "Lowest price"), ("seats", "Most seats")])),
            facet(req, "Car type", "type", &opts(TYPES)),
            facet(req, "Transmission", "transmission", &opts(&[("automatic", "Automatic"), ("manual", "Manual")])),
        );
        let trip = trip_query(req);
        for c in items {
            body.push_str(&Self::row(c, days, &trip));
        }
        if items.is_empty() {
            body.push_str("<li>No cars match these filters.</li>");
        }
        let _ = write!(body, "</ul>{nav}</section></div>");
        page(ctx, &format!("Car hire in {}", city.name), &body)
    }

    fn car(&self, ctx: &Ctx, req: &Req, id: &str) -> Resp {
        let Some(c) = by_slug(&self.cars, id, |c| &c.id) else {
            return html::not_found(ctx, &req.path);
        };
        let days = span(req.get("pickup"), req.get("dropoff"));
        let places: Vec<&str> = c
            .cities
            .iter()
            .filter_map(|s| find_city(&self.cities, s))
            .map(|x| x.name.as_str())
            .collect();
        let mut body = format!(
            "<h1>{} <small>or similar</small></h1><figure>{}</figure><dl><dt>Type</dt><dd>{}</dd><dt>Seats</dt><dd>{}</dd><dt>Bags</dt><dd>{}</dd>\
<dt>Transmission</dt><dd>{}</dd><dt>Mileage</dt><dd>{}</dd><dt>Supplier</dt><dd>{}</dd><dt>Price</dt><dd class=\"price\">${} per day</dd>\
<dt>Available in</dt><dd>{}</dd></dl>",
            esc(&c.model), img(&format!("/img/{}.png", c.id), &c.model, 320), type_name(&c.kind), c.seats, c.bags,
            esc(&c.transmission), esc(&c.mileage), esc(&c.company), c.price, esc(&places.join(", ")),
        );
        let city_ok = req
            .get("city")
            .and_then(|x| find_city(&self.cities, x))
            .filter(|x| c.cities.contains(&x.slug));
        match (days, city_ok) {
            (Some(d), Some(city)) => {
                let _ = write!(
                    body,
                    "<section aria-label=\"Your rental\"><h2>Your rental in {}</h2><p>{d} day{}: <span class=\"price\">${}</span> in total.</p>\
<form method=\"get\" action=\"/car/{}/book\" aria-label=\"Book this car\"><input type=\"hidden\" name=\"city\" value=\"{}\">\
<input type=\"hidden\" name=\"pickup\" value=\"{}\"><input type=\"hidden\" name=\"dropoff\" value=\"{}\">{}<button type=\"submit\">Book this car</button></form></section>",
                    esc(&city.name), if d == 1 { "" } else { "s" }, money(f64::from(c.price) * d as f64, 0), esc(&c.id), esc(&city.slug),
                    esc(req.get("pickup").unwrap_or("")), esc(req.get("dropoff").unwrap_or("")), input("Driver name", "name", "text", ""),
                );
            }
            _ => body.push_str("<p>Search with a pick-up city and dates to book this car.</p>"),
        }
        page(ctx, &c.model, &body)
    }

    fn book(&self, ctx: &Ctx, req: &Req, id: &str) -> Resp {
        let Some(c) = by_slug(&self.cars, id, |c| &c.id) else {
            return html::not_found(ctx, &req.path);
        };
        let city = req
            .get("city")
            .and_then(|x| find_city(&self.cities, x))
            .filter(|x| c.cities.contains(&x.slug));
        let (Some(days), Some(city), Some(from)) = (
            span(req.get("pickup"), req.get("dropoff")),
            city,
            req.get("pickup").and_then(Date::parse),
        ) else {
            return page(ctx, "Booking", "<h1>Booking</h1><p role=\"alert\">Choose a city where this car is available and your dates first.</p>").with_status(400);
        };
        let name = req.get("name").unwrap_or("Driver");
        let code = reference(
            "DA",
            &[&c.id, &city.slug, &from.iso(), &days.to_string(), name],
        );
        let body = format!(
            "<h1>Car booked</h1><p role=\"status\">Booking reference <strong>{code}</strong> for {}.</p>\
<p>{} in {} from {} for {days} day{}. Total <span class=\"price\">${}</span>.</p>",
            esc(name), esc(&c.model), esc(&city.name), from.pretty(), if days == 1 { "" } else { "s" }, money(f64::from(c.price) * days as f64, 0),
        );
        page(ctx, "Car booked", &body)
    }

    fn fleet(&self, ctx: &Ctx) -> Resp {
        let mut body = String::from("<h1>Our fleet</h1><ul class=\"results\">");
        for c in &self.cars {
            body.push_str(&Self::row(c, None, ""));
        }
        body.push_str("</ul>");
        page(ctx, "Our fleet", &body)
    }
}

impl Site for Cars {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx, req),
            ["cars", "search"] => self.search(ctx, req),
            ["car", id] => self.car(ctx, req, id),
            ["car", id, "book"] => self.book(ctx, req, id),
            ["fleet"] => self.fleet(ctx),
            ["img", file] => image(ctx, file, |s| {
                by_slug(&self.cars, s, |c| &c.id).map(|c| labelled(&c.image, &c.model))
            }),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
