//! The per-frame plot: plotters draws axes, grid and lines as SVG; a point per frame is then
//! laid over each line at plotters' own coordinates, each with an SVG `<title>`, so hovering
//! shows the frame and its value without any script. The legend is the page's (HTML), so it
//! never hides a line.

use plotters::prelude::*;

/// One line of the plot: a metric's name and its value per frame (index, value).
pub struct Series {
    /// The metric's name in the log.
    pub name: String,
    /// (frame index, value) for every frame that has one.
    pub points: Vec<(u64, f64)>,
}

/// Line colours, in order (a ladder of more renditions than this repeats them).
const COLORS: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];

/// The range the values span, widened a little (never empty).
fn value_range(series: &[Series]) -> (f64, f64) {
    let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.05).max(0.5);
    (lo - pad, hi + pad)
}

/// Draws `series` (sharing one value axis) as an SVG document of `size` pixels.
pub fn svg(
    title: &str,
    y_desc: &str,
    series: &[Series],
    size: (u32, u32),
) -> Result<String, String> {
    let last = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .max()
        .unwrap_or(0);
    let (lo, hi) = value_range(series);
    let mut doc = String::new();
    let mut dots = String::new();
    {
        let root = SVGBackend::with_string(&mut doc, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0f64..(last.max(1)) as f64, lo..hi)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("frame")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_desc(y_desc)
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, s) in series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let line = s
                .points
                .iter()
                .filter(|p| p.1.is_finite())
                .map(|&(x, y)| (x as f64, y));
            chart
                .draw_series(LineSeries::new(line, color.stroke_width(2)))
                .map_err(|e| e.to_string())?;
            for &(x, y) in &s.points {
                if !y.is_finite() {
                    continue;
                }
                let (px, py) = chart.backend_coord(&(x as f64, y));
                dots.push_str(&format!(
                    "<circle class=\"pt\" data-series=\"{}\" cx=\"{px}\" cy=\"{py}\" r=\"3\" \
                     fill=\"{}\"><title>frame {x}: {} {y:.6}</title></circle>\n",
                    super::escape(&s.name),
                    hex(color),
                    super::escape(&s.name),
                ));
            }
        }
        root.present().map_err(|e| e.to_string())?;
    }
    let end = doc.rfind("</svg>").ok_or("plotters wrote no </svg>")?;
    doc.insert_str(end, &format!("<g class=\"points\">\n{dots}</g>\n"));
    Ok(doc)
}

/// The colour of the `i`-th series, as CSS writes it.
pub fn color(i: usize) -> String {
    hex(COLORS[i % COLORS.len()])
}

fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_has_a_circle_with_its_frame_and_value() {
        let s = Series {
            name: "vmaf".into(),
            points: vec![(0, 90.0), (1, 80.5), (2, 70.25)],
        };
        let doc = svg("t", "y", &[s], (400, 200)).unwrap();
        assert!(doc.starts_with("<svg") || doc.contains("<svg"));
        assert_eq!(doc.matches("class=\"pt\"").count(), 3);
        assert!(doc.contains("<title>frame 1: vmaf 80.500000</title>"));
    }

    #[test]
    fn flat_or_empty_series_still_draw() {
        assert!(svg("t", "y", &[], (300, 150)).is_ok());
        let flat = Series {
            name: "x".into(),
            points: vec![(0, 5.0)],
        };
        assert!(svg("t", "y", &[flat], (300, 150)).is_ok());
    }
}
