//! A batch job and the conversion each of its files goes through.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::targets::{is_directory, targets};
use crate::{Error, Result, exr, obj, seekable};

/// Where a job's outputs go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Output {
    /// Into this directory (a bucket's prefix for a URL ending in `/`),
    /// each output named after its input ([`targets`]); created if missing.
    Directory(PathBuf),
    /// This one file: the job has one input.
    File(PathBuf),
}

impl Output {
    /// The command line's rule: the one input into `path` itself when
    /// `path` is not a directory ([`is_directory`]), else into the
    /// directory `path`.
    pub fn of(path: &Path, inputs: usize) -> Output {
        if inputs == 1 && !is_directory(path) {
            Output::File(path.to_path_buf())
        } else {
            Output::Directory(path.to_path_buf())
        }
    }

    /// The file or directory.
    pub fn path(&self) -> &Path {
        match self {
            Output::Directory(path) | Output::File(path) => path,
        }
    }
}

/// What each file of a job goes through, with its options. Threads are not
/// among them (they are not serialized): each run is given its own.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Conversion {
    /// An OpenEXR file recompressed ([`exr::convert`]).
    Exr(exr::ConvertOptions),
    /// Any file packed into a seekable Zstandard archive, `NAME.zst` in a
    /// directory ([`seekable::pack_file`]).
    Seekable(seekable::WriteOptions),
    /// An OBJ file written again ([`obj::convert`]), its materials in an
    /// MTL file beside it.
    Obj {
        /// How the input is read.
        reading: obj::ReadOptions,
        /// How the output is written.
        writing: obj::WriteOptions,
    },
}

/// What a conversion read and wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Done {
    /// The input's size in bytes.
    pub bytes_in: u64,
    /// The size of what was written (an OBJ file with its MTL file).
    pub bytes_out: u64,
}

impl Conversion {
    /// The name of the conversion, as `oxport.dask.convert`'s `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Conversion::Exr(_) => "exr",
            Conversion::Seekable(_) => "seekable",
            Conversion::Obj { .. } => "obj",
        }
    }

    /// What an output's name adds to its input's in a directory.
    pub fn suffix(&self) -> &'static str {
        match self {
            Conversion::Seekable(_) => ".zst",
            _ => "",
        }
    }

    /// The files a conversion writes for `target`: itself, and for OBJ the
    /// MTL file beside it.
    pub fn outputs(&self, target: &Path) -> Vec<PathBuf> {
        match self {
            Conversion::Obj { .. } => vec![target.to_path_buf(), obj::mtl_path(target)],
            _ => vec![target.to_path_buf()],
        }
    }

    /// The conversion as JSON ([`Conversion::from_json`]).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a conversion always serializes")
    }

    /// A conversion from [`Conversion::to_json`]'s text, checked.
    pub fn from_json(text: &str) -> Result<Conversion> {
        let conversion: Conversion = serde_json::from_str(text)
            .map_err(|e| Error::invalid(format!("not a conversion: {e}")))?;
        conversion.check()?;
        Ok(conversion)
    }

    /// Refuses options no run could take, before any file is read.
    pub fn check(&self) -> Result<()> {
        match self {
            Conversion::Exr(options) => match options.storing {
                exr::Storing::Tiles(t) => {
                    exr::Tiles::new(t.width, t.height, t.mode, t.rounding).map(|_| ())
                }
                _ => Ok(()),
            },
            Conversion::Seekable(options) => options.check(),
            Conversion::Obj { writing, .. } => writing.validate(),
        }
    }

    /// Converts `input` into `target` on `threads` threads (`None`: one per
    /// core), whole or not at all. `moved(bytes)` follows the input where
    /// the conversion reports it.
    pub fn run(
        &self,
        input: &Path,
        target: &Path,
        threads: Option<usize>,
        moved: &dyn Fn(u64),
    ) -> Result<Done> {
        match self {
            Conversion::Exr(options) => {
                let options = exr::ConvertOptions {
                    threads,
                    ..options.clone()
                };
                let done = exr::convert(input, target, &options)?;
                Ok(Done {
                    bytes_in: done.input_bytes,
                    bytes_out: done.output_bytes,
                })
            }
            Conversion::Seekable(options) => {
                let options = seekable::WriteOptions {
                    threads,
                    ..options.clone()
                };
                let packed = seekable::pack_file(input, target, &options, |done, _| moved(done))?;
                Ok(Done {
                    bytes_in: packed.input_bytes,
                    bytes_out: packed.output_bytes,
                })
            }
            Conversion::Obj { reading, writing } => {
                let reading = obj::ReadOptions {
                    threads,
                    ..reading.clone()
                };
                let writing = obj::WriteOptions {
                    threads,
                    ..writing.clone()
                };
                let done = obj::convert(input, target, &reading, &writing, |_, _| {})?;
                let mut bytes_out = 0;
                for file in self.outputs(target) {
                    bytes_out += size(&file)?;
                }
                Ok(Done {
                    bytes_in: done.bytes_read,
                    bytes_out,
                })
            }
        }
    }
}

