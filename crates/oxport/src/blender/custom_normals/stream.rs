//! The importer's streaming entry: meshes handed over as they are read,
//! their custom normals computed in order on
//! the pipeline's threads while the caller makes the next; at most
//! [`Pipeline::in_flight`] meshes wait.

use super::{CustomNormals, ImportedMesh, encode_custom_normals};
use crate::Result;
use crate::feed::Feed;
use crate::pipeline::Pipeline;

/// What the stream keeps of a mesh until its normals are computed (the
/// Python binding's objects).
pub trait ImportedSource: Send + 'static {
    /// The mesh, borrowed.
    fn imported(&self) -> &ImportedMesh;
}

/// [`encode_custom_normals`] of each mesh handed over, against its own
/// edges (`ImportedMesh::edges`, which the importer gives Blender), in
/// order, on the pipeline's threads (across the meshes and within each).
pub struct NormalsStream<T: ImportedSource> {
    feed: Feed<T, Vec<Option<CustomNormals>>>,
}

impl<T: ImportedSource> NormalsStream<T> {
    /// Starts a stream on `threads` threads (`None`: one per core).
    pub fn new(threads: Option<usize>) -> Result<Self> {
        let pipeline = Pipeline::new(threads)?;
        let feed = Feed::start("oxport-normals", pipeline.in_flight(), move |items| {
            let mut all = Vec::new();
            let encode = |source: T| {
                let mesh = source.imported();
                encode_custom_normals(mesh, &mesh.corner_edges, mesh.edges.len(), &pipeline)
                    .map_err(|e| e.within(&format!("mesh {:?}", mesh.name)))
            };
            pipeline.stream(items, encode, |normals| {
                all.push(normals);
                Ok(())
            })?;
            Ok(all)
        })?;
        Ok(NormalsStream { feed })
    }

    /// Hands over one mesh. Waits while the stream is full; an error is the
    /// stream's own (an earlier mesh that failed).
    pub fn add(&mut self, source: T) -> Result<()> {
        self.feed.send(source)
    }

    /// Waits for every mesh; their custom normals in the order handed over
    /// ([`encode_custom_normals`]'s `None` where only Blender reproduces
    /// them). The first error of any mesh is returned.
    pub fn finish(mut self) -> Result<Vec<Option<CustomNormals>>> {
        self.feed.finish()
    }
}
