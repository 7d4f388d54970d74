//! The report as a list of blocks, rendered to Markdown and to self-contained HTML (inline
//! style, no scripts, figures linked as SVG files beside it).

/// One piece of the report.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Heading(u8, String),
    Paragraph(String),
    Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// A figure written as `<stem>.svg` and `<stem>.png`.
    Figure {
        stem: String,
        caption: String,
    },
    /// A list of the sections (level-2 headings) of the whole report, linked.
    Contents,
}

/// Each level-2 heading of `blocks` with its anchor, as GitHub names a Markdown heading: the
/// text lowercased, every character but letters, digits, `-`, `_` and spaces dropped, spaces
/// turned into `-`; `-2`, `-3`, … after a repeated one.
fn sections(blocks: &[Block]) -> Vec<(&str, String)> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for block in blocks {
        if let Block::Heading(2, text) = block {
            let slug: String = (text.to_lowercase().chars())
                .filter(|&c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            let n = seen.iter().filter(|s| **s == slug).count();
            seen.push(slug.clone());
            out.push((
                text.as_str(),
                if n == 0 { slug } else { format!("{slug}-{}", n + 1) },
            ));
        }
    }
    out
}

/// Markdown: figures as PNG images linking to the SVG.
pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Contents => {
                out.push_str("**Contents**\n\n");
                for (text, anchor) in sections(blocks) {
                    out.push_str(&format!("- [{text}](#{anchor})\n"));
                }
                out.push('\n');
            }
            Block::Heading(level, text) => {
                out.push_str(&"#".repeat(usize::from(*level)));
                out.push(' ');
                out.push_str(text);
                out.push_str("\n\n");
            }
            Block::Paragraph(text) => {
                out.push_str(text);
                out.push_str("\n\n");
            }
            Block::Table { header, rows } => {
                let cell = |s: &str| s.replace('|', "\\|");
                out.push_str(&format!(
                    "| {} |\n",
                    header.iter().map(|h| cell(h)).collect::<Vec<_>>().join(" | ")
                ));
                out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
                for row in rows {
                    out.push_str(&format!(
                        "| {} |\n",
                        row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | ")
                    ));
                }
                out.push('\n');
            }
            Block::Figure { stem, caption } => {
                out.push_str(&format!("[![{stem}]({stem}.png)]({stem}.svg)\n\n*{caption}*\n\n"));
            }
        }
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The inline markup the report's text uses, as HTML: `` `code` ``, `**bold**` and `*italic*`.
/// A marker without its closing pair is left as it is.
fn inline(text: &str) -> String {
    spans(text, "`", "code", |part| {
        spans(part, "**", "strong", |part| spans(part, "*", "em", escape))
    })
}

/// `text` split at `marker`: odd pieces wrapped in `<tag>`, all rendered by `inner`; the text
/// unchanged (but rendered) when the markers do not pair up.
fn spans(text: &str, marker: &str, tag: &str, inner: impl Fn(&str) -> String) -> String {
    let parts: Vec<&str> = text.split(marker).collect();
    if parts.len().is_multiple_of(2) {
        return parts
            .iter()
            .map(|p| inner(p))
            .collect::<Vec<_>>()
            .join(&escape(marker));
    }
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<{tag}>{}</{tag}>", inner(part)));
        } else {
            out.push_str(&inner(part));
        }
    }
    out
}

const STYLE: &str = "body{font-family:'DejaVu Sans',sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;\
line-height:1.45;color:#222}table{border-collapse:collapse;margin:1rem 0;font-size:0.9rem}\
th,td{border:1px solid #ccc;padding:0.3rem 0.5rem;text-align:left;vertical-align:top}th{background:#f2f2f2}\
figure{margin:1.5rem 0}figure img{max-width:100%;border:1px solid #eee}figcaption{font-size:0.9rem;color:#444}";

