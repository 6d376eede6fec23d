"""The parent's end of :mod:`isolate.forkserver` (runs in isolate's own process).

Kept apart from the server module, which runs inside the test interpreter and must stay lean.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from isolate.errors import UserError


def kill_group(pid: int | None) -> None:
    """SIGKILL a whole process group; a group already gone is fine."""
    if pid is None:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class ForkClient:
    """The parent's end of :mod:`isolate.forkserver`: start it, submit jobs, read events."""

    def __init__(self, socket_path: Path, start: Callable[[], subprocess.Popen[bytes]],
                 output: Path, limit: float | None) -> None:
        """Listen on ``socket_path``, ``start()`` the server, wait ``limit`` s for it to call."""
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(socket_path))
        listener.listen(1)
        self.output = output
        self.process = start()
        self.alive = True
        self._buffer = b""
        try:
            self.sock = self._accept(listener, limit)
        finally:
            listener.close()
        self._read_line(limit)  # {"ready": pid}

    def _accept(self, listener: socket.socket, limit: float | None) -> socket.socket:
        pidfd = os.pidfd_open(self.process.pid)
        try:
            with selectors.DefaultSelector() as sel:
                sel.register(listener, selectors.EVENT_READ)
                sel.register(pidfd, selectors.EVENT_READ)
                events = sel.select(limit)
        finally:
            os.close(pidfd)
        if any(key.fileobj is listener for key, _ in events):
            return listener.accept()[0]
        detail = self.close()
        raise UserError(
            f"the fork server did not start{detail}; fix: check the project's test command "
            "starts, or run without the fork server"
        )

    def _read_line(self, limit: float | None) -> dict[str, Any]:
        self.sock.settimeout(limit)
        while b"\n" not in self._buffer:
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                data = b""
            if not data:
                detail = self.close()
                raise UserError(f"the fork server did not start{detail}; fix: check the "
                                "project's test command starts, or run without the fork server")
            self._buffer += data
        self.sock.settimeout(None)
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)

    def submit(self, key: int, list_file: Path, jobdir: Path, discover_all: bool) -> None:
        """Ask the server to run ``list_file`` as job ``key`` inside ``jobdir``."""
        request = {
            "job": key, "list": str(list_file), "stream": str(jobdir / "stream.subunit"),
            "error_file": str(jobdir / "error.txt"), "output": str(jobdir / "output.txt"),
            "tmpdir": str(jobdir / "tmp"), "discover_all": discover_all,
        }
        try:
            self.sock.sendall(json.dumps(request).encode() + b"\n")
        except OSError:
            self.alive = False  # reported as EOF by the next read

    def kill(self, key: int) -> None:
        """Ask the server to kill job ``key``'s process group (if it is still running)."""
        try:
            self.sock.sendall(json.dumps({"kill": key}).encode() + b"\n")
        except OSError:
            self.alive = False

    def read(self) -> list[dict[str, Any]] | None:
        """The messages that arrived (the socket was readable); None once the server is gone."""
        try:
            data = self.sock.recv(65536)
        except OSError:
            data = b""
        if not data:
            self.alive = False
            return None
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        return [json.loads(line) for line in lines if line]

    def close(self) -> str:
        """Stop the server (EOF, then kill) and say how it ended, for messages."""
        self.alive = False
        try:
            self.sock.close()
        except AttributeError:
            pass
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        kill_group(self.process.pid)
        code = self.process.wait()
        try:
            lines = [l for l in self.output.read_text(errors="replace").splitlines() if l.strip()]
        except OSError:
            lines = []
        last = f", last output: {lines[-1].strip()[:200]}" if lines else ""
        return f" (exit status {code}{last})"