/// The size of `file`; 0 when there is none (an MTL file not written).
fn size(file: &Path) -> Result<u64> {
    match crate::source::open(file) {
        Ok(source) => source.size().map_err(|e| Error::io_at(file, e)),
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(e),
    }
}

/// Files converted on their own, as one front end or another runs them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// The files (paths or URLs), in order.
    pub inputs: Vec<PathBuf>,
    /// Where their outputs go.
    pub output: Output,
    /// What each goes through.
    pub conversion: Conversion,
}

impl Job {
    /// Each input's output, in order, once the job is known to be possible:
    /// options checked, no two inputs writing one file, the output
    /// directory created (a bucket's prefix needs none). Nothing is written
    /// when it fails.
    pub fn plan(&self) -> Result<Vec<PathBuf>> {
        self.conversion.check()?;
        if self.inputs.is_empty() {
            return Err(Error::invalid("inputs: no files given"));
        }
        match &self.output {
            Output::File(path) => {
                if self.inputs.len() != 1 {
                    return Err(Error::invalid(format!(
                        "{} inputs into the one file {}: name a directory",
                        self.inputs.len(),
                        path.display()
                    )));
                }
                Ok(vec![path.clone()])
            }
            Output::Directory(dir) => {
                let targets = targets(
                    &self.inputs,
                    dir,
                    self.conversion.suffix(),
                    matches!(self.conversion, Conversion::Obj { .. }),
                )?;
                if !is_url(dir) {
                    std::fs::create_dir_all(dir).map_err(|e| Error::io_at(dir, e))?;
                }
                Ok(targets)
            }
        }
    }

    /// Removes what writers killed in the middle of a file left beside the
    /// outputs `targets` (in a bucket, nothing is published until whole).
    /// Only when no run of the job is under way.
    pub fn remove_temporaries(&self, targets: &[PathBuf]) -> Result<usize> {
        let mut removed = 0;
        for target in targets.iter().filter(|t| !is_url(t)) {
            for file in self.conversion.outputs(target) {
                removed += crate::atomic::remove_temporaries(&file)?;
            }
        }
        Ok(removed)
    }

    /// The job as JSON, for another process to run ([`Job::from_json`]).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a job always serializes")
    }

    /// A job from [`Job::to_json`]'s text; its options are checked.
    pub fn from_json(text: &str) -> Result<Job> {
        let job: Job = serde_json::from_str(text)
            .map_err(|e| Error::invalid(format!("not a batch job: {e}")))?;
        job.conversion.check()?;
        Ok(job)
    }
}

fn is_url(path: &Path) -> bool {
    #[cfg(feature = "remote")]
    return crate::remote::is_url(path);
    #[cfg(not(feature = "remote"))]
    {
        let _ = path;
        false
    }
}

