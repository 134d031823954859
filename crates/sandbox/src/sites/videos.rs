//! ClipStream (youtube-like): search with sort and duration filters, watch pages with
//! the thumbnail as the player, channel pages. Results are ranked by how many of the
//! query's words a video matches, as video sites show near matches too.

use super::{check_specs, image_with, load, SandboxError};
use crate::date::Date;
use crate::html::{self, esc, facet, img, money, opts, page, paginate, search_box};
use crate::http::{Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "videos",
    name: "ClipStream",
    tagline: "watch, learn, explore",
    offset: 10,
    accent: "#dc2626",
    nav: &[("Home", "/"), ("Channels", "/channels")],
    routes: &[
        ("/", "trending videos and search"),
        ("/results?search_query=<words>&sort=<relevance|views|date>&duration=<short|medium|long>&page=<n>", "search"),
        ("/watch?v=<id>", "a video"),
        ("/channel/<slug>", "a channel's videos"),
        ("/channels", "all channels"),
        ("/img/<id>.png", "a video thumbnail"),
    ],
    build,
};

#[derive(Deserialize)]
struct Data {
    channels: Vec<Channel>,
    videos: Vec<Video>,
}

#[derive(Deserialize)]
struct Channel {
    slug: String,
    name: String,
}

#[derive(Deserialize)]
struct Video {
    id: String,
    title: String,
    channel: String,
    views: u64,
    /// Seconds.
    duration: u32,
    uploaded: String,
    description: String,
    tags: Vec<String>,
    thumb: ImageSpec,
}

impl Video {
    fn length(&self) -> String {
        format!("{}:{:02}", self.duration / 60, self.duration % 60)
    }

    fn words(&self) -> String {
        format!(
            "{} {} {}",
            self.title,
            self.description,
            self.tags.join(" ")
        )
        .to_lowercase()
    }
}

struct Videos(Data);

fn build() -> Result<Box<dyn Site>, SandboxError> {
    let data: Data = load("videos.json", include_str!("../../data/videos.json"))?;
    check_specs(
        "videos.json",
        data.videos.iter().map(|v| (v.id.as_str(), &v.thumb)),
    )?;
    Ok(Box::new(Videos(data)))
}

/// `short` under 4 minutes, `medium` 4 to 20, `long` over 20 (as YouTube's filter).
fn in_duration(v: &Video, filter: Option<&str>) -> bool {
    match filter {
        Some("short") => v.duration < 240,
        Some("medium") => (240..=1200).contains(&v.duration),
        Some("long") => v.duration > 1200,
        _ => true,
    }
}

impl Videos {
    fn channel_name<'a>(&'a self, slug: &'a str) -> &'a str {
        self.0
            .channels
            .iter()
            .find(|c| c.slug == slug)
            .map_or(slug, |c| c.name.as_str())
    }

    fn item(&self, v: &Video) -> String {
        let day = Date::parse(&v.uploaded).map_or(v.uploaded.clone(), Date::pretty);
        format!(
            "<li class=\"result\"><a href=\"/watch?v={}\">{}</a><div><h3><a href=\"/watch?v={}\">{}</a></h3>\
<p><a href=\"/channel/{}\">{}</a> · {} views · {} · {}</p></div></li>",
            esc(&v.id), img(&format!("/img/{}.png", v.id), &v.title, 180), esc(&v.id), esc(&v.title),
            esc(&v.channel), esc(self.channel_name(&v.channel)), money(v.views as f64, 0), esc(&day), v.length(),
        )
    }

    fn search_form(q: &str) -> String {
        search_box(
            "/results",
            "Video search",
            "Search videos",
            "search_query",
            q,
        )
    }

    fn home(&self, ctx: &Ctx) -> Resp {
        let mut top: Vec<&Video> = self.0.videos.iter().collect();
        top.sort_by_key(|v| std::cmp::Reverse(v.views));
        let mut body = format!(
            "<h1>Trending</h1>{}<ul class=\"results\">",
            Self::search_form("")
        );
        for v in top.iter().take(8) {
            body.push_str(&self.item(v));
        }
        body.push_str("</ul>");
        page(ctx, "", &body)
    }

