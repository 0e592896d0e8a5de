//! `oxport demo`: the main job on the embedded default scenes.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args as ClapArgs;
use oxport::obj::WriteOptions;

use super::obj::{Scene, export, library};

#[derive(ClapArgs)]
pub struct Args {
    /// Where to write the files
    #[arg(long, default_value = "target/demo")]
    pub out_dir: PathBuf,
    /// Level of the big sphere (10: 2M faces)
    #[arg(long, default_value_t = 10)]
    pub level: u32,
    /// Objects in the many-object scene
    #[arg(long, default_value_t = 24_000)]
    pub objects: usize,
    /// Encoding threads (default: one per core)
    #[arg(long)]
    pub threads: Option<usize>,
}

pub fn run(args: Args) -> oxport::Result<()> {
    std::fs::create_dir_all(&args.out_dir).map_err(|e| oxport::Error::io_at(&args.out_dir, e))?;
    for (scene, name) in [
        (
            Scene::Sphere(args.level),
            format!("sphere_{}.obj", args.level),
        ),
        (
            Scene::City {
                objects: args.objects,
                seed: 1,
            },
            format!("city_{}.obj", args.objects),
        ),
    ] {
        let start = Instant::now();
        let (meshes, materials) = scene.build();
        println!(
            "generated {scene} in {:.2} s",
            start.elapsed().as_secs_f64()
        );
        let materials = library(materials);
        let summary = export(
            &meshes,
            materials.as_ref(),
            &args.out_dir.join(name),
            WriteOptions {
                threads: args.threads,
                header: vec!["oxport".into()],
                ..WriteOptions::default()
            },
            "exporting",
        )?;
        println!("{summary}");
    }
    Ok(())
}
