//! Each site's tab icon: the first letter of its name in white on its header colour.
//! Browsers ask every site for `/favicon.ico` by themselves; without an answer each page
//! load logged a 404 in the page's console, and a person working through a task saw
//! ten identical blank icons in the tab strip instead of telling the sites apart.

use super::draw::{Canvas, Rgb};
use super::png;

/// Where browsers look for a site's icon when the page names none.
pub const FAVICON_PATH: &str = "/favicon.ico";

const SIDE: u32 = 32;
const WHITE: Rgb = [255, 255, 255];
/// For an accent that is not `#rrggbb`: visible, and a test keeps every site off it.
const FALLBACK: Rgb = [128, 128, 128];

/// The PNG served at `FAVICON_PATH` (browsers read the bytes, not the extension).
pub fn favicon_png(name: &str, accent: &str) -> Vec<u8> {
    let mut canvas = Canvas::new(SIDE, SIDE, hex_colour(accent).unwrap_or(FALLBACK));
    let initial = name.chars().next().unwrap_or('?').to_string();
    // The 5×7 font at scale 4 is 20×28: centred on the 32-pixel square.
    let scale = 4;
    let x = (SIDE as i32 - Canvas::text_width(1, scale)) / 2;
    let y = (SIDE as i32 - Canvas::text_height(scale)) / 2;
    canvas.text(x, y, scale, &initial, WHITE);
    png::encode(SIDE, SIDE, canvas.rgb())
}

/// `#rrggbb` as RGB; None for anything else.
pub fn hex_colour(text: &str) -> Option<Rgb> {
    let digits = text.strip_prefix('#')?;
    if digits.len() != 6 || !digits.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_parse_and_others_do_not() {
        assert_eq!(hex_colour("#0e7490"), Some([0x0e, 0x74, 0x90]));
        assert_eq!(hex_colour("#FFFFFF"), Some([255, 255, 255]));
        for bad in ["0e7490", "#0e749", "#0e74900", "#0g7490", "red", "#éé7490"] {
            assert_eq!(hex_colour(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_site_accent_is_a_hex_colour() {
        for def in crate::SITES {
            assert!(
                hex_colour(def.accent).is_some(),
                "{}: accent {}",
                def.key,
                def.accent
            );
        }
    }
}
