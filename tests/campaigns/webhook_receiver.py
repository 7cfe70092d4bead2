"""A local HTTP receiver for the webhook tests: `http.server` in a thread on 127.0.0.1, never the
internet. It keeps the JSON bodies it is posted and answers the statuses it is told."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class Receiver:
    def __init__(self) -> None:
        self.bodies: list[dict] = []
        self.statuses: list[int] = []  # answered in order; 204 once they run out
        self.hold = threading.Event()  # set: answer at once; cleared: wait for it first
        self.hold.set()
        self.got = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                receiver.hold.wait(timeout=10)
                with receiver.got:
                    receiver.bodies.append(body)
                    status = receiver.statuses.pop(0) if receiver.statuses else 204
                    receiver.got.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def texts(self) -> list[str]:
        return [body["content"] for body in self.bodies]

    def wait_for(self, count: int, timeout: float = 10.0) -> list[str]:
        """The texts, once at least `count` have come (or the timeout passed)."""
        with self.got:
            self.got.wait_for(lambda: len(self.bodies) >= count, timeout=timeout)
        return self.texts


@pytest.fixture
def receiver():
    server = Receiver()
    server.thread.start()
    yield server
    server.hold.set()
    server.server.shutdown()
    server.server.server_close()
