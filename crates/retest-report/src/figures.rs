//! Box-plot figures drawn with plotters, written as SVG and as PNG (plotters' bitmap backend,
//! encoded with the `png` crate: no time or text chunks, so the same figure gives the same bytes).
//! Text is set in the DejaVu Sans font embedded in this crate, never a system font.

use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::numbers::fixed;
use crate::stats::BoxStats;

/// DejaVu Sans (Bitstream Vera license), registered as plotters' `sans-serif` family.
static DEJAVU_SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// Registers the embedded font once per process.
fn register_font() {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    REGISTERED
        .get_or_init(|| plotters::style::register_font("sans-serif", FontStyle::Normal, DEJAVU_SANS).is_ok());
}

/// Colours of the hues (Okabe & Ito's colour-blind-safe palette).
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
];

const TITLE_HEIGHT: u32 = 40;
const LEGEND_HEIGHT: u32 = 30;

/// One facet: boxes per group (x axis) and hue.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxPanel {
    pub title: String,
    /// The x-axis categories.
    pub groups: Vec<String>,
    /// `values[hue][group]`: the values of one box.
    pub values: Vec<Vec<Vec<f64>>>,
}

/// A faceted box-plot figure. Boxes span the quartiles, the line is the median, whiskers reach
/// the most extreme values within 1.5 IQR of the box, and values beyond them are drawn as dots.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxFigure {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// The legend: one name per hue.
    pub hues: Vec<String>,
    pub panels: Vec<BoxPanel>,
    /// Draw every value as a dot beside its box (for boxes of a few values).
    pub show_points: bool,
    /// Set the x-axis labels vertically (long or many categories).
    pub rotate_x_labels: bool,
    /// Width and height of one panel in pixels.
    pub panel_size: (u32, u32),
    /// Panels per row.
    pub columns: usize,
    /// A horizontal reference line (a threshold the paper uses), drawn in grey.
    pub reference: Option<f64>,
    /// Further horizontal lines, dashed in grey (a spread around `reference`, such as ±1 and
    /// ±2 SD); with `fit_y` the y range includes them.
    pub bands: Vec<f64>,
    /// Fit the y axis to the values, rounded out to 0.05, instead of [lower, 1] (for scores
    /// that are not correlations).
    pub fit_y: bool,
    /// With `fit_y`, fit each panel's axis to its own values (scales that differ between
    /// configurations), instead of one axis for all.
    pub own_y_axes: bool,
}

impl BoxFigure {
    /// The size of the whole figure in pixels.
    pub fn size(&self) -> (u32, u32) {
        let columns = self.columns.clamp(1, self.panels.len().max(1));
        let rows = self.panels.len().div_ceil(columns).max(1);
        (
            self.panel_size.0 * columns as u32,
            TITLE_HEIGHT + LEGEND_HEIGHT + self.panel_size.1 * rows as u32,
        )
    }

    /// The y range of `panel`: [lower, 1], the lower end the smallest drawn value rounded down
    /// to 0.1 and at least −1 (values below are drawn at the lower edge), at most 0; with
    /// `fit_y`, the range of the values and 0 rounded out to 0.05. The values are every
    /// panel's, or with `own_y_axes` the panel's own.
    fn y_range(&self, panel: &BoxPanel) -> (f64, f64) {
        let panels = if self.fit_y && self.own_y_axes {
            std::slice::from_ref(panel)
        } else {
            &self.panels[..]
        };
        let values = || {
            (panels.iter())
                .flat_map(|p| p.values.iter().flatten().flatten())
                .copied()
                .filter(|v| v.is_finite())
        };
        if self.fit_y {
            let drawn = || values().chain(self.bands.iter().copied().filter(|v| v.is_finite()));
            let lower = (drawn().fold(0.0_f64, f64::min) * 20.0).floor() / 20.0;
            let upper = (drawn().fold(0.0_f64, f64::max) * 20.0).ceil() / 20.0;
            let pad = 0.02 * (upper - lower).max(0.05);
            return (lower - pad, upper + pad);
        }
        let min = values().fold(0.0_f64, f64::min);
        let lower = ((min * 10.0).floor() / 10.0).max(-1.0);
        (lower - 0.02, 1.02)
    }

    /// Whether some value lies below the drawn y range of its panel.
    pub fn clips(&self) -> bool {
        (self.panels.iter()).any(|p| {
            let (lower, _) = self.y_range(p);
            p.values.iter().flatten().flatten().any(|v| *v < lower)
        })
    }
}

/// The figure as an SVG document.
pub fn svg(figure: &BoxFigure) -> Result<String, String> {
    register_font();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, figure.size()).into_drawing_area();
        draw(figure, &root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// The figure as PNG bytes (8-bit RGB).
pub fn png(figure: &BoxFigure) -> Result<Vec<u8>, String> {
    register_font();
    let (w, h) = figure.size();
    let mut rgb = vec![255_u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        draw(figure, &root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    encode_png(&rgb, w, h)
}

/// Encodes 8-bit RGB pixels with fixed settings and no ancillary chunks.
fn encode_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Balanced);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(rgb).map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
    }
    Ok(bytes)
}

