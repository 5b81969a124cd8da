"""The probe's server: a daemon thread on a private Unix socket that answers viewers' requests from a backend.

It never harms the job it lives in: every failure of its own is logged once and swallowed, it does nothing between
requests (its threads block on their sockets), it keeps at most one snapshot's bytes at a time, and a viewer that
misbehaves or disconnects loses its own connection and nothing else.
"""

from __future__ import annotations

import collections
import contextlib
import os
import pickle
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from gpumem_gui.probe import wire

MAX_CONNECTIONS = 8
MAX_MARKS = 10_000
MAX_OOM_FILES = 20  # per process: a job that catches OOMs in a loop must not fill the disk
SEND_TIMEOUT_S = 30.0  # a viewer that stops reading for this long is dropped rather than waited for


class ProbeBackend(Protocol):
    """Where the allocator's figures come from: real torch, or the simulator of the demo job."""

    name: str

    def start(self, on_oom: Callable[[dict[str, Any]], None]) -> None: ...
    def hello(self) -> dict[str, Any]: ...
    def stats(self) -> dict[str, Any]: ...
    def snapshot(self, include_traces: bool) -> dict[str, Any]: ...
    def history(self, enabled: bool, max_entries: int | None, stacks: str | None) -> dict[str, Any]: ...


class RequestError(Exception):
    """A request the probe cannot serve; the viewer gets the message, the connection stays open."""


