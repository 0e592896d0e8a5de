"""Meshes built on one thread and written on another while the next objects
are gathered."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from .package import oxport


class Stream:
    """Meshes built on one thread and written on another, in order, while the
    main thread gathers the next objects: building a batch overlaps with
    writing the one before it (where the kernel's copy into the page cache
    costs as much as formatting). Small meshes' arguments are handed over a
    batch at a time. At most ``ahead`` built batches wait to be written."""

    def __init__(self, writer, corners_per_batch: int = 500_000, ahead: int = 4):
        self.writer = writer
        self.corners_per_batch = corners_per_batch
        self.items: list = []
        self.corners = 0
        self.builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oxport-build")
        self.writes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oxport-write")
        self.room = threading.Semaphore(ahead)
        self.tasks: list = []

    def add(self, gathered: "oxport.blender.Gathered", corners: int) -> None:
        self.items.append(gathered)
        self.corners += corners
        if self.corners >= self.corners_per_batch:
            self.flush()

    def flush(self) -> None:
        if self.items:
            items, self.items, self.corners = self.items, [], 0
            self.submit(lambda: oxport.blender.meshes(items))

    def submit(self, build) -> None:
        """Runs ``build`` (which returns meshes) on the build thread, then
        writes its meshes after those submitted before."""

        def build_then_queue():
            meshes = build()
            self.room.acquire()
            return self.writes.submit(write, meshes)

        def write(meshes):
            try:
                self.writer.write(meshes)
            finally:
                self.room.release()

        self.tasks.append(self.builder.submit(build_then_queue))

    def wait(self) -> None:
        """Waits for every batch to be written; the first failure is raised."""
        for task in self.tasks:
            task.result().result()

    def close(self) -> None:
        """Stops the threads; batches not yet started are dropped."""
        for pool in (self.builder, self.writes):
            pool.shutdown(wait=True, cancel_futures=True)
