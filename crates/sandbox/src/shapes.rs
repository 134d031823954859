//! Pictures drawn from a data spec: a shape kind, its colours and a label band. The
//! main colour is what image questions ask about ("which car is red?"), so each kind
//! paints its main colour over most of the object.

use super::draw::{colour, Canvas, Rgb};
use super::png;
use serde::Deserialize;

pub const WIDTH: u32 = 240;
pub const HEIGHT: u32 = 160;
const BAND: i32 = 24;

/// How one picture looks: `kind` picks the drawing, `color` its main colour, `accent`
/// a second colour (stripes, details), `bg` the backdrop; `label` is printed under it.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct ImageSpec {
    pub kind: String,
    pub color: String,
    #[serde(default)]
    pub accent: Option<String>,
    #[serde(default)]
    pub bg: Option<String>,
    #[serde(default)]
    pub label: Option<String>,
}

type Draw = fn(&mut Canvas, Rgb, Rgb);

/// Every drawable kind; `docs/sandbox.md` lists them for people adding data.
pub const KINDS: &[(&str, Draw)] = &[
    ("car", car),
    ("van", van),
    ("shirt", shirt),
    ("dress", dress),
    ("shoe", shoe),
    ("bag", bag),
    ("phone", phone),
    ("laptop", laptop),
    ("headphones", headphones),
    ("mug", mug),
    ("bottle", bottle),
    ("lamp", lamp),
    ("box", boxed),
    ("ball", ball),
    ("tower", tower),
    ("bridge", bridge),
    ("skyline", skyline),
    ("temple", temple),
    ("arch", arch),
    ("dome", dome),
    ("mountain", mountain),
    ("animal", animal),
    ("bird", bird),
    ("fish", fish),
    ("bowl", bowl),
    ("plate", plate),
    ("cake", cake),
    ("pizza", pizza),
    ("glass", glass),
    ("hotel", hotel),
    ("stage", stage),
    ("plane", plane),
    ("flag", flag),
];

pub fn is_kind(kind: &str) -> bool {
    KINDS.iter().any(|(k, _)| *k == kind)
}

/// Draws the spec; with `play` a video play button is painted over the middle.
pub fn render(spec: &ImageSpec, play: bool) -> Vec<u8> {
    let main = colour(&spec.color);
    // Without an accent the object is one colour: no invented stripes or trim.
    let accent = colour(spec.accent.as_deref().unwrap_or(&spec.color));
    let bg = colour(spec.bg.as_deref().unwrap_or("cream"));
    let mut c = Canvas::new(WIDTH, HEIGHT, bg);
    if let Some((_, draw)) = KINDS.iter().find(|(k, _)| *k == spec.kind) {
        draw(&mut c, main, accent);
    } else {
        c.rect(20, 20, 200, 96, main);
    }
    if play {
        c.circle(120, 68, 26, [20, 20, 20]);
        c.triangle((111, 54), (111, 82), (135, 68), [250, 250, 250]);
    }
    label(&mut c, spec.label.as_deref().unwrap_or(""));
    png::encode(WIDTH, HEIGHT, c.rgb())
}

fn label(c: &mut Canvas, text: &str) {
    let h = HEIGHT as i32;
    c.rect(0, h - BAND, WIDTH as i32, BAND, [40, 40, 48]);
    let max_chars = ((WIDTH as i32 - 8) / 12) as usize;
    let text: String = text.chars().take(max_chars).collect();
    let x = (WIDTH as i32 - Canvas::text_width(text.chars().count(), 2)) / 2;
    c.text(x.max(4), h - BAND + 5, 2, &text, [250, 250, 250]);
}

const BLACK: Rgb = [30, 30, 30];
const GLASS: Rgb = [170, 210, 235];
const GROUND: Rgb = [200, 190, 170];

fn wheels(c: &mut Canvas, y: i32) {
    for x in [70, 170] {
        c.circle(x, y, 16, BLACK);
        c.circle(x, y, 6, [160, 160, 160]);
    }
}

fn car(c: &mut Canvas, m: Rgb, _: Rgb) {
    c.rect(0, 112, 240, 24, GROUND);
    c.rect(30, 72, 180, 36, m);
    c.triangle((70, 72), (95, 42), (95, 72), m);
    c.rect(95, 42, 60, 30, m);
    c.triangle((155, 42), (155, 72), (182, 72), m);
    c.rect(100, 48, 24, 22, GLASS);
    c.rect(130, 48, 22, 22, GLASS);
    wheels(c, 108);
}