/// A complete HTML page with `title`.
pub fn html(title: &str, blocks: &[Block]) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(title)
    );
    let sections = sections(blocks);
    let mut anchors = sections.iter().map(|(_, anchor)| anchor);
    for block in blocks {
        match block {
            Block::Contents => {
                out.push_str("<nav><p><strong>Contents</strong></p>\n<ul>\n");
                for (text, anchor) in &sections {
                    out.push_str(&format!("<li><a href=\"#{anchor}\">{}</a></li>\n", inline(text)));
                }
                out.push_str("</ul></nav>\n");
            }
            Block::Heading(2, text) => out.push_str(&format!(
                "<h2 id=\"{}\">{}</h2>\n",
                anchors.next().expect("an anchor per section"),
                inline(text)
            )),
            Block::Heading(level, text) => out.push_str(&format!("<h{level}>{}</h{level}>\n", inline(text))),
            Block::Paragraph(text) => out.push_str(&format!("<p>{}</p>\n", inline(text))),
            Block::Table { header, rows } => {
                out.push_str("<table>\n<thead><tr>");
                for h in header {
                    out.push_str(&format!("<th>{}</th>", inline(h)));
                }
                out.push_str("</tr></thead>\n<tbody>\n");
                for row in rows {
                    out.push_str("<tr>");
                    for c in row {
                        out.push_str(&format!("<td>{}</td>", inline(c)));
                    }
                    out.push_str("</tr>\n");
                }
                out.push_str("</tbody>\n</table>\n");
            }
            Block::Figure { stem, caption } => out.push_str(&format!(
                "<figure><a href=\"{stem}.svg\"><img src=\"{stem}.svg\" alt=\"{}\"></a><figcaption>{}</figcaption></figure>\n",
                escape(caption),
                inline(caption)
            )),
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_tables_and_escapes() {
        let blocks = vec![
            Block::Heading(2, "A <b>".into()),
            Block::Table {
                header: vec!["x".into()],
                rows: vec![vec!["a|b **c**".into()]],
            },
        ];
        assert_eq!(markdown(&blocks), "## A <b>\n\n| x |\n|---|\n| a\\|b **c** |\n\n");
        let h = html("t", &blocks);
        assert!(h.contains("<h2 id=\"a-b\">A &lt;b&gt;</h2>"), "{h}");
        assert!(h.contains("<td>a|b <strong>c</strong></td>"));
        let p = html("t", &[Block::Paragraph("`x<y` in *A*".into())]);
        assert!(p.contains("<p><code>x&lt;y</code> in <em>A</em></p>"), "{p}");
        let unpaired = html("t", &[Block::Paragraph("2 * 3".into())]);
        assert!(unpaired.contains("<p>2 * 3</p>"), "{unpaired}");
    }

    #[test]
    fn contents_link_every_section_by_its_anchor() {
        let blocks = vec![
            Block::Heading(1, "Title".into()),
            Block::Contents,
            Block::Heading(2, "WEAT, Direct Bias and `OS`".into()),
            Block::Heading(3, "not listed".into()),
            Block::Heading(2, "Notes".into()),
            Block::Heading(2, "Notes".into()),
        ];
        assert_eq!(
            markdown(&blocks),
            "# Title\n\n**Contents**\n\n- [WEAT, Direct Bias and `OS`](#weat-direct-bias-and-os)\n\
             - [Notes](#notes)\n- [Notes](#notes-2)\n\n## WEAT, Direct Bias and `OS`\n\n### not listed\n\n\
             ## Notes\n\n## Notes\n\n"
        );
        let h = html("t", &blocks);
        assert!(h.contains(
            "<li><a href=\"#weat-direct-bias-and-os\">WEAT, Direct Bias and <code>OS</code></a></li>"
        ));
        assert!(
            h.contains("<h2 id=\"weat-direct-bias-and-os\">") && h.contains("<h2 id=\"notes-2\">Notes</h2>")
        );
    }
}
