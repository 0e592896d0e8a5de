"""An S3 endpoint for the tests: moto's S3 (the mock s3fs's own tests use)
served over HTTP from this process on a free port, counting at the server
the bytes of every response body it sends, by request, so that a test can
say how much of an object a reader fetched.

Clients reach it through the usual environment: ``AWS_ENDPOINT_URL`` and
test credentials (:meth:`S3Server.environment`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import unquote


@dataclass(frozen=True)
class Request:
    """One request the server answered."""

    method: str
    #: ``/bucket/key`` (path-style), or ``/key`` with the bucket in the host.
    path: str
    host: str
    #: The ``Range`` header, if any.
    range: str
    status: int
    #: Bytes of the response body sent.
    sent: int


class S3Server:
    """moto's S3 on ``127.0.0.1``, started by :meth:`start`."""

    def __init__(self, latency: float = 0.0) -> None:
        """``latency``: seconds each request waits before it is answered,
        as a distant endpoint's first byte does (0: none)."""
        from moto.moto_server.threaded_moto_server import MotoRequestHandler
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
        from werkzeug.serving import make_server

        self._lock = threading.Lock()
        self.latency = latency
        #: Requests answered, in the order they ended.
        self.requests: list[Request] = []
        #: ``(method, path)`` of every request, as it arrived.
        self.started: list[tuple[str, str]] = []
        class Quiet(MotoRequestHandler):  # type: ignore[misc]
            def log_request(self, *args: Any) -> None:
                pass

        app = DomainDispatcherApplication(create_backend_app)
        self._server = make_server("127.0.0.1", 0, self._counting(app), threaded=True,
                                   request_handler=Quiet)
        self.url = f"http://127.0.0.1:{self._server.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> S3Server:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join()

    def environment(self) -> dict[str, str]:
        """What a client (boto3, s3fs, the object_store crate) needs to
        reach this server with test credentials."""
        return {
            "AWS_ENDPOINT_URL": self.url,
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_REGION": "us-east-1",
            # The object_store crate refuses plain HTTP unless told.
            "AWS_ALLOW_HTTP": "true",
        }

    def _counting(self, app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterator[bytes]]:
        def counted(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterator[bytes]:
            status: list[int] = []

            def start(code: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
                status.append(int(code.split()[0]))
                return start_response(code, headers, *rest)

            with self._lock:
                self.started.append((environ["REQUEST_METHOD"], unquote(environ.get("PATH_INFO", ""))))
            sent = 0
            if self.latency:
                time.sleep(self.latency)
            body = app(environ, start)
            try:
                for chunk in body:
                    sent += len(chunk)
                    yield chunk
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()
                request = Request(environ["REQUEST_METHOD"], unquote(environ.get("PATH_INFO", "")),
                                  environ.get("HTTP_HOST", ""), environ.get("HTTP_RANGE", ""),
                                  status[0] if status else 0, sent)
                with self._lock:
                    self.requests.append(request)

        return counted

    def reset(self) -> None:
        """Forgets the requests answered so far."""
        with self._lock:
            self.requests.clear()
            self.started.clear()

    def fetched(self, bucket: str, key_prefix: str = "") -> int:
        """Bytes of object data sent in answer to GET requests for keys of
        ``bucket`` starting with ``key_prefix``."""
        return sum(r.sent for r in self.gets(bucket, key_prefix))

    def gets(self, bucket: str, key_prefix: str = "") -> list[Request]:
        """The GET requests for objects of ``bucket`` whose key starts with
        ``key_prefix`` (listings, which have no key, are left out)."""
        with self._lock:
            requests = list(self.requests)
        found = []
        for r in requests:
            if r.method != "GET":
                continue
            if r.host.startswith(f"{bucket}."):
                key = r.path.lstrip("/")
            elif r.path.startswith(f"/{bucket}/"):
                key = r.path[len(bucket) + 2:]
            else:
                continue
            if key and key.startswith(key_prefix):
                found.append(r)
        return found
