//! SkyHop Flights (momondo-like): search by from/to/date, results with stop and
//! airline filters, sorting and pagination, a flight page and a booking confirmation.
//! The schedule repeats daily and fares do not depend on the date, so every date in
//! the bookable range shows the same flights (documented in docs/sandbox.md).

mod pages;

use super::{check_specs, cities, find_city, load, City, SandboxError};
use crate::date::Date;
use crate::html;
use crate::http::{Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;

pub const DEF: SiteDef = SiteDef {
    key: "flights",
    name: "SkyHop Flights",
    tagline: "compare fares across airlines",
    offset: 2,
    accent: "#1d4ed8",
    nav: &[("Search flights", "/"), ("Airports", "/airports"), ("Airlines", "/airlines")],
    routes: &[
        ("/?from=<CODE>&to=<CODE>", "the search form (optionally prefilled)"),
        ("/flights/search?from=<CODE>&to=<CODE>&date=YYYY-MM-DD&passengers=<n>&stops=<0|1|2>&airline=<XX>&sort=<price|duration|departure>&page=<n>", "search results"),
        ("/flights/<FLIGHT>?date=YYYY-MM-DD&passengers=<n>", "one flight, e.g. /flights/SA791?date=2026-12-01"),
        ("/booking?flight=<FLIGHT>&date=YYYY-MM-DD&passengers=<n>&name=<text>", "booking confirmation"),
        ("/airports", "airports and their codes"),
        ("/airlines", "airlines"),
        ("/img/<FLIGHT>.png", "a flight's aircraft picture"),
    ],
    build,
};

#[derive(Deserialize)]
struct Data {
    bookable_from: String,
    bookable_to: String,
    airlines: Vec<Airline>,
    flights: Vec<Flight>,
}

#[derive(Deserialize)]
struct Airline {
    code: String,
    name: String,
    color: String,
}

#[derive(Deserialize)]
struct Flight {
    id: String,
    airline: String,
    origin: String,
    dest: String,
    /// Local departure time, `HH:MM`.
    dep: String,
    /// Minutes gate to gate.
    duration: u32,
    stops: u32,
    via: Vec<String>,
    /// Economy fare per passenger, USD.
    price: u32,
    aircraft: String,
}

impl Flight {
    fn dep_minutes(&self) -> u32 {
        let (h, m) = self.dep.split_once(':').unwrap_or(("0", "0"));
        h.parse::<u32>().unwrap_or(0) * 60 + m.parse::<u32>().unwrap_or(0)
    }

    /// Arrival as `HH:MM` plus `+N` days, in the departure's clock (the sandbox has
    /// one time zone: keeping it simple keeps duration questions exact).
    fn arrival(&self) -> String {
        let end = self.dep_minutes() + self.duration;
        let days = end / 1440;
        let clock = format!("{:02}:{:02}", (end % 1440) / 60, end % 60);
        if days == 0 {
            clock
        } else {
            format!("{clock} (+{days} day{})", if days == 1 { "" } else { "s" })
        }
    }

    fn duration_text(&self) -> String {
        format!("{}h {:02}m", self.duration / 60, self.duration % 60)
    }

    fn stops_text(&self) -> String {
        match self.stops {
            0 => "Nonstop".to_string(),
            1 => format!("1 stop ({})", self.via.join(", ")),
            n => format!("{n} stops ({})", self.via.join(", ")),
        }
    }
}

struct Flights {
    data: Data,
    cities: Vec<City>,
}

fn build() -> Result<Box<dyn Site>, SandboxError> {
    let data: Data = load("flights.json", include_str!("../../../data/flights.json"))?;
    let site = Flights {
        data,
        cities: cities()?,
    };
    let specs: Vec<(String, ImageSpec)> = site
        .data
        .flights
        .iter()
        .filter_map(|f| site.spec(&f.id).map(|s| (f.id.clone(), s)))
        .collect();
    check_specs("flights.json", specs.iter().map(|(id, s)| (id.as_str(), s)))?;
    Ok(Box::new(site))
}

impl Flights {
    fn airline(&self, code: &str) -> Option<&Airline> {
        self.data
            .airlines
            .iter()
            .find(|a| a.code.eq_ignore_ascii_case(code))
    }

    fn airline_name<'a>(&'a self, code: &'a str) -> &'a str {
        self.airline(code).map_or(code, |a| a.name.as_str())
    }

    fn city_of(&self, code: &str) -> Option<&City> {
        find_city(&self.cities, code)
    }

    fn flight(&self, id: &str) -> Option<&Flight> {
        self.data
            .flights
            .iter()
            .find(|f| f.id.eq_ignore_ascii_case(id))
    }

    /// The date if it parses and lies in the bookable range.
    fn bookable(&self, date: Option<&str>) -> Option<Date> {
        let d = Date::parse(date?)?;
        let from = Date::parse(&self.data.bookable_from)?;
        let to = Date::parse(&self.data.bookable_to)?;
        (from <= d && d <= to).then_some(d)
    }

    fn spec(&self, id: &str) -> Option<ImageSpec> {
        let f = self.flight(id)?;
        let colour = self
            .airline(&f.airline)
            .map_or("blue", |a| a.color.as_str());
        Some(ImageSpec {
            kind: "plane".to_string(),
            color: "white".to_string(),
            accent: Some(colour.to_string()),
            bg: Some("sky".to_string()),
            label: Some(format!("{} {}", self.airline_name(&f.airline), f.id)),
        })
    }
}

impl Site for Flights {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx, req),
            ["flights", "search"] => self.search(ctx, req),
            ["flights", id] => self.detail(ctx, req, id),
            ["booking"] => self.booking(ctx, req),
            ["airports"] => self.airports(ctx),
            ["airlines"] => self.airlines(ctx),
            ["img", file] => super::image(ctx, file, |id| self.spec(id)),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
