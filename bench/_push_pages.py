"""bench/push.py's emulated pages: each an HTTP/1.1 GET of a page's event stream, read as a
browser's EventSource reads it, the arrival of each chunk noted before it is parsed; spread over
forked client processes, each measuring its own event loop's lag."""

from __future__ import annotations

import asyncio
import contextlib
import time

OPENING = 64  # streams each client process opens at once (a page load's burst, not 2,000)


class Page:
    """One open page's stream, read as a browser's EventSource reads it."""

    def __init__(self, index: int, campaign: int, cookie: str):
        self.index, self.campaign, self.cookie = index, campaign, cookie
        self.arrivals: list[tuple[int, float]] = []  # (event id, time.time() of its chunk)
        self.opened = False
        self.dropped = False
        self.error = ""

    async def hold(self, port: int, after: int, gate: asyncio.Semaphore, stop: asyncio.Event):
        await gate.acquire()
        released = False
        writer = stopping = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(
                (
                    f"GET /campaigns/{self.campaign}/live/?after={after} HTTP/1.1\r\n"
                    "Host: 127.0.0.1\r\n"
                    "Accept: text/event-stream\r\n"
                    "Cache-Control: no-cache\r\n"
                    f"Cookie: sessionid={self.cookie}\r\n\r\n"
                ).encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            status = head.split(b" ", 2)[1]
            if status != b"200":
                self.error = f"HTTP {status.decode()}"
                return
            chunked = b"transfer-encoding: chunked" in head.lower()
            raw, text = b"", ""
            reading = asyncio.ensure_future(reader.read(65536))
            stopping = asyncio.ensure_future(stop.wait())
            while True:
                await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
                if not reading.done():
                    reading.cancel()
                    return
                data = reading.result()
                arrived = time.time()  # as soon as the chunk is read, before any parsing
                if not data:
                    self.dropped = not stop.is_set()
                    return
                raw += data
                body, raw = dechunk(raw) if chunked else (raw, b"")
                text += body.decode()
                *events, text = text.split("\n\n")
                for event in events:
                    self.read_event(event, arrived)
                if self.opened and not released:
                    gate.release()
                    released = True
                reading = asyncio.ensure_future(reader.read(65536))
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            self.error = f"{type(error).__name__}: {error}"
        finally:
            if stopping is not None:
                stopping.cancel()
            if not released:
                gate.release()
            if writer is not None:
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()

    def read_event(self, event: str, arrived: float) -> None:
        fields: dict[str, str] = {}
        for line in event.split("\n"):
            if line.startswith("retry:"):
                self.opened = True
            elif not line.startswith(":") and ": " in line:
                name, value = line.split(": ", 1)
                fields.setdefault(name, value)  # `data:` lines after the first: the row's HTML
        if fields.get("event") == "row" and "id" in fields:
            self.arrivals.append((int(fields["id"]), arrived))


def dechunk(raw: bytes) -> tuple[bytes, bytes]:
    """(the body of the complete chunks at the start of `raw`, what is left of it)."""
    body = bytearray()
    while True:
        end = raw.find(b"\r\n")
        if end < 0:
            return bytes(body), raw
        size = int(raw[:end].split(b";")[0], 16)
        if len(raw) < end + 2 + size + 2:
            return bytes(body), raw
        body += raw[end + 2 : end + 2 + size]
        raw = raw[end + 2 + size + 2 :]


async def loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    """How late a 10 ms timer fires in this process's loop: the clients' own delay."""
    while not stop.is_set():
        due = time.monotonic() + 0.01
        await asyncio.sleep(0.01)
        samples.append(time.monotonic() - due)


async def hold_pages(pages: list[Page], port: int, after: int, control) -> None:
    """Open every page's stream, say so, then keep them until told to stop (`control`: this
    end of a pipe to the bench; "count" asks how many rows arrived, "go" starts the window its
    CPU and lag are measured over, "stop" closes the pages)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    gate = asyncio.Semaphore(OPENING)
    began = time.monotonic()
    tasks = [asyncio.ensure_future(page.hold(port, after, gate, stop)) for page in pages]
    while not all(page.opened or task.done() for page, task in zip(pages, tasks, strict=True)):
        await asyncio.sleep(0.05)
    opened = sum(page.opened for page in pages)
    control.send(("opened", opened, time.monotonic() - began))
    lags: list[float] = []
    lag_stop = asyncio.Event()
    lagging = None
    cpu = 0.0
    window = 0.0
    while True:
        command = await loop.run_in_executor(None, control.recv)
        if command == "count":
            control.send(sum(len(page.arrivals) for page in pages))
        elif command == "go":
            cpu, window = time.process_time(), time.monotonic()
            lagging = asyncio.ensure_future(loop_lag(lags, lag_stop))
        elif command == "end":
            cpu, window = time.process_time() - cpu, time.monotonic() - window
            lag_stop.set()
            if lagging is not None:
                await lagging
            control.send("ok")
        elif command == "stop":
            break
    stop.set()
    await asyncio.gather(*tasks)
    control.send(
        {
            "arrivals": [(page.index, *arrival) for page in pages for arrival in page.arrivals],
            "dropped": sum(page.dropped for page in pages),
            "errors": [page.error for page in pages if page.error][:3],
            "unopened": sum(not page.opened for page in pages),
            "cpu": cpu,
            "window": window,
            "lags": lags,
        }
    )


def client_process(pages: list[Page], port: int, after: int, control) -> None:
    asyncio.run(hold_pages(pages, port, after, control))
