//! The export's streaming entry: meshes handed over as the caller gathers
//! them from Blender, built on the pipeline's threads and written in order
//! while the caller gathers the next ones. The caller never waits for a
//! build or a write, only for room: at most [`Pipeline::in_flight`] meshes
//! are gathered and not yet written, so memory stays bounded however many
//! objects a scene has.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::Duration;

use crate::blender::{Gathered, mesh};
use crate::feed::{Feed, cannot_start};
use crate::mesh::Mesh;
use crate::obj::FileWriter;
use crate::pipeline::Pipeline;
use crate::{Error, Result};

/// What the stream keeps of a gathered mesh until it is built: an owner of
/// the arrays (the Python binding's object, whose buffers stay pinned while
/// it lives), seen as a [`Gathered`] on the build's thread.
pub trait GatheredSource: Send + 'static {
    /// The arrays, borrowed.
    fn gathered(&self) -> Gathered<'_>;
}

/// Loose edges sent after their mesh ([`MeshStream::add_then_edges`]).
type Edges = Option<Vec<[u32; 2]>>;

struct Item<T> {
    source: T,
    /// Where the loose edges come from when they follow the mesh.
    edges: Option<Receiver<Edges>>,
}

/// The sending end for the loose edges of one mesh: [`LooseEdges::send`]
/// them once fetched. Dropped unsent, the mesh fails to build (the export
/// failed while fetching them and reports its own error).
pub struct LooseEdges(SyncSender<Edges>);

impl LooseEdges {
    /// The mesh's loose edges (`None`: it has none).
    pub fn send(self, edges: Edges) {
        // The stream may have stopped at an error, which `finish` reports.
        let _ = self.0.send(edges);
    }
}

/// Meshes built and written in order into an OBJ [`FileWriter`] on the
/// pipeline's threads, while the caller gathers more.
pub struct MeshStream<T: GatheredSource> {
    feed: Feed<Item<T>, FileWriter>,
    /// Set when the stream is dropped unfinished: a build waiting for loose
    /// edges that will not come stops waiting.
    stopped: Arc<AtomicBool>,
}

impl<T: GatheredSource> MeshStream<T> {
    /// Starts a stream into `writer` on `threads` threads (`None`: one per
    /// core; the writer's encoding shares them).
    pub fn new(writer: FileWriter, threads: Option<usize>) -> Result<Self> {
        let pipeline = Pipeline::new(threads)?;
        let stopped = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&stopped);
        let feed = Feed::start("oxport-export", pipeline.in_flight(), move |items| {
            run(writer, &pipeline, items, &stop)
        })?;
        Ok(MeshStream { feed, stopped })
    }

    /// Hands over one gathered mesh (its loose edges among its arrays). It
    /// is written after those handed over before. Waits while the stream is
    /// full; an error is the stream's own (an earlier mesh that failed).
    pub fn add(&mut self, source: T) -> Result<()> {
        self.feed.send(Item {
            source,
            edges: None,
        })
    }

    /// Hands over a gathered mesh whose loose edges follow: its build starts
    /// at once, and waits for them (fetching them from Blender takes the
    /// caller as long as a big mesh's build takes the threads).
    pub fn add_then_edges(&mut self, source: T) -> Result<LooseEdges> {
        let (sender, edges) = sync_channel(1);
        self.feed.send(Item {
            source,
            edges: Some(edges),
        })?;
        Ok(LooseEdges(sender))
    }

    /// Waits until every mesh handed over is written; the writer, to be
    /// finished (curves, the MTL file) by the caller. The first error of any
    /// build or write is returned, and the writer is dropped with it (no
    /// file appears).
    pub fn finish(mut self) -> Result<FileWriter> {
        self.feed.finish()
    }
}

impl<T: GatheredSource> Drop for MeshStream<T> {
    /// An unfinished stream (an error, a cancelled export) stops: meshes
    /// not yet built are dropped (by the feed, dropped next), and so is the
    /// writer's temporary file; a build waiting for loose edges stops.
    fn drop(&mut self) {
        self.stopped.store(true, Ordering::Relaxed);
    }
}