fn van(c: &mut Canvas, m: Rgb, _: Rgb) {
    c.rect(0, 112, 240, 24, GROUND);
    c.rect(30, 30, 180, 78, m);
    c.rect(160, 40, 40, 28, GLASS);
    c.rect(44, 40, 100, 24, GLASS);
    wheels(c, 108);
}

fn shirt(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.rect(80, 30, 80, 96, m);
    c.triangle((80, 30), (40, 60), (80, 74), m);
    c.triangle((160, 30), (200, 60), (160, 74), m);
    for y in (44..120).step_by(20) {
        c.rect(80, y, 80, 6, a);
    }
    c.ellipse(120, 30, 16, 8, [250, 244, 226]);
}

fn dress(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.rect(100, 20, 40, 40, m);
    c.triangle((100, 60), (140, 60), (180, 128), m);
    c.triangle((100, 60), (60, 128), (180, 128), m);
    c.rect(98, 58, 44, 6, a);
}

fn shoe(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.rect(40, 40, 70, 74, m);
    c.ellipse(140, 90, 76, 30, m);
    c.rect(30, 112, 190, 12, a);
}

fn bag(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.ellipse(120, 44, 34, 26, a);
    c.ellipse(120, 44, 24, 17, [250, 244, 226]);
    c.rect(60, 50, 120, 76, m);
}

fn phone(c: &mut Canvas, m: Rgb, _: Rgb) {
    c.rect(90, 14, 60, 112, m);
    c.rect(96, 24, 48, 88, [20, 30, 50]);
    c.circle(120, 119, 4, [200, 200, 200]);
}

fn laptop(c: &mut Canvas, m: Rgb, _: Rgb) {
    c.rect(50, 24, 140, 80, m);
    c.rect(58, 32, 124, 64, [20, 30, 50]);
    c.rect(30, 104, 180, 12, m);
}

fn headphones(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.ellipse(120, 60, 60, 50, m);
    c.ellipse(120, 64, 48, 44, colour("cream"));
    c.rect(56, 70, 26, 50, a);
    c.rect(158, 70, 26, 50, a);
}

fn mug(c: &mut Canvas, m: Rgb, _: Rgb) {
    c.circle(160, 70, 24, m);
    c.circle(160, 70, 12, colour("cream"));
    c.rect(70, 30, 90, 90, m);
}

fn bottle(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.rect(106, 14, 28, 20, a);
    c.rect(90, 34, 60, 92, m);
}

fn lamp(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.triangle((120, 14), (70, 70), (170, 70), m);
    c.rect(116, 70, 8, 44, a);
    c.rect(86, 114, 68, 10, a);
}

fn boxed(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.rect(60, 34, 120, 90, m);
    c.rect(114, 34, 12, 90, a);
}

fn ball(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.circle(120, 70, 50, m);
    c.rect(70, 66, 100, 8, a);
}

fn tower(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.triangle((120, 6), (70, 132), (170, 132), m);
    c.rect(86, 60, 68, 8, a);
    c.rect(80, 96, 80, 8, a);
    c.triangle((120, 104), (104, 132), (136, 132), colour("cream"));
}

fn bridge(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.rect(0, 110, 240, 26, a);
    c.rect(0, 88, 240, 8, m);
    for x in [60, 170] {
        c.rect(x, 20, 12, 90, m);
    }
    c.triangle((0, 88), (66, 24), (66, 30), m);
    c.triangle((66, 24), (176, 24), (120, 70), m);
    c.triangle((176, 24), (240, 88), (176, 30), m);
}

fn skyline(c: &mut Canvas, m: Rgb, a: Rgb) {
    let blocks = [
        (10, 60),
        (46, 30),
        (84, 80),
        (118, 16),
        (156, 50),
        (196, 40),
    ];
    for (x, top) in blocks {
        c.rect(x, top, 34, 136 - top, m);
        for y in (top + 8..128).step_by(16) {
            c.rect(x + 8, y, 6, 6, a);
            c.rect(x + 20, y, 6, 6, a);
        }
    }
}

fn temple(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.triangle((30, 56), (120, 16), (210, 56), m);
    for x in (50..200).step_by(30) {
        c.rect(x, 56, 12, 64, a);
    }
    c.rect(30, 120, 180, 12, m);
}

