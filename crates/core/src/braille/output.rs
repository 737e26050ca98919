//! Writing a [`Scoresheet`]: Unicode Braille text, BRF and PEF 1.0.

use std::fmt::Write as _;

use super::{Cell, Scoresheet, to_unicode_char};

/// North American Braille ASCII: the cell of each character 0x20..0x5F.
const BRF_CELLS: [u8; 64] = [
    0x00, 0x2E, 0x10, 0x3C, 0x2B, 0x29, 0x2F, 0x04, 0x37, 0x3E, 0x21, 0x2C, 0x20, 0x24, 0x28, 0x0C,
    0x34, 0x02, 0x06, 0x12, 0x32, 0x22, 0x16, 0x36, 0x26, 0x14, 0x31, 0x30, 0x23, 0x3F, 0x1C, 0x39,
    0x08, 0x01, 0x03, 0x09, 0x19, 0x11, 0x0B, 0x1B, 0x13, 0x0A, 0x1A, 0x05, 0x07, 0x0D, 0x1D, 0x15,
    0x0F, 0x1F, 0x17, 0x0E, 0x1E, 0x25, 0x27, 0x3A, 0x2D, 0x3D, 0x35, 0x2A, 0x33, 0x3B, 0x18, 0x38,
];

/// The inverse of [`BRF_CELLS`], built once at compile time.
const BRF_BYTES: [u8; 64] = {
    let mut bytes = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        bytes[BRF_CELLS[i] as usize] = 0x20 + i as u8;
        i += 1;
    }
    bytes
};

/// The Braille ASCII character of a cell. BRF is six-dot: dots 7 and 8 are
/// dropped (no table shipped with the app uses them).
pub fn brf_byte(cell: Cell) -> u8 {
    BRF_BYTES[usize::from(cell & 0x3F)]
}

/// What a PEF file says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PefMeta {
    /// `dc:identifier`: unique per document.
    pub identifier: String,
    pub title: String,
    /// `dc:date`, `YYYY-MM-DD`.
    pub date: Option<String>,
    /// `dc:language`, e.g. `de`, `pt-BR`, `en`.
    pub language: String,
}

fn xml_escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
}

impl Scoresheet {
    fn lines_total(&self) -> usize {
        self.pages.iter().map(Vec::len).sum()
    }

    /// One string per page, each line ending in `\n`.
    pub fn to_unicode_pages(&self) -> Vec<String> {
        self.pages
            .iter()
            .map(|page| {
                let mut s = String::with_capacity(page.iter().map(|l| l.len() * 3 + 1).sum());
                for line in page {
                    s.extend(line.iter().map(|&c| to_unicode_char(c)));
                    s.push('\n');
                }
                s
            })
            .collect()
    }

    /// Unicode Braille text with the BRF's structure: lines separated by
    /// `\n`, every page followed by a form feed.
    pub fn to_unicode(&self) -> String {
        let mut s = String::with_capacity(self.lines_total() * (self.layout.cols * 3 + 1));
        for page in &self.pages {
            for (i, line) in page.iter().enumerate() {
                if i > 0 {
                    s.push('\n');
                }
                s.extend(line.iter().map(|&c| to_unicode_char(c)));
            }
            s.push('\u{0C}');
        }
        s
    }

    /// BRF: North American Braille ASCII, CR LF between lines, a form feed
    /// after every page and no line end before it: a page of exactly
    /// `rows` lines never makes an embosser set to `rows` lines feed a
    /// blank sheet.
    pub fn to_brf(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.lines_total() * (self.layout.cols + 2));
        for page in &self.pages {
            for (i, line) in page.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b"\r\n");
                }
                out.extend(line.iter().map(|&c| brf_byte(c)));
            }
            out.push(0x0C);
        }
        out
    }

    /// PEF 1.0: one volume, one section, a page per page.
    pub fn to_pef(&self, meta: &PefMeta) -> String {
        let mut x = String::with_capacity(self.lines_total() * (self.layout.cols * 3 + 16) + 1024);
        x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.push_str("<pef version=\"2008-1\" xmlns=\"http://www.daisy.org/ns/2008/pef\">\n");
        x.push_str("  <head>\n    <meta xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n");
        x.push_str("      <dc:format>application/x-pef+xml</dc:format>\n");
        let mut element = |name: &str, value: &str| {
            let _ = write!(x, "      <dc:{name}>");
            xml_escape(value, &mut x);
            let _ = writeln!(x, "</dc:{name}>");
        };
        element("identifier", &meta.identifier);
        element("title", &meta.title);
        if let Some(date) = &meta.date {
            element("date", date);
        }
        element("language", &meta.language);
        element("creator", "Rochade");
        x.push_str("    </meta>\n  </head>\n  <body>\n");
        let _ = writeln!(
            x,
            "    <volume cols=\"{}\" rows=\"{}\" rowgap=\"0\" duplex=\"false\">",
            self.layout.cols, self.layout.rows
        );
        x.push_str("      <section>\n");
        for page in &self.pages {
            x.push_str("        <page>\n");
            for line in page {
                if line.is_empty() {
                    x.push_str("          <row/>\n");
                } else {
                    x.push_str("          <row>");
                    x.extend(line.iter().map(|&c| to_unicode_char(c)));
                    x.push_str("</row>\n");
                }
            }
            x.push_str("        </page>\n");
        }
        x.push_str("      </section>\n    </volume>\n  </body>\n</pef>\n");
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brf_table_is_a_bijection_on_six_dots() {
        let mut seen = [false; 64];
        for &c in &BRF_CELLS {
            assert!(!seen[usize::from(c)], "cell {c:#x} twice");
            seen[usize::from(c)] = true;
        }
        assert_eq!(brf_byte(0), b' ');
        assert_eq!(brf_byte(0x01), b'A');
        assert_eq!(brf_byte(0x02), b'1', "lower-cell digit 1 is dot 2");
        assert_eq!(brf_byte(0x3C), b'#');
    }

    #[test]
    fn xml_is_escaped() {
        let mut s = String::new();
        xml_escape("A & B <c> \"d\" 'e'\u{1}", &mut s);
        assert_eq!(s, "A &amp; B &lt;c&gt; &quot;d&quot; &apos;e&apos;");
    }
}