/// The worker: builds every item on the pipeline and hands the meshes, in
/// order, to a writing thread a group at a time — as many lines as the
/// writer's chunks in flight hold, so that its encoding keeps every thread
/// busy. Writing on its own thread keeps a slow write (`O_DIRECT` waits for
/// the disk) from holding up the builds, and with them the caller.
fn run<T: GatheredSource>(
    writer: FileWriter,
    pipeline: &Pipeline,
    items: Receiver<Item<T>>,
    stopped: &AtomicBool,
) -> Result<FileWriter> {
    let group = pipeline.in_flight() * writer.chunk_size();
    // Two groups wait for the writer at most: a bound on built meshes.
    let (groups, to_write) = sync_channel::<Vec<Mesh<'static>>>(2);
    std::thread::scope(|scope| {
        let writing = std::thread::Builder::new()
            .name("oxport-export-write".into())
            .spawn_scoped(scope, move || -> Result<FileWriter> {
                let mut writer = writer;
                for meshes in to_write {
                    writer.write(&meshes)?;
                }
                Ok(writer)
            })
            .map_err(cannot_start)?;
        // A group the writer no longer takes: its own error says why.
        let stopped_writing = || Error::Internal("the export's writer stopped".into());
        let mut pending: Vec<Mesh<'static>> = Vec::new();
        let mut lines = 0;
        let built = pipeline
            .stream(
                items,
                |item| build(item, pipeline, stopped),
                |built| {
                    lines += size(&built);
                    pending.push(built);
                    if lines >= group {
                        lines = 0;
                        groups
                            .send(std::mem::take(&mut pending))
                            .map_err(|_| stopped_writing())?;
                    }
                    Ok(())
                },
            )
            .and_then(|()| groups.send(pending).map_err(|_| stopped_writing()));
        drop(groups);
        let written = writing
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match (built, written) {
            (_, Err(error)) | (Err(error), Ok(_)) => Err(error),
            (Ok(()), Ok(writer)) => Ok(writer),
        }
    })
}

fn build<T: GatheredSource>(
    item: Item<T>,
    pipeline: &Pipeline,
    stopped: &AtomicBool,
) -> Result<Mesh<'static>> {
    let gathered = item.source.gathered();
    let mut built = mesh(&gathered, pipeline)?;
    drop(gathered);
    // The arrays go as soon as the mesh no longer needs them.
    drop(item.source);
    if let Some(edges) = item.edges {
        let never = || Error::invalid(format!("{}: its loose edges never came", built.name));
        let edges = loop {
            match edges.recv_timeout(Duration::from_millis(20)) {
                Ok(edges) => break edges,
                Err(RecvTimeoutError::Timeout) if !stopped.load(Ordering::Relaxed) => {}
                Err(_) => return Err(never()),
            }
        };
        if let Some(edges) = edges {
            built.edges = Some(edges.into());
            built.validate()?;
        }
    }
    Ok(built)
}