fn draw<DB: DrawingBackend>(figure: &BoxFigure, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let (w, _) = figure.size();
    let (title, rest) = root.split_vertically(TITLE_HEIGHT);
    let (legend, body) = rest.split_vertically(LEGEND_HEIGHT);
    let title_style = TextStyle::from(("sans-serif", 20).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Center));
    title
        .draw(&Text::new(
            figure.title.clone(),
            ((w / 2) as i32, (TITLE_HEIGHT / 2) as i32),
            title_style,
        ))
        .map_err(err)?;
    draw_legend(figure, &legend)?;
    let columns = figure.columns.clamp(1, figure.panels.len().max(1));
    let rows = figure.panels.len().div_ceil(columns).max(1);
    let areas = body.split_evenly((rows, columns));
    for (panel, area) in figure.panels.iter().zip(&areas) {
        draw_panel(figure, panel, area)?;
    }
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(figure: &BoxFigure, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let style = TextStyle::from(("sans-serif", 14).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = 20_i32;
    let y = (LEGEND_HEIGHT / 2) as i32;
    for (j, hue) in figure.hues.iter().enumerate() {
        let colour = PALETTE[j % PALETTE.len()];
        area.draw(&Rectangle::new(
            [(x, y - 7), (x + 22, y + 7)],
            colour.mix(0.45).filled(),
        ))
        .map_err(err)?;
        area.draw(&Rectangle::new(
            [(x, y - 7), (x + 22, y + 7)],
            colour.stroke_width(2),
        ))
        .map_err(err)?;
        area.draw(&Text::new(hue.clone(), (x + 28, y), style.clone()))
            .map_err(err)?;
        let (text_w, _) = area.estimate_text_size(hue, &style).map_err(err)?;
        x += 28 + text_w as i32 + 24;
    }
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(
    figure: &BoxFigure,
    panel: &BoxPanel,
    area: &DrawingArea<DB, Shift>,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let n_groups = panel.groups.len().max(1);
    let (y_lo, y_hi) = figure.y_range(panel);
    let longest = panel.groups.iter().map(|g| g.chars().count()).max().unwrap_or(1) as u32;
    let x_label_area = if figure.rotate_x_labels {
        40 + 8 * longest
    } else {
        50
    };
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 16))
        .margin(10)
        .margin_right(20)
        .x_label_area_size(x_label_area)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..n_groups as f64 - 0.5, y_lo..y_hi)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(230, 230, 230))
        .y_label_style(("sans-serif", 12))
        .y_label_formatter(&|y: &f64| fixed(*y, if figure.fit_y { 2 } else { 1 }))
        .x_desc(figure.x_label.as_str())
        .y_desc(figure.y_label.as_str())
        .axis_desc_style(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    // Category labels under each group, placed in pixels (the mesh labels numbers only).
    let (area_x, area_y) = area.get_base_pixel();
    for (i, group) in panel.groups.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64, y_lo));
        let (px, py) = (px - area_x, py - area_y);
        let style = if figure.rotate_x_labels {
            TextStyle::from(("sans-serif", 13).into_font())
                .transform(FontTransform::Rotate90)
                .pos(Pos::new(HPos::Left, VPos::Center))
        } else {
            TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Center, VPos::Top))
        };
        area.draw(&Text::new(group.clone(), (px, py + 6), style))
            .map_err(err)?;
    }
    if let Some(r) = figure.reference {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, r), (n_groups as f64 - 0.5, r)],
                RGBColor(150, 150, 150).stroke_width(1),
            )))
            .map_err(err)?;
    }
    for &band in figure
        .bands
        .iter()
        .filter(|b| b.is_finite() && (y_lo..=y_hi).contains(*b))
    {
        chart
            .draw_series(std::iter::once(DashedPathElement::new(
                vec![(-0.5, band), (n_groups as f64 - 0.5, band)],
                6,
                4,
                RGBColor(150, 150, 150).stroke_width(1),
            )))
            .map_err(err)?;
    }
    let n_hues = panel.values.len().max(1);
    let slot = 0.8 / n_hues as f64;
    let clip = |v: f64| v.max(y_lo + 0.005);
    for (j, per_group) in panel.values.iter().enumerate() {
        let colour = PALETTE[j % PALETTE.len()];
        for (i, values) in per_group.iter().enumerate() {
            let Some(b) = BoxStats::new(values) else { continue };
            let centre = i as f64 - 0.4 + slot * (j as f64 + 0.5);
            let half = slot * 0.4;
            let shapes = box_shapes::<DB>(&b, values, figure.show_points, (centre, half), colour, clip);
            chart.draw_series(shapes).map_err(err)?;
        }
    }
    Ok(())
}