/// An error's message about `path`, led by the path unless it names it
/// already — the one line a batch prints for a file that failed.
pub fn located(path: &Path, message: &str) -> String {
    let name = path.display().to_string();
    if message.contains(&name) {
        message.to_owned()
    } else {
        format!("{name}: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exr_zip() -> Conversion {
        Conversion::Exr(exr::ConvertOptions {
            compression: exr::Compression::Zip,
            level: Some(6),
            storing: exr::Storing::Tiles(
                exr::Tiles::new(32, 16, exr::LevelMode::Mipmap, exr::Rounding::Up).unwrap(),
            ),
            threads: Some(3),
        })
    }

    #[test]
    fn a_job_survives_its_json_but_its_threads_do_not() {
        let job = Job {
            inputs: vec!["a.exr".into(), "s3://bucket/b.exr".into()],
            output: Output::Directory("out".into()),
            conversion: exr_zip(),
        };
        let text = job.to_json();
        assert!(text.contains(r#""compression":"zip""#), "{text}");
        let back = Job::from_json(&text).unwrap();
        assert_eq!(back.inputs, job.inputs);
        assert_eq!(back.output, job.output);
        let Conversion::Exr(options) = back.conversion else {
            panic!("{text}")
        };
        let Conversion::Exr(sent) = exr_zip() else {
            unreachable!()
        };
        assert_eq!(
            (options.compression, options.level, options.storing),
            (sent.compression, sent.level, sent.storing)
        );
        assert_eq!(options.threads, None);

        let obj = Conversion::Obj {
            reading: obj::ReadOptions::default(),
            writing: obj::WriteOptions {
                precision: obj::Precision::Shortest,
                ..obj::WriteOptions::default()
            },
        };
        let Conversion::Obj { writing, .. } = Conversion::from_json(&obj.to_json()).unwrap() else {
            panic!()
        };
        assert_eq!(writing.precision, obj::Precision::Shortest);
    }

    #[test]
    fn json_a_run_could_not_take_is_refused() {
        let job = Job {
            inputs: vec!["a.exr".into()],
            output: Output::File("b.exr".into()),
            conversion: exr_zip(),
        };
        let text = job.to_json();
        for (bad, why) in [
            (text.replace(r#""width":32"#, r#""width":0"#), "tiles of 0"),
            (text.replace(r#""zip""#, r#""png""#), "unknown compression"),
            (text.replace(r#""inputs""#, r#""input""#), "not a batch job"),
            (text.replace('{', "{\"extra\":1,"), "not a batch job"),
            ("[]".to_owned(), "not a batch job"),
        ] {
            let error = Job::from_json(&bad).unwrap_err().to_string();
            assert!(error.contains(why), "{bad}: {error}");
        }
        let seekable = Conversion::Seekable(seekable::WriteOptions {
            frame_size: 0,
            ..seekable::WriteOptions::default()
        });
        assert!(Conversion::from_json(&seekable.to_json()).is_err());
    }

    #[test]
    fn a_plan_names_every_output_before_anything_is_written() {
        let folder = tempfile::tempdir().unwrap();
        let out = folder.path().join("deep").join("out");
        let job = Job {
            inputs: vec!["x/a.obj".into(), "y/b.obj".into()],
            output: Output::Directory(out.clone()),
            conversion: Conversion::Obj {
                reading: obj::ReadOptions::default(),
                writing: obj::WriteOptions::default(),
            },
        };
        assert_eq!(job.plan().unwrap(), [out.join("a.obj"), out.join("b.obj")]);
        assert!(out.is_dir());
        assert_eq!(
            job.conversion.outputs(&out.join("a.obj")),
            [out.join("a.obj"), out.join("a.mtl")]
        );

        let clash = Job {
            inputs: vec!["x/a.obj".into(), "y/a.obj".into()],
            ..job.clone()
        };
        assert!(
            clash
                .plan()
                .unwrap_err()
                .to_string()
                .contains("would both write")
        );
        let two_into_one = Job {
            output: Output::File(out.join("one.obj")),
            ..job
        };
        assert!(
            two_into_one
                .plan()
                .unwrap_err()
                .to_string()
                .contains("2 inputs")
        );
    }

    #[test]
    fn a_run_converts_one_file_and_names_it_when_it_fails() {
        let folder = tempfile::tempdir().unwrap();
        let input = folder.path().join("data.bin");
        std::fs::write(&input, vec![7u8; 100_000]).unwrap();
        let job = Job {
            inputs: vec![input.clone(), folder.path().join("missing.bin")],
            output: Output::Directory(folder.path().join("packed")),
            conversion: Conversion::Seekable(seekable::WriteOptions::default()),
        };
        let targets = job.plan().unwrap();
        let moved = std::cell::Cell::new(0);
        let done = job
            .conversion
            .run(&job.inputs[0], &targets[0], Some(1), &|n| moved.set(n))
            .unwrap();
        assert_eq!(done.bytes_in, 100_000);
        assert_eq!(
            done.bytes_out,
            std::fs::metadata(&targets[0]).unwrap().len()
        );
        assert_eq!(moved.get(), 100_000);
        let error = job
            .conversion
            .run(&job.inputs[1], &targets[1], Some(1), &|_| {})
            .unwrap_err();
        let line = located(&job.inputs[1], &error.to_string());
        assert_eq!(line.matches("missing.bin").count(), 1, "{line}");
        assert!(!targets[1].exists());
    }

    #[test]
    fn a_message_is_led_by_its_path_unless_it_names_it() {
        let path = Path::new("shot/a.exr");
        assert_eq!(located(path, "truncated"), "shot/a.exr: truncated");
        assert_eq!(
            located(path, "shot/a.exr:3: bad line"),
            "shot/a.exr:3: bad line"
        );
    }
}