/// The lines a mesh writes, about: what its share of the writer's work is.
fn size(mesh: &Mesh) -> usize {
    mesh.positions.len()
        + mesh.normals.as_ref().map_or(0, |n| n.len())
        + mesh.uvs.as_ref().map_or(0, |u| u.len())
        + mesh.face_count()
        + mesh.edges.as_ref().map_or(0, |e| e.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blender::meshes;
    use crate::obj::WriteOptions;
    use crate::synth;

    /// A gathered mesh that owns its arrays, as the binding's object does.
    struct Owned {
        name: String,
        positions: Vec<[f32; 3]>,
        corners: Vec<u32>,
        starts: Vec<u32>,
        edges: Option<Vec<[u32; 2]>>,
    }

    impl GatheredSource for Owned {
        fn gathered(&self) -> Gathered<'_> {
            Gathered {
                name: self.name.clone(),
                scale: 1.0,
                positions: &self.positions,
                corner_vertices: &self.corners,
                face_starts: &self.starts,
                edges: self.edges.as_deref(),
                ..Gathered::default()
            }
        }
    }

    /// Objects of every size: many small ones, a few of 10^4–10^5 corners.
    fn scene() -> Vec<Owned> {
        let mut objects: Vec<Mesh> = synth::city(300, 7);
        objects.insert(100, synth::sphere(5));
        objects.push(synth::sphere(6));
        objects
            .into_iter()
            .enumerate()
            .map(|(i, m)| Owned {
                name: format!("object{i}"),
                positions: m.positions.to_vec(),
                corners: m.position_indices.to_vec(),
                starts: m.face_offsets[..m.face_offsets.len() - 1].to_vec(),
                edges: (i % 50 == 3).then(|| vec![[0, 1], [1, 2]]),
            })
            .collect()
    }

    /// A stream on `threads` threads into `path`, a new OBJ file.
    fn stream_into(path: &std::path::Path, threads: usize) -> MeshStream<Owned> {
        let writer = FileWriter::create(path, WriteOptions::default()).unwrap();
        MeshStream::new(writer, Some(threads)).unwrap()
    }

    #[test]
    fn streamed_meshes_are_written_as_one_call_writes_them() {
        let folder = tempfile::tempdir().unwrap();
        let objects = scene();
        let views: Vec<Gathered> = objects.iter().map(Owned::gathered).collect();
        let expected = folder.path().join("expected.obj");
        crate::obj::write(
            &expected,
            &meshes(&views, None).unwrap(),
            &WriteOptions::default(),
        )
        .unwrap();
        for threads in [1, 2, 4] {
            let path = folder.path().join(format!("streamed{threads}.obj"));
            let mut stream = stream_into(&path, threads);
            for (i, object) in scene().into_iter().enumerate() {
                if i % 40 == 5 {
                    // Its loose edges follow it, as a big mesh's do.
                    let edges = object.edges.clone();
                    let later = Owned {
                        edges: None,
                        ..object
                    };
                    stream.add_then_edges(later).unwrap().send(edges);
                } else {
                    stream.add(object).unwrap();
                }
            }
            stream.finish().unwrap().finish().unwrap();
            assert!(
                std::fs::read(&path).unwrap() == std::fs::read(&expected).unwrap(),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn a_mesh_that_fails_stops_the_stream_and_no_file_appears() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("out.obj");
        let mut stream = stream_into(&path, 2);
        let mut objects = scene().into_iter();
        stream.add(objects.next().unwrap()).unwrap();
        let mut broken = objects.next().unwrap();
        broken.corners[0] = 1 << 30;
        stream.add(broken).unwrap();
        // Later meshes are refused with the error once the stream has stopped.
        let mut error = None;
        for object in objects {
            if let Err(e) = stream.add(object) {
                error = Some(e);
                break;
            }
        }
        let error = match error {
            Some(error) => error,
            None => stream.finish().err().expect("the broken mesh fails"),
        };
        assert!(error.to_string().contains("object \"object1\""), "{error}");
        assert!(!path.exists());
        nothing_left(folder.path());
    }

    /// `folder` is empty: no output, no temporary file.
    fn nothing_left(folder: &std::path::Path) {
        let left: Vec<_> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn edges_that_never_come_fail_the_mesh_not_the_process() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("out.obj");
        let mut stream = stream_into(&path, 1);
        let object = scene().into_iter().next().unwrap();
        drop(stream.add_then_edges(object).unwrap());
        let error = stream.finish().err().expect("no edges came");
        assert!(
            error.to_string().contains("loose edges never came"),
            "{error}"
        );
        nothing_left(folder.path());
    }

    #[test]
    fn a_stream_dropped_while_edges_are_awaited_stops() {
        let folder = tempfile::tempdir().unwrap();
        let mut stream = stream_into(&folder.path().join("out.obj"), 1);
        let object = scene().into_iter().next().unwrap();
        let edges = stream.add_then_edges(object).unwrap();
        drop(stream);
        drop(edges);
        nothing_left(folder.path());
    }

    #[test]
    fn a_dropped_stream_leaves_nothing() {
        let folder = tempfile::tempdir().unwrap();
        let mut stream = stream_into(&folder.path().join("out.obj"), 2);
        for object in scene().into_iter().take(20) {
            stream.add(object).unwrap();
        }
        drop(stream);
        nothing_left(folder.path());
    }
}
