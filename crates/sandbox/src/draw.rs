//! A tiny RGB canvas: rectangles, circles, triangles and bitmap text, enough to draw
//! recognisable pictures (a red car, a striped shirt, a tower) from a data spec.

use super::font;

pub type Rgb = [u8; 3];

/// Colour names the data files may use; the name is what a task's answer says.
const COLOURS: &[(&str, Rgb)] = &[
    ("red", [204, 32, 38]),
    ("orange", [240, 128, 24]),
    ("yellow", [246, 208, 40]),
    ("green", [46, 150, 62]),
    ("lime", [150, 206, 60]),
    ("teal", [20, 140, 140]),
    ("blue", [36, 92, 204]),
    ("navy", [24, 36, 96]),
    ("sky", [150, 200, 240]),
    ("purple", [120, 60, 170]),
    ("pink", [236, 120, 170]),
    ("brown", [120, 72, 36]),
    ("beige", [226, 208, 170]),
    ("gold", [212, 170, 40]),
    ("black", [24, 24, 24]),
    ("gray", [128, 128, 128]),
    ("silver", [192, 196, 200]),
    ("white", [250, 250, 250]),
    ("cream", [250, 244, 226]),
];

/// The RGB value of a colour name; unknown names are magenta so a data typo is visible.
pub fn colour(name: &str) -> Rgb {
    COLOURS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map_or([255, 0, 255], |(_, c)| *c)
}

pub fn is_colour(name: &str) -> bool {
    COLOURS.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
}

pub struct Canvas {
    pub width: u32,
    pub height: u32,
    pixels: Vec<u8>,
}

impl Canvas {
    pub fn new(width: u32, height: u32, bg: Rgb) -> Canvas {
        let mut pixels = Vec::with_capacity((width * height * 3) as usize);
        for _ in 0..width * height {
            pixels.extend_from_slice(&bg);
        }
        Canvas {
            width,
            height,
            pixels,
        }
    }

    pub fn rgb(&self) -> &[u8] {
        &self.pixels
    }

    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgb> {
        let i = ((y * self.width + x) * 3) as usize;
        self.pixels.get(i..i + 3).map(|p| [p[0], p[1], p[2]])
    }

    fn set(&mut self, x: i32, y: i32, c: Rgb) {
        if x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            return;
        }
        let i = ((y as u32 * self.width + x as u32) * 3) as usize;
        self.pixels[i..i + 3].copy_from_slice(&c);
    }

    pub fn rect(&mut self, x: i32, y: i32, w: i32, h: i32, c: Rgb) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.set(xx, yy, c);
            }
        }
    }

    pub fn circle(&mut self, cx: i32, cy: i32, r: i32, c: Rgb) {
        self.ellipse(cx, cy, r, r, c);
    }

    pub fn ellipse(&mut self, cx: i32, cy: i32, rx: i32, ry: i32, c: Rgb) {
        let (rx2, ry2) = (i64::from(rx.max(1)).pow(2), i64::from(ry.max(1)).pow(2));
        for y in -ry..=ry {
            for x in -rx..=rx {
                if i64::from(x).pow(2) * ry2 + i64::from(y).pow(2) * rx2 <= rx2 * ry2 {
                    self.set(cx + x, cy + y, c);
                }
            }
        }
    }

    /// Fills the triangle a-b-c (any winding) by testing each pixel of its bounding box.
    pub fn triangle(&mut self, a: (i32, i32), b: (i32, i32), c: (i32, i32), col: Rgb) {
        let edge = |p: (i32, i32), q: (i32, i32), x: i32, y: i32| {
            (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0)
        };
        let (x0, x1) = (a.0.min(b.0).min(c.0), a.0.max(b.0).max(c.0));
        let (y0, y1) = (a.1.min(b.1).min(c.1), a.1.max(b.1).max(c.1));
        for y in y0..=y1 {
            for x in x0..=x1 {
                let (e1, e2, e3) = (edge(a, b, x, y), edge(b, c, x, y), edge(c, a, x, y));
                let inside = (e1 >= 0 && e2 >= 0 && e3 >= 0) || (e1 <= 0 && e2 <= 0 && e3 <= 0);
                if inside {
                    self.set(x, y, col);
                }
            }
        }
    }

    /// Draws `text` with the 5×7 font at `scale`, left-aligned at (x, y).
    pub fn text(&mut self, x: i32, y: i32, scale: i32, text: &str, c: Rgb) {
        let advance = (font::WIDTH as i32 + 1) * scale;
        for (i, ch) in text.chars().enumerate() {
            let rows = font::glyph(ch);
            let gx = x + i as i32 * advance;
            for (ry, bits) in rows.iter().enumerate() {
                for rx in 0..font::WIDTH as i32 {
                    if bits & (1 << (4 - rx)) != 0 {
                        self.rect(gx + rx * scale, y + ry as i32 * scale, scale, scale, c);
                    }
                }
            }
        }
    }

    /// Width in pixels of `chars` characters at `scale`.
    pub fn text_width(chars: usize, scale: i32) -> i32 {
        chars as i32 * (font::WIDTH as i32 + 1) * scale - scale
    }

    /// Height in pixels of a line of text at `scale`.
    pub fn text_height(scale: i32) -> i32 {
        font::HEIGHT as i32 * scale
    }
}