fn arch(c: &mut Canvas, m: Rgb, bg_hole: Rgb) {
    c.rect(50, 20, 140, 112, m);
    c.ellipse(120, 96, 32, 40, bg_hole);
    c.rect(88, 96, 64, 36, bg_hole);
}

fn dome(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.ellipse(120, 64, 50, 44, m);
    c.rect(60, 64, 120, 64, a);
    c.rect(116, 8, 8, 16, m);
}

fn mountain(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.triangle((10, 136), (120, 16), (230, 136), m);
    c.triangle((96, 44), (120, 16), (144, 44), a);
}

fn animal(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.ellipse(110, 80, 60, 30, m);
    c.circle(176, 56, 22, m);
    c.circle(164, 36, 7, m);
    c.circle(188, 36, 7, m);
    c.circle(182, 52, 3, BLACK);
    for x in [64, 84, 130, 150] {
        c.rect(x, 100, 10, 30, m);
    }
    c.rect(40, 70, 14, 8, a);
}

fn bird(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.ellipse(110, 76, 50, 28, m);
    c.circle(166, 50, 18, m);
    c.triangle((182, 46), (206, 54), (182, 58), a);
    c.triangle((60, 70), (20, 50), (40, 90), m);
    c.rect(104, 102, 4, 30, a);
    c.rect(120, 102, 4, 30, a);
}

fn fish(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.ellipse(120, 70, 64, 34, m);
    c.triangle((56, 70), (16, 40), (16, 100), m);
    c.circle(160, 62, 6, a);
}

fn bowl(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.ellipse(120, 66, 70, 18, a);
    c.ellipse(120, 76, 76, 46, m);
    c.rect(40, 30, 170, 46, colour("cream"));
    c.ellipse(120, 66, 70, 14, a);
}

fn plate(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.ellipse(120, 72, 100, 56, [245, 245, 245]);
    c.ellipse(120, 72, 60, 32, m);
    c.circle(100, 64, 8, a);
    c.circle(140, 80, 8, a);
}

fn cake(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.rect(60, 60, 120, 64, m);
    c.rect(60, 56, 120, 10, a);
    c.rect(116, 30, 8, 26, colour("yellow"));
}

fn pizza(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.circle(120, 70, 60, colour("gold"));
    c.circle(120, 70, 50, m);
    for (x, y) in [(100, 50), (140, 56), (110, 90), (146, 88), (124, 70)] {
        c.circle(x, y, 8, a);
    }
}

fn glass(c: &mut Canvas, m: Rgb, _: Rgb) {
    c.triangle((70, 20), (170, 20), (120, 80), m);
    c.rect(116, 80, 8, 36, GLASS);
    c.rect(90, 116, 60, 8, GLASS);
}

fn hotel(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.rect(50, 16, 140, 120, m);
    for y in (28..112).step_by(20) {
        for x in (62..180).step_by(24) {
            c.rect(x, y, 12, 12, a);
        }
    }
    c.rect(106, 112, 28, 24, BLACK);
}

fn stage(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.triangle((60, 0), (20, 110), (100, 110), a);
    c.triangle((180, 0), (140, 110), (220, 110), a);
    c.rect(0, 110, 240, 26, m);
    c.circle(120, 80, 14, BLACK);
    c.rect(110, 90, 20, 20, BLACK);
}

fn plane(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.ellipse(120, 70, 90, 14, m);
    c.triangle((110, 66), (80, 20), (140, 66), a);
    c.triangle((110, 74), (80, 120), (140, 74), a);
    c.triangle((40, 68), (24, 40), (56, 68), a);
}

fn flag(c: &mut Canvas, m: Rgb, a: Rgb) {
    c.rect(30, 20, 60, 100, m);
    c.rect(90, 20, 60, 100, a);
    c.rect(150, 20, 60, 100, m);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_draws_its_main_colour() {
        for (kind, draw) in KINDS {
            let mut c = Canvas::new(WIDTH, HEIGHT, [1, 2, 3]);
            draw(&mut c, [250, 0, 0], [0, 0, 250]);
            let red = c.rgb().chunks(3).filter(|p| p == &[250, 0, 0]).count();
            assert!(red > 600, "{kind}: only {red} pixels of its main colour");
        }
    }
}
