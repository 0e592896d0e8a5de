//! Where each output of a batch goes.

use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// Where each of `inputs` is written in `dir`: `dir/NAME` followed by
/// `suffix`, NAME being the input's file name (the last part of a URL too).
/// With `mtl`, each conversion also writes the MTL file beside its output
/// (NAME's extension replaced by `.mtl`), which no other may write either.
///
/// Nothing is written before every input has its own outputs: an input
/// without a file name (`..`, `/`), and two inputs that would write one file,
/// are refused here, naming both inputs. On Windows and macOS, whose file
/// systems ignore case, `a.obj` and `A.OBJ` are one file in a folder (not
/// in a bucket).
pub fn targets(inputs: &[PathBuf], dir: &Path, suffix: &str, mtl: bool) -> Result<Vec<PathBuf>> {
    #[cfg(feature = "remote")]
    let url = crate::remote::is_url(dir);
    #[cfg(not(feature = "remote"))]
    let url = false;
    let fold = FOLDS_CASE && !url;
    let key = |file: &Path| {
        let mut key = file.as_os_str().to_owned();
        if fold {
            key = key.to_string_lossy().to_lowercase().into();
        }
        PathBuf::from(key)
    };
    let mut claimed: Vec<(PathBuf, PathBuf, usize)> =
        Vec::with_capacity(inputs.len() * (1 + mtl as usize));
    let mut targets = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.iter().enumerate() {
        let name = input.file_name().ok_or_else(|| {
            Error::invalid(format!("inputs: {} has no file name", input.display()))
        })?;
        let mut name = name.to_os_string();
        name.push(suffix);
        let target = dir.join(name);
        if mtl {
            let mtl = crate::obj::mtl_path(&target);
            claimed.push((key(&mtl), mtl, i));
        }
        claimed.push((key(&target), target.clone(), i));
        targets.push(target);
    }
    claimed.sort();
    for pair in claimed.windows(2) {
        let ((key, file, a), (same, _, b)) = (&pair[0], &pair[1]);
        if key == same && a != b {
            let (a, b) = (a.min(b), a.max(b));
            return Err(Error::invalid(format!(
                "inputs: {} and {} would both write {}",
                inputs[*a].display(),
                inputs[*b].display(),
                file.display()
            )));
        }
    }
    Ok(targets)
}

/// Whether `output` names a directory: one that exists, or a URL ending in
/// `/` (a prefix in a bucket).
pub fn is_directory(output: &Path) -> bool {
    #[cfg(feature = "remote")]
    if crate::remote::is_url(output) {
        return output.as_os_str().to_string_lossy().ends_with('/');
    }
    output.is_dir()
}

/// Whether the file systems this system is usually on take names that
/// differ only in case for one file (NTFS, APFS and HFS+ by default).
const FOLDS_CASE: bool = cfg!(any(windows, target_vendor = "apple"));

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(names: &[&str]) -> Vec<PathBuf> {
        names.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn each_input_is_named_in_the_directory() {
        let inputs = paths(&["a/x.exr", "s3://bucket/frames/y.exr", "z.exr/"]);
        let targets = targets(&inputs, Path::new("out"), ".zst", false).unwrap();
        let out = Path::new("out");
        assert_eq!(
            targets,
            [
                out.join("x.exr.zst"),
                out.join("y.exr.zst"),
                out.join("z.exr.zst")
            ]
        );
    }

    #[test]
    fn two_inputs_that_write_one_file_are_refused() {
        let error = targets(&paths(&["a/x.exr", "b/x.exr"]), Path::new("out"), "", false);
        let text = error.unwrap_err().to_string();
        let out = Path::new("out").join("x.exr");
        assert!(
            text.contains(&format!(
                "a/x.exr and b/x.exr would both write {}",
                out.display()
            )),
            "{text}"
        );
        // Their MTL files would be one file: a.mtl.
        let error = targets(&paths(&["a.obj", "a.OBJ"]), Path::new("o"), "", true);
        assert!(
            error
                .unwrap_err()
                .to_string()
                .contains("would both write o")
        );
        // One file where the file system ignores case.
        let cased = targets(&paths(&["a.obj", "a.OBJ"]), Path::new("o"), "", false);
        assert_eq!(cased.is_err(), FOLDS_CASE);
        assert!(targets(&paths(&["x/.."]), Path::new("o"), "", false).is_err());
    }
}