/// The shapes of one box: the box between the quartiles, the median, the whiskers and their caps,
/// the outliers, and with `show_points` every value; `centre` and `half` place it on the x axis,
/// `clip` keeps values inside the y range.
fn box_shapes<DB: DrawingBackend>(
    b: &BoxStats,
    values: &[f64],
    show_points: bool,
    (centre, half): (f64, f64),
    colour: RGBColor,
    clip: impl Fn(f64) -> f64,
) -> Vec<DynElement<'static, DB, (f64, f64)>> {
    let (l, r) = (centre - half, centre + half);
    let line = colour.stroke_width(2);
    let mut shapes: Vec<DynElement<'static, DB, (f64, f64)>> = vec![
        Rectangle::new([(l, clip(b.q1)), (r, clip(b.q3))], colour.mix(0.35).filled()).into_dyn(),
        Rectangle::new([(l, clip(b.q1)), (r, clip(b.q3))], line).into_dyn(),
        PathElement::new(
            vec![(l, clip(b.median)), (r, clip(b.median))],
            BLACK.stroke_width(2),
        )
        .into_dyn(),
        PathElement::new(vec![(centre, clip(b.q3)), (centre, clip(b.whisker_high))], line).into_dyn(),
        PathElement::new(vec![(centre, clip(b.q1)), (centre, clip(b.whisker_low))], line).into_dyn(),
        PathElement::new(
            vec![
                (centre - half / 2.0, clip(b.whisker_high)),
                (centre + half / 2.0, clip(b.whisker_high)),
            ],
            line,
        )
        .into_dyn(),
        PathElement::new(
            vec![
                (centre - half / 2.0, clip(b.whisker_low)),
                (centre + half / 2.0, clip(b.whisker_low)),
            ],
            line,
        )
        .into_dyn(),
    ];
    // Outliers: one dot per distinct value at 1/500 resolution (a Full-vocabulary box
    // can have thousands; identical dots add nothing).
    let mut drawn: Vec<i64> = b
        .outliers
        .iter()
        .map(|v| (clip(*v) * 500.0).round() as i64)
        .collect();
    drawn.dedup();
    for y in drawn {
        shapes.push(Circle::new((centre, y as f64 / 500.0), 2, colour.filled()).into_dyn());
    }
    if show_points {
        for (k, v) in values.iter().enumerate() {
            // A fixed spread (golden-ratio sequence), no randomness.
            let dx = ((k as f64 * 0.618_033_988_75).fract() - 0.5) * half;
            shapes.push(Circle::new((centre + dx, clip(*v)), 3, BLACK.mix(0.7).filled()).into_dyn());
        }
    }
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure() -> BoxFigure {
        BoxFigure {
            title: "Test".into(),
            x_label: "list".into(),
            y_label: "ICC".into(),
            hues: vec!["DB/WA".into(), "RIPA".into()],
            panels: vec![BoxPanel {
                title: "corpus · SGNS".into(),
                groups: vec!["OCC16".into(), "Full".into()],
                values: vec![
                    vec![vec![0.9, 0.8, 0.7, 0.1], vec![0.5]],
                    vec![vec![], vec![0.2, 0.3, -3.0]],
                ],
            }],
            show_points: true,
            rotate_x_labels: false,
            panel_size: (400, 300),
            columns: 2,
            reference: Some(0.6),
            bands: vec![0.4, 0.8],
            fit_y: false,
            own_y_axes: false,
        }
    }

    #[test]
    fn own_y_axes_fit_each_panel_to_its_values() {
        let panel = |title: &str, values: Vec<f64>| BoxPanel {
            title: title.into(),
            groups: vec!["0".into()],
            values: vec![vec![values]],
        };
        let mut f = BoxFigure {
            panels: vec![
                panel("wide", vec![-0.75, 0.5]),
                panel("narrow", vec![0.0, 0.031_25]),
            ],
            fit_y: true,
            bands: Vec::new(),
            ..figure()
        };
        // Shared: [−0.75, 0.5] (0 inside, on the 0.05 grid), padded by 2 % of 1.25.
        let shared = (-0.775, 0.525);
        let near = |(a, b): (f64, f64), (c, d): (f64, f64)| (a - c).abs() < 1e-12 && (b - d).abs() < 1e-12;
        assert!(near(f.y_range(&f.panels[1]), shared));
        f.own_y_axes = true;
        assert!(near(f.y_range(&f.panels[0]), shared));
        // Its own: [0, 0.03125] rounded out to [0, 0.05], padded by 2 % of 0.05.
        assert!(
            near(f.y_range(&f.panels[1]), (-0.001, 0.051)),
            "{:?}",
            f.y_range(&f.panels[1])
        );
    }

    #[test]
    fn svg_and_png_are_deterministic() {
        let f = figure();
        let a = svg(&f).unwrap();
        assert!(a.starts_with("<svg"), "{}", &a[..40]);
        assert_eq!(a, svg(&f).unwrap());
        let p = png(&f).unwrap();
        assert_eq!(&p[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(p, png(&f).unwrap());
        assert!(f.clips());
        assert_eq!(f.size(), (400, 370));
    }
}