class _Log:
    """Each distinct message once, to stderr, prefixed: a probe must not flood the job's log."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.lock = threading.Lock()

    def __call__(self, message: str) -> None:
        with self.lock:
            if message in self.seen or len(self.seen) > 1000:
                return
            self.seen.add(message)
        with contextlib.suppress(Exception):
            print(f"gpumem-gui probe: {message}", file=sys.stderr, flush=True)


class ProbeServer:
    def __init__(
        self,
        backend: ProbeBackend,
        *,
        directory: Path | None = None,
        oom_dir: Path | None = None,
        peer_uid: Callable[[socket.socket], int] = wire.peer_uid,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        self.backend = backend
        self.directory = directory
        self.oom_dir = oom_dir
        self.peer_uid = peer_uid  # injectable so the refusal of another uid can be tested without a second user
        self.max_connections = max_connections
        self.log = _Log()
        self.path: Path | None = None
        self.started_at = time.time()
        self._listener: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._connections: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._snapshot_lock = threading.Lock()  # one snapshot's bytes in memory at a time
        self._events = threading.Condition()
        self._event_log: collections.deque[dict[str, Any]] = collections.deque(maxlen=100)
        self._event_count = 0
        self._marks: collections.deque[dict[str, Any]] = collections.deque(maxlen=MAX_MARKS)
        self.oom_count = 0
        self.last_oom: dict[str, Any] | None = None
        self.refused = 0
        self._stopping = False

    # -- life ------------------------------------------------------------------------------------------------

    def start(self) -> Path:
        directory = self.directory or wire.socket_dir(create=True)
        wire.check_private_dir(directory)
        path = wire.socket_path(os.getpid(), directory)
        if path.exists() or path.is_symlink():
            path.unlink()  # left by a process of ours that had this pid and died without cleaning up
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        staging = path.with_name(f".{path.name}.{threading.get_ident()}")
        old_umask = os.umask(0o177)  # the socket is born 0600: no window in which others could connect
        try:
            listener.bind(str(staging))
        finally:
            os.umask(old_umask)
        os.chmod(staging, 0o600)
        listener.listen(self.max_connections)
        staging.replace(path)  # it appears under its name only once it accepts connections
        self._listener, self.path = listener, path
        try:
            self.backend.start(self._on_oom)
        except Exception as exc:
            self.log(f"backend did not start fully ({type(exc).__name__}: {exc}); serving what it has")
        self._thread = threading.Thread(target=self._accept_loop, name="gpumem-gui-probe", daemon=True)
        self._thread.start()
        return path

    def stop(self) -> None:
        self._stopping = True
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
            listener.close()
        with self._lock:
            for conn in list(self._connections):
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)
        with self._events:
            self._events.notify_all()
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    # -- connections -----------------------------------------------------------------------------------------

    def _accept_loop(self) -> None:
        while not self._stopping and self._listener is not None:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                if self._stopping:
                    return
                time.sleep(0.1)  # e.g. EMFILE: wait rather than spin
                continue
            try:
                uid = self.peer_uid(conn)
                wire.check_peer(uid)
            except wire.PeerRefused as exc:
                self.refused += 1
                self.log(str(exc))
                self._send_quietly(conn, {"ok": False, "error": str(exc)})
                conn.close()
                continue
            with self._lock:
                if len(self._connections) >= self.max_connections:
                    self._send_quietly(conn, {"ok": False, "error": "too many viewers attached"})
                    conn.close()
                    continue
                self._connections.add(conn)
            threading.Thread(target=self._serve, args=(conn,), name="gpumem-gui-probe-conn", daemon=True).start()

    def _send_quietly(self, conn: socket.socket, message: dict[str, Any]) -> None:
        try:
            conn.settimeout(1.0)
            conn.sendall(wire.encode_json(message))
        except OSError:
            pass

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(None)
        try:
            while not self._stopping:
                try:
                    request = wire.read_json(conn, max_json=wire.MAX_REQUEST)
                except wire.ProtocolError as exc:
                    self.log(f"closed a connection: {exc}")
                    self._send_quietly(conn, {"ok": False, "error": str(exc)})
                    return
                except (EOFError, OSError):
                    return  # the viewer left, mid-transfer or not: nothing to undo
                if request.get("op") == "subscribe":
                    self._stream_events(conn, request)
                    return
                conn.settimeout(SEND_TIMEOUT_S)
                self._answer(conn, request)
                conn.settimeout(None)
        except Exception as exc:
            self.log(f"connection ended by {type(exc).__name__}: {exc}")
        finally:
            with self._lock:
                self._connections.discard(conn)
            with contextlib.suppress(OSError):
                conn.close()

    def _answer(self, conn: socket.socket, request: dict[str, Any]) -> None:
        op = request.get("op")
        reply: dict[str, Any] = {"ok": True, "op": op}
        if "id" in request:
            reply["id"] = request["id"]
        try:
            if op == "snapshot":
                self._send_snapshot(conn, reply, bool(request.get("include_traces", True)))
                return
            reply.update(self._handle(op, request))
        except RequestError as exc:
            reply.update(ok=False, error=str(exc))
        except Exception as exc:
            self.log(f"{op} failed: {type(exc).__name__}: {exc}")
            reply.update(ok=False, error=f"{op} failed in the probe: {type(exc).__name__}: {exc}")
        conn.sendall(wire.encode_json(reply))

    def _handle(self, op: object, request: dict[str, Any]) -> dict[str, Any]:
        if op == "hello":
            hello = self.backend.hello()
            hello.update(
                probe_protocol=wire.VERSION,
                backend=self.backend.name,
                socket=str(self.path),
                oom_dir=str(self.oom_dir) if self.oom_dir else None,
                started_at=self.started_at,
                oom_count=self.oom_count,
            )
            return hello
        if op == "stats":
            stats = self.backend.stats()
            stats.update(time=time.time(), oom_count=self.oom_count, last_oom=self.last_oom)
            return stats
        if op == "mark":
            name = request.get("name")
            if not isinstance(name, str) or not name or len(name) > 200:
                raise RequestError("mark needs a name of 1 to 200 characters")
            now_us = time.time_ns() // 1000
            for stage in ("START", "END"):  # a zero-length range: how a record_function mark reads in a trace
                self._marks.append({"name": name, "stage": stage, "time_us": now_us, "device": -1})
            return {"time_us": now_us}
        if op == "history":
            enabled = request.get("enabled", True)
            max_entries = request.get("max_entries")
            stacks = request.get("stacks")
            if not isinstance(enabled, bool) or not (max_entries is None or isinstance(max_entries, int)):
                raise RequestError("history needs enabled: bool and max_entries: int")
            if max_entries is not None and max_entries <= 0:
                raise RequestError("max_entries must be positive")
            if stacks not in (None, "python", "all", "none"):
                raise RequestError("stacks must be python, all or none")
            return self.backend.history(enabled, max_entries, stacks)
        raise RequestError(f"unknown request {op!r}")

    def snapshot_dict(self, include_traces: bool) -> dict[str, Any]:
        snap = self.backend.snapshot(include_traces)
        if self._marks:
            snap = dict(snap)
            snap["external_annotations"] = list(snap.get("external_annotations") or []) + list(self._marks)
        return snap

    def _send_snapshot(self, conn: socket.socket, reply: dict[str, Any], include_traces: bool) -> None:
        with self._snapshot_lock:
            try:
                data = pickle.dumps(self.snapshot_dict(include_traces), protocol=4)
            except RequestError as exc:
                reply.update(ok=False, error=str(exc))
                conn.sendall(wire.encode_json(reply))
                return
            except Exception as exc:
                self.log(f"snapshot failed: {type(exc).__name__}: {exc}")
                reply.update(ok=False, error=f"snapshot failed in the probe: {type(exc).__name__}: {exc}")
                conn.sendall(wire.encode_json(reply))
                return
            reply["bytes"] = len(data)
            conn.sendall(wire.encode_json(reply) + wire.encode_bytes_header(len(data)))
            conn.sendall(data)
            del data

    # -- events (an OOM) -------------------------------------------------------------------------------------

    def _stream_events(self, conn: socket.socket, request: dict[str, Any]) -> None:
        """This connection now only receives events; it ends when the viewer closes it or the probe stops."""
        conn.settimeout(SEND_TIMEOUT_S)
        # counted before the reply: an event the viewer causes once it reads the reply must not count as earlier
        seen = self._event_count  # events from before the subscription are in stats' last_oom, not replayed
        conn.sendall(wire.encode_json({"ok": True, "op": "subscribe", "id": request.get("id")}))
        while not self._stopping:
            with self._events:
                if self._event_count == seen:
                    self._events.wait(timeout=5.0)
                missed = self._event_count - seen
                fresh = list(self._event_log)[-missed:] if missed else []
                seen = self._event_count
            for event in fresh:
                conn.sendall(wire.encode_json(event))
            if not fresh and not self._alive(conn):
                return

    @staticmethod
    def _alive(conn: socket.socket) -> bool:
        try:
            conn.setblocking(False)
            try:
                return conn.recv(1, socket.MSG_PEEK) != b""
            except BlockingIOError:
                return True
            finally:
                conn.setblocking(True)
                conn.settimeout(SEND_TIMEOUT_S)
        except OSError:
            return False

    def _publish(self, event: dict[str, Any]) -> None:
        with self._events:
            self._event_log.append(event)
            self._event_count += 1
            self._events.notify_all()

    def _on_oom(self, info: dict[str, Any]) -> None:
        """Called by the backend at the moment of an out-of-memory error, in the thread that hit it."""
        try:
            self.oom_count += 1
            event: dict[str, Any] = {"event": "oom", "time": time.time(), "count": self.oom_count, **info}
            if self.oom_dir is not None and self.oom_count <= MAX_OOM_FILES:
                event["path"] = str(self._write_oom_snapshot())
            elif self.oom_dir is not None:
                self.log(f"{MAX_OOM_FILES} OOM snapshots written; later OOMs are reported without one")
            self.last_oom = event
            self._publish(event)
        except Exception as exc:
            self.log(f"could not capture the OOM: {type(exc).__name__}: {exc}")

    def _write_oom_snapshot(self) -> Path:
        assert self.oom_dir is not None
        self.oom_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.oom_dir / f"oom-{os.getpid()}-{stamp}-{self.oom_count}.pickle"
        with self._snapshot_lock:
            snap = self.snapshot_dict(True)
            tmp = path.with_suffix(".part")
            with tmp.open("wb") as f:
                pickle.dump(snap, f, protocol=4)
            tmp.replace(path)  # a viewer never opens half a file
        self.log(f"out of memory: snapshot written to {path}")
        return path
