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
}

/// Markdown: figures as PNG images linking to the SVG.
pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
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

/// `**bold**` spans (the only inline markup the report uses) as `<strong>`.
fn inline(text: &str) -> String {
    let escaped = escape(text);
    let mut out = String::new();
    for (i, part) in escaped.split("**").enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<strong>{part}</strong>"));
        } else {
            out.push_str(part);
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
    for block in blocks {
        match block {
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
        assert!(h.contains("<h2>A &lt;b&gt;</h2>"));
        assert!(h.contains("<td>a|b <strong>c</strong></td>"));
    }
}
