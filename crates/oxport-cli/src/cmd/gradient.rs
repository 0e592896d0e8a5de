//! `oxport gradient`: gradient strips, one row per interpolation space.

use std::path::PathBuf;

use clap::Args;
use oxport::color::{self, Fit, GradientOptions, Hue, Panel, Space};

#[derive(Args)]
#[command(after_help = "Examples:\n  \
    oxport gradient \"#000000,#ffffff\" --spaces srgb,linear,oklab --out strip.png\n  \
    oxport gradient \"#0000ff, #ffff00 30%, #ff0000\" --spaces oklab,oklch --hue longer --out s.png\n  \
    oxport gradient --preset all --out presets.png")]
pub struct GradientArgs {
    /// Stops: comma-separated hex colors (#rgb, #rgba, #rrggbb, #rrggbbaa),
    /// each optionally followed by a position in percent
    pub stops: Option<String>,
    /// Interpolation spaces, one row each: srgb, linear, oklab, oklch
    #[arg(long, value_delimiter = ',', default_value = "srgb,linear,oklab", value_parser = parse::<Space>)]
    pub spaces: Vec<Space>,
    /// Presets to draw (after STOPS, if any): a name, or "all"; repeatable.
    /// Names: black-white, blue-white, red-green, blue-yellow, rainbow,
    /// black-red-yellow-blue-white, red-blue-green
    #[arg(long)]
    pub preset: Vec<String>,
    /// How oklch rows travel around the hue circle: shorter, longer,
    /// increasing, decreasing
    #[arg(long, default_value = "shorter", value_parser = parse::<Hue>)]
    pub hue: Hue,
    /// How colors outside sRGB come back into it: map (CSS Color 4's gamut
    /// mapping), clip, none
    #[arg(long, default_value = "map", value_parser = parse::<Fit>)]
    pub fit: Fit,
    /// Strip width in pixels
    #[arg(long, default_value_t = 1024)]
    pub width: usize,
    /// The PNG to write
    #[arg(long, short)]
    pub out: PathBuf,
}

fn parse<T: std::str::FromStr<Err = oxport::Error>>(text: &str) -> Result<T, String> {
    text.parse::<T>().map_err(|e| match e {
        oxport::Error::InvalidArgument(why) => why.into_owned(),
        other => other.to_string(),
    })
}

pub fn run(args: &GradientArgs) -> oxport::Result<()> {
    let rows: Vec<GradientOptions> = args
        .spaces
        .iter()
        .map(|&space| GradientOptions {
            space,
            hue: args.hue,
            fit: args.fit,
        })
        .collect();
    let mut panels = Vec::new();
    if let Some(stops) = &args.stops {
        panels.push(Panel {
            title: stops.clone(),
            stops: color::parse_stops(stops)?,
            rows: rows.clone(),
        });
    }
    for name in &args.preset {
        panels.extend(Panel::presets(name, &rows)?);
    }
    if panels.is_empty() {
        return Err(oxport::Error::InvalidArgument(
            "nothing to draw: give stops (\"#000,#fff\") or --preset".into(),
        ));
    }
    color::write_gradients(&args.out, &panels, args.width)?;
    eprintln!(
        "{}: {} gradient(s) × {} row(s), {} pixels wide",
        args.out.display(),
        panels.len(),
        rows.len(),
        args.width
    );
    Ok(())
}
