"""The probe's server: a daemon thread on a private Unix socket that answers viewers' requests from a backend.

It never harms the job it lives in: every failure of its own is logged once and swallowed, it does nothing between
requests (its threads block on their sockets), and a viewer that misbehaves, stops reading or disconnects loses its
own connection and nothing else. Locks: no lock is ever held across a send to a viewer; the job's own thread (an OOM
in the backend) takes only the OOM lock, which no viewer's thread takes, so it never waits on a viewer. Viewers'
snapshots are built in shared rounds spaced to leave the job at least 90 % of its time (shared_builds.py).
"""

from __future__ import annotations

import collections
import contextlib
import os
import pickle
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from gpumem_gui.probe import wire
from gpumem_gui.probe.job_place import RECORDED_WITH, job_place, oom_file_name
from gpumem_gui.probe.shared_builds import BUILD_SHARE, SharedBuilds

MAX_CONNECTIONS = 8  # viewers' connections that have made a request
MAX_PENDING = 32  # connections yet to send their first request; the oldest goes when one more arrives
MAX_MARKS = 10_000
MAX_OOM_FILES = 20  # per process: a job that catches OOMs in a loop must not fill the disk
FIRST_REQUEST_S = 5.0  # a connection that says nothing for this long after connecting is closed
IDLE_EVICT_S = 60.0  # when all viewer places are taken, one idle this long gives its place to a newcomer
SEND_TIMEOUT_S = 30.0  # a viewer that stops reading for this long is dropped; it holds up only itself
# when all viewer places are taken, a subscriber that has left what it was sent unread this long gives its place
STALLED_READER_S = 5.0


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
        max_pending: int = MAX_PENDING,
        first_request_s: float = FIRST_REQUEST_S,
        idle_evict_s: float = IDLE_EVICT_S,
        send_timeout_s: float = SEND_TIMEOUT_S,
        stalled_reader_s: float = STALLED_READER_S,
        build_share: float = BUILD_SHARE,
    ) -> None:
        self.backend = backend
        self.directory = directory
        self.oom_dir = oom_dir
        self.peer_uid = peer_uid  # injectable so the refusal of another uid can be tested without a second user
        self.max_connections = max_connections
        self.max_pending = max_pending
        self.first_request_s = first_request_s
        self.idle_evict_s = idle_evict_s
        self.send_timeout_s = send_timeout_s
        self.stalled_reader_s = stalled_reader_s
        self.log = _Log()
        self.path: Path | None = None
        self.started_at = time.time()
        self._listener: socket.socket | None = None
        self._thread: threading.Thread | None = None
        # connections by state, with the monotonic time of their last request (pending: of their arrival);
        # _lock guards these only and is never held across I/O
        self._pending: dict[socket.socket, float] = {}
        self._viewers: dict[socket.socket, float] = {}
        self._subscribers: dict[socket.socket, float] = {}  # with the time of the last send to each
        self._lock = threading.Lock()
        # viewers' snapshots: one build at a time (the memory of one object graph), shared by the requests that
        # wait for it and spaced to leave the job its time; only viewers' threads wait there, never across a send
        self.builds = SharedBuilds(self._snapshot_bytes, build_share)
        self._oom_lock = threading.Lock()  # the job's threads only: OOM captures one at a time
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
        if len(os.fsencode(path)) > wire.SOCKET_PATH_MAX:
            raise OSError(f"socket path {path} is {len(os.fsencode(path))} bytes, over the {wire.SOCKET_PATH_MAX} "
                          "a socket address holds: give a shorter socket folder")  # fmt: skip
        if path.exists() or path.is_symlink():
            path.unlink()  # left by a process of ours that had this pid and died without cleaning up
        # a short staging name, no longer than the final one, so that the length check above covers both
        staging = path.with_name(f".{os.getpid()}.{threading.get_ident() % 10**6}")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            old_umask = os.umask(0o177)  # the socket is born 0600: no window in which others could connect
            try:
                listener.bind(str(staging))
            finally:
                os.umask(old_umask)
            os.chmod(staging, 0o600)
            listener.listen(self.max_connections + self.max_pending)
            staging.replace(path)  # it appears under its name only once it accepts connections
        except BaseException:
            listener.close()  # a failed start leaves neither a descriptor nor a file behind
            with contextlib.suppress(OSError):
                staging.unlink()
            raise
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
            connections = [*self._pending, *self._viewers]
        for conn in connections:
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
            except (wire.PeerRefused, OSError) as exc:
                self.refused += 1
                self.log(str(exc))
                self._send_quietly(conn, wire.refusal_of(exc))
                conn.close()
                continue
            with self._lock:
                # silent connections cannot crowd out a viewer: the one that has waited longest makes room
                oldest = None
                if len(self._pending) >= self.max_pending:
                    oldest = min(self._pending, key=self._pending.__getitem__)
                    del self._pending[oldest]
                self._pending[conn] = time.monotonic()
            if oldest is not None:
                self._hang_up(oldest)
            threading.Thread(target=self._serve, args=(conn,), name="gpumem-gui-probe-conn", daemon=True).start()

    @staticmethod
    def _hang_up(conn: socket.socket) -> None:
        """End a connection from another thread: its own thread, blocked in recv, sees the end and cleans up."""
        with contextlib.suppress(OSError):
            conn.shutdown(socket.SHUT_RDWR)

    def _send_quietly(self, conn: socket.socket, message: dict[str, Any]) -> None:
        try:
            conn.settimeout(1.0)
            conn.sendall(wire.encode_json(message))
        except OSError:
            pass

    def _admit(self, conn: socket.socket) -> bool:
        """Move a connection that made its first request from pending to viewers, if there is a place."""
        now = time.monotonic()
        evicted = None
        with self._lock:
            self._pending.pop(conn, None)
            if len(self._viewers) >= self.max_connections:
                idle = [c for c in self._viewers if c not in self._subscribers]
                stalest = min(idle, key=self._viewers.__getitem__, default=None)
                if stalest is not None and now - self._viewers[stalest] >= self.idle_evict_s:
                    evicted, why = stalest, f"a viewer idle for {self.idle_evict_s:g} s"
                else:
                    # a subscriber waits quietly for events as long as it likes, but one that leaves them unread
                    # has stopped reading (the ioctl below does not block: it counts bytes, reads none)
                    evicted = next((c for c, sent in self._subscribers.items()
                                    if now - sent >= self.stalled_reader_s and _unread(c)), None)  # fmt: skip
                    why = f"a subscriber that read nothing for {self.stalled_reader_s:g} s"
                if evicted is None:
                    return False
                del self._viewers[evicted]
                self._subscribers.pop(evicted, None)
            self._viewers[conn] = now
        if evicted is not None:
            self.log(f"{why} gave its place to a new one")
            self._hang_up(evicted)
        return True

    def _serve(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(self.first_request_s)
            request = self._read_request(conn)
            if request is None:
                return
            if not self._admit(conn):
                self._send_quietly(conn, wire.refusal(wire.TOO_MANY_VIEWERS))
                return
            while not self._stopping:
                if request.get("op") == "subscribe":
                    with self._lock:
                        self._subscribers[conn] = time.monotonic()
                    self._stream_events(conn, request)
                    return
                conn.settimeout(self.send_timeout_s)
                self._answer(conn, request)
                conn.settimeout(None)  # a viewer may stay attached and quiet for as long as it likes
                request = self._read_request(conn)
                if request is None:
                    return
                with self._lock:
                    if conn in self._viewers:
                        self._viewers[conn] = time.monotonic()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the viewer left in the middle of a reply: nothing to undo, nothing to report
        except TimeoutError:
            self.log(f"dropped a viewer that read nothing for {self.send_timeout_s:g} s")
        except Exception as exc:
            self.log(f"connection ended by {type(exc).__name__}: {exc}")
        finally:
            with self._lock:
                self._pending.pop(conn, None)
                self._viewers.pop(conn, None)
                self._subscribers.pop(conn, None)
            with contextlib.suppress(OSError):
                conn.close()

    def _read_request(self, conn: socket.socket) -> dict[str, Any] | None:
        """The next request, or None when the connection is to end (it left, timed out or sent garbage)."""
        try:
            return wire.read_json(conn, max_json=wire.MAX_REQUEST)
        except wire.ProtocolError as exc:
            self.log(f"closed a connection: {exc}")
            self._send_quietly(conn, {"ok": False, "error": str(exc)})
        except TimeoutError:
            self.log(f"closed a connection that sent no request in {self.first_request_s:g} s")
        except (EOFError, OSError):
            pass  # the viewer left, mid-transfer or not: nothing to undo
        return None

    def _answer(self, conn: socket.socket, request: dict[str, Any]) -> None:
        op = request.get("op")
        reply: dict[str, Any] = {"ok": True, "op": op}
        if "id" in request:
            reply["id"] = request["id"]
        data = b""
        try:
            if op == "snapshot":
                include_traces = request.get("include_traces", True)
                if not isinstance(include_traces, bool):
                    raise RequestError("include_traces must be true or false")
                data = self.builds.get(include_traces)
                reply["bytes"] = len(data)
            else:
                reply.update(self._handle(op, request))
        except RequestError as exc:
            reply.update(ok=False, error=str(exc))
        except Exception as exc:
            self.log(f"{op} failed: {type(exc).__name__}: {exc}")
            reply.update(wire.refusal(wire.OP_FAILED, op=op, error=f"{type(exc).__name__}: {exc}"))
        if op == "snapshot" and reply["ok"]:
            # sent with no lock held: a viewer that stops reading holds up its own connection and nothing else
            conn.sendall(wire.encode_json(reply) + wire.encode_bytes_header(len(data)))
            conn.sendall(data)
        else:
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
            place = job_place()
            hello.update(job=place, rank=place.get("RANK"))  # a viewer behind an SSH forward cannot read our env
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
            if not isinstance(enabled, bool):
                raise RequestError("history needs enabled: true or false")
            if max_entries is not None and (
                isinstance(max_entries, bool)  # JSON true is not 1 entry
                or not isinstance(max_entries, int)
                or not 0 < max_entries <= wire.MAX_HISTORY_ENTRIES
            ):
                raise RequestError(f"max_entries must be a whole number from 1 to {wire.MAX_HISTORY_ENTRIES:,}")
            if stacks is not None and (not isinstance(stacks, str) or stacks not in ("python", "all", "none")):
                raise RequestError("stacks must be python, all or none")
            return self.backend.history(enabled, max_entries, stacks)
        raise RequestError(f"unknown request {op!r}")

    def snapshot_dict(self, include_traces: bool) -> dict[str, Any]:
        snap = self.backend.snapshot(include_traces)
        if self._marks:
            snap = dict(snap)
            snap["external_annotations"] = list(snap.get("external_annotations") or []) + list(self._marks)
        place = job_place()
        if place:  # the rank travels inside the file: `ranks` places it whatever the file is named
            snap = dict(snap)
            recorded = snap.get(RECORDED_WITH)
            snap[RECORDED_WITH] = {**(recorded if isinstance(recorded, dict) else {}), "job": place}
        return snap

    def _snapshot_bytes(self, include_traces: bool) -> bytes:
        return pickle.dumps(self.snapshot_dict(include_traces), protocol=4)

    # -- events (an OOM) -------------------------------------------------------------------------------------

    def _stream_events(self, conn: socket.socket, request: dict[str, Any]) -> None:
        """This connection now only receives events; it ends when the viewer closes it or the probe stops."""
        conn.settimeout(self.send_timeout_s)
        # counted before the reply: an event the viewer causes once it reads the reply must not count as earlier
        seen = self._event_count  # events from before the subscription are in stats' last_oom, not replayed
        conn.sendall(wire.encode_json({"ok": True, "op": "subscribe", "id": request.get("id")}))
        while not self._stopping:
            with self._events:
                if self._event_count == seen:
                    self._events.wait(timeout=min(5.0, self.send_timeout_s / 2))
                missed = self._event_count - seen
                fresh = list(self._event_log)[-missed:] if missed else []
                seen = self._event_count
            for event in fresh:  # sent once the condition is released: the job's _publish never waits on this
                conn.sendall(wire.encode_json(event))
            with self._lock:
                if fresh and conn in self._subscribers:
                    self._subscribers[conn] = time.monotonic()
                sent = self._subscribers.get(conn, 0.0)
            if fresh:
                continue
            if not self._alive(conn):
                return
            if time.monotonic() - sent >= self.send_timeout_s and _unread(conn):
                # what a snapshot's send would meet: the events are small, so it is the bytes left unread
                raise TimeoutError

    def _alive(self, conn: socket.socket) -> bool:
        try:
            conn.setblocking(False)
            try:
                return conn.recv(1, socket.MSG_PEEK) != b""
            except BlockingIOError:
                return True
            finally:
                conn.setblocking(True)
                conn.settimeout(self.send_timeout_s)
        except OSError:
            return False

    def _publish(self, event: dict[str, Any]) -> None:
        with self._events:
            self._event_log.append(event)
            self._event_count += 1
            self._events.notify_all()

    def _on_oom(self, info: dict[str, Any]) -> None:
        """Called by the backend at the moment of an out-of-memory error, in the job's thread that hit it. It
        takes no lock a viewer's thread takes, so no viewer can make the job wait here."""
        try:
            with self._oom_lock:
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
        path = self.oom_dir / oom_file_name(os.getpid(), stamp, self.oom_count, job_place())
        snap = self.snapshot_dict(True)
        tmp = path.with_suffix(".part")
        with tmp.open("wb") as f:
            pickle.dump(snap, f, protocol=4)  # streamed to the file: the job never holds the pickle's bytes
        tmp.replace(path)  # a viewer never opens half a file
        self.log(f"out of memory: snapshot written to {path}")
        return path


def _unread(conn: socket.socket) -> int:
    """Bytes sent on `conn` that its peer has not read yet (Linux's SIOCOUTQ); 0 where the system does not say."""
    try:
        import fcntl  # noqa: PLC0415 (POSIX only)
        import termios  # noqa: PLC0415

        queued = fcntl.ioctl(conn.fileno(), termios.TIOCOUTQ, b"\0" * 4)
    except (ImportError, AttributeError, OSError, ValueError):
        return 0
    return int(struct.unpack("i", queued)[0])