    fn results(&self, ctx: &Ctx, req: &Req) -> Resp {
        let q = req.get("search_query").unwrap_or("").to_lowercase();
        let words: Vec<&str> = q.split_whitespace().collect();
        let mut scored: Vec<(usize, &Video)> = self
            .0
            .videos
            .iter()
            .map(|v| {
                let hay = v.words();
                (words.iter().filter(|w| hay.contains(*w)).count(), v)
            })
            .filter(|(n, _)| *n > 0)
            .filter(|(_, v)| in_duration(v, req.get("duration")))
            .collect();
        match req.get("sort") {
            Some("views") => scored.sort_by_key(|(_, v)| std::cmp::Reverse(v.views)),
            Some("date") => scored.sort_by(|a, b| b.1.uploaded.cmp(&a.1.uploaded)),
            _ => scored.sort_by_key(|(n, _)| std::cmp::Reverse(*n)),
        }
        let shown: Vec<&Video> = scored.into_iter().map(|(_, v)| v).collect();
        let (items, nav) = paginate(req, &shown, 5);
        let raw = req.get("search_query").unwrap_or("");
        let mut body = format!(
            "<h1>Results for \"{}\"</h1>{}<div class=\"layout\"><aside aria-label=\"Filters\">{}{}</aside><section aria-label=\"Videos\"><ul class=\"results\">",
            esc(raw),
            Self::search_form(raw),
            facet(req, "Sort by", "sort", &opts(&[("relevance", "Relevance"), ("views", "View count"), ("date", "Upload date")])),
            facet(req, "Duration", "duration", &opts(&[("short", "Under 4 minutes"), ("medium", "4 to 20 minutes"), ("long", "Over 20 minutes")])),
        );
        for v in items {
            body.push_str(&self.item(v));
        }
        if items.is_empty() {
            body.push_str("<li>No videos found.</li>");
        }
        let _ = write!(body, "</ul>{nav}</section></div>");
        page(ctx, &format!("{raw} - search"), &body)
    }

    fn watch(&self, ctx: &Ctx, req: &Req) -> Resp {
        let Some(v) = req
            .get("v")
            .and_then(|id| self.0.videos.iter().find(|v| v.id == id))
        else {
            return html::not_found(ctx, &format!("/watch?v={}", req.get("v").unwrap_or("")));
        };
        let day = Date::parse(&v.uploaded).map_or(v.uploaded.clone(), Date::pretty);
        let mut body = format!(
            "<article><figure aria-label=\"Video player\">{}</figure><h1>{}</h1><p><a href=\"/channel/{}\">{}</a></p>\
<p>{} views · Uploaded {} · Length {}</p><section aria-label=\"Description\"><h2>Description</h2><p>{}</p><p>Tags: {}</p></section></article>\
<section><h2>More from {}</h2><ul class=\"results\">",
            img(&format!("/img/{}.png", v.id), &v.title, 480), esc(&v.title), esc(&v.channel), esc(self.channel_name(&v.channel)),
            money(v.views as f64, 0), esc(&day), v.length(), esc(&v.description), esc(&v.tags.join(", ")), esc(self.channel_name(&v.channel)),
        );
        for other in self
            .0
            .videos
            .iter()
            .filter(|o| o.channel == v.channel && o.id != v.id)
            .take(3)
        {
            body.push_str(&self.item(other));
        }
        body.push_str("</ul></section>");
        page(ctx, &v.title, &body)
    }

    fn channel(&self, ctx: &Ctx, req: &Req, slug: &str) -> Resp {
        let Some(c) = self.0.channels.iter().find(|c| c.slug == slug) else {
            return html::not_found(ctx, &req.path);
        };
        let mut body = format!("<h1>{}</h1><ul class=\"results\">", esc(&c.name));
        for v in self.0.videos.iter().filter(|v| v.channel == c.slug) {
            body.push_str(&self.item(v));
        }
        body.push_str("</ul>");
        page(ctx, &c.name, &body)
    }

    fn channels(&self, ctx: &Ctx) -> Resp {
        let mut body = String::from("<h1>Channels</h1><ul>");
        for c in &self.0.channels {
            let n = self.0.videos.iter().filter(|v| v.channel == c.slug).count();
            let _ = write!(
                body,
                "<li><a href=\"/channel/{}\">{}</a> ({n} videos)</li>",
                esc(&c.slug),
                esc(&c.name)
            );
        }
        body.push_str("</ul>");
        page(ctx, "Channels", &body)
    }
}

impl Site for Videos {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx),
            ["results"] => self.results(ctx, req),
            ["watch"] => self.watch(ctx, req),
            ["channel", slug] => self.channel(ctx, req, slug),
            ["channels"] => self.channels(ctx),
            ["img", file] => image_with(ctx, file, true, |id| {
                self.0
                    .videos
                    .iter()
                    .find(|v| v.id == id)
                    .map(|v| v.thumb.clone())
            }),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
