"""bin/web run by the tests: started in a process group of its own, waited for until /healthz
answers 200, stopped with SIGTERM as a supervisor (docker, a terminal) stops it."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.altherion.test_deploy import BASE_DIR, http_get

WEB = BASE_DIR / "bin" / "web"


def collect_static(env: dict[str, str], timeout: float = 300) -> None:
    """collectstatic into `env`'s STATIC_ROOT: with DEBUG off pages name the manifest's files (the
    image collects them when it is built)."""
    collect = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert collect.returncode == 0, collect.stderr


def start(env: dict[str, str], log: Path) -> subprocess.Popen:
    """bin/web in a new session: its pid is gunicorn's master (bin/web execs it), and the
    process group of that pid holds the master and every worker."""
    with log.open("w") as output:
        return subprocess.Popen(
            [str(WEB)],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_until_healthy(
    process: subprocess.Popen, port: int, log: Path, timeout: float = 60
) -> None:
    """Return once /healthz answers 200; fail with the server's log if it exits or never does."""
    deadline = time.monotonic() + timeout
    while True:
        assert process.poll() is None, f"bin/web exited:\n{log.read_text()}"
        assert time.monotonic() < deadline, (
            f"no 200 from /healthz in {timeout} s:\n{log.read_text()}"
        )
        try:
            if http_get(port, "/healthz").status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)


def stop(process: subprocess.Popen, timeout: float = 15) -> None:
    """SIGTERM to the master; whatever of its group is left after `timeout` is killed."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=timeout)
    if living(group(process.pid)):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=timeout)


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, process group) of a process, None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # "pid (command) state ppid pgrp …": the command may hold spaces and parentheses.
    state, ppid, pgrp = stat.rsplit(")", 1)[1].split()[:3]
    return state, int(ppid), int(pgrp)


def _processes() -> dict[int, tuple[str, int, int]]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))):
            found[int(entry)] = stat
    return found


def children(pid: int) -> set[int]:
    """The living processes whose parent is `pid` (gunicorn's workers, for its master)."""
    return {
        child for child, (state, ppid, _) in _processes().items() if ppid == pid and state != "Z"
    }


def group(pgid: int) -> set[int]:
    """Every process of the process group `pgid`."""
    return {pid for pid, (_, _, pgrp) in _processes().items() if pgrp == pgid}


def living(pids: set[int]) -> set[int]:
    """Those of `pids` still running: a zombie (exited, not yet reaped) has ended."""
    return {pid for pid in pids if (stat := _stat(pid)) and stat[0] != "Z"}
