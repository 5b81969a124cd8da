"""The viewer's side of the probe protocol: find probes, connect, ask for stats and snapshots, listen for OOMs.

A live snapshot is a file that came over a socket: its bytes go through the same no-globals loader as files.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import psutil

from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.probe import wire
from gpumem_gui.sources.words import QT_TRANSLATE_NOOP, Sentence, as_is, error_text, rebuilt, say

CONNECT_TIMEOUT_S = 5.0
HANDSHAKE_TIMEOUT_S = 2.0  # listing probes: a socket that does not answer a hello in this time is not listed
REPLY_TIMEOUT_S = 120.0  # a snapshot of a long trace takes the probe a while to pickle
FREE_SPACE_KEPT = 256 << 20  # a snapshot stored on the way in leaves at least this much of its file system free


class ProbeError(Exception):
    """One line for the user: no probe there, the job has gone, or the probe refused a request (a Sentence, or the
    words of an older probe as they are)."""


class ProbeGone(ProbeError):
    """The connection ended: the job exited (or closed the probe)."""


@dataclass(frozen=True)
class ProbeEntry:
    pid: int
    path: Path
    command: str


NO_PROBE = QT_TRANSLATE_NOOP(
    "Probe",
    "process {pid} runs no gpumem-gui probe: start the job with `python -m gpumem_gui.probe script.py`, or add `import gpumem_gui.probe; gpumem_gui.probe.start()` to it",  # noqa: E501 (one literal: lupdate)
)
LEFT_BEHIND = QT_TRANSLATE_NOOP("Probe", "no probe answers at {path}: its job has gone and left the socket behind")
NO_CONNECTION = QT_TRANSLATE_NOOP("Probe", "cannot connect to the probe at {path}: {error}")
NO_PROCESS = QT_TRANSLATE_NOOP("Probe", "no process {pid}")
NO_ANSWER = QT_TRANSLATE_NOOP("Probe", "the probe in pid {pid} did not answer in {seconds} s")
BAD_MESSAGE = QT_TRANSLATE_NOOP("Probe", "the probe in pid {pid} sent a bad message: {error}")
BAD_SNAPSHOT = QT_TRANSLATE_NOOP("Probe", "the probe in pid {pid} sent a bad snapshot: {error}")
NOT_STORED = QT_TRANSLATE_NOOP("Probe", "cannot store the snapshot of pid {pid}: {error}")
REFUSED_CONNECTION = QT_TRANSLATE_NOOP("Probe", "the probe refused the connection")
REFUSED_REQUEST = QT_TRANSLATE_NOOP("Probe", "the probe refused the request")
GONE = QT_TRANSLATE_NOOP("Probe", "the job (pid {pid}) has gone: {error}")
GONE_IN_TRANSFER = QT_TRANSLATE_NOOP("Probe", "the job (pid {pid}) has gone during the transfer: {error}")
NO_ROOM = QT_TRANSLATE_NOOP(
    "Probe",
    "the snapshot of pid {pid} ({length} bytes) does not fit in the free space where it is stored ({free} bytes free)",
)
# what a probe says when it refuses (its words, sent over the socket with their template: the probe runs in the job,
# without these marks), and what the socket folder check says (probe/wire.py): each rebuilt here as a Sentence
PROBE_REFUSALS = (
    QT_TRANSLATE_NOOP("Probe", "too many viewers attached"),  # wire.TOO_MANY_VIEWERS
    QT_TRANSLATE_NOOP("Probe", "connection from uid {uid} refused: only uid {me} may attach"),  # wire.PEER_OTHER_USER
    QT_TRANSLATE_NOOP("Probe", "this system cannot tell who is connecting (no SO_PEERCRED)"),  # wire.PEER_UNKNOWN
    QT_TRANSLATE_NOOP("Probe", "{op} failed in the probe: {error}"),  # wire.OP_FAILED
    QT_TRANSLATE_NOOP("Probe", "socket folder {path}: cannot create it: {error}"),  # wire.DIR_NOT_MADE
    QT_TRANSLATE_NOOP("Probe", "socket folder {path}: {error}"),  # wire.DIR_UNREADABLE
    QT_TRANSLATE_NOOP("Probe", "socket folder {path} is not a directory"),  # wire.DIR_NOT_FOLDER
    QT_TRANSLATE_NOOP("Probe", "socket folder {path} belongs to another user (uid {uid})"),  # wire.DIR_OTHER_USER
    QT_TRANSLATE_NOOP(
        "Probe", "socket folder {path} is open to other users (mode {mode}); expected 0700"
    ),  # wire.DIR_OPEN
)
# every message above, each made with say(): the window says it in its language (views/common/sentences.said)
MESSAGES = (
    NO_PROBE,
    LEFT_BEHIND,
    NO_CONNECTION,
    NO_PROCESS,
    NO_ANSWER,
    BAD_MESSAGE,
    BAD_SNAPSHOT,
    NOT_STORED,
    REFUSED_CONNECTION,
    REFUSED_REQUEST,
    GONE,
    GONE_IN_TRANSFER,
    NO_ROOM,
    *PROBE_REFUSALS,
)
_KNOWN = {m.template for m in PROBE_REFUSALS}


def probe_words(template: str, fields: dict[str, object]) -> Sentence:
    """The probe's words (wire.py's template and fields) as a Sentence in the "Probe" context."""
    return rebuilt("Probe", template, fields)


def refused_with(reply: dict[str, Any], default: Sentence) -> str:
    """What a reply that refuses says: a Sentence rebuilt from its template and fields where the probe sent them
    (one of wire.py's), else its one line as it is (an older probe), else `default`."""
    words = reply.get("words")
    if isinstance(words, dict) and words.get("template") in _KNOWN and isinstance(words.get("fields"), dict):
        return probe_words(str(words["template"]), words["fields"])
    return str(reply["error"]) if "error" in reply else default


def worded(exc: BaseException) -> Sentence:
    """A wire.py refusal raised here (the socket folder, the peer) as a Sentence; any other error as it is."""
    template, fields = getattr(exc, "template", None), getattr(exc, "fields", None)
    if isinstance(template, str) and template in _KNOWN and isinstance(fields, dict):
        return probe_words(template, fields)
    return error_text(exc)


def probe_hint(pid: int) -> Sentence:
    return say(NO_PROBE, pid=as_is(pid))


def list_probes(directory: Path | None = None, *, handshake_s: float = HANDSHAKE_TIMEOUT_S) -> list[ProbeEntry]:
    """Probes of this user that answer, by pid. A socket is listed only once a hello over it is answered by the
    process its name gives: one left by a killed job, whose pid another program may have since, is skipped.

    ProbeError (one line) when the socket folder is not to be trusted: another user's, or open to others."""
    try:
        directory = directory or wire.socket_dir()
        if not directory.exists():
            return []
        wire.check_private_dir(directory)
    except PermissionError as exc:
        raise ProbeError(worded(exc)) from None
    entries = []
    for path in sorted(directory.iterdir()):
        pid = wire.pid_of_socket(path)
        if pid is None or not psutil.pid_exists(pid) or not _answers_as(path, pid, handshake_s):
            continue
        try:
            command = " ".join(psutil.Process(pid).cmdline()) or "?"
        except (psutil.Error, OSError):
            command = "?"
        entries.append(ProbeEntry(pid, path, command))
    return entries


def _answers_as(path: Path, pid: int, timeout: float) -> bool:
    """Whether a probe listens at `path` and says it runs in process `pid` (the hello handshake, bounded)."""
    try:
        with ProbeClient(path, timeout=timeout) as client:
            return client.hello().get("pid") == pid
    except ProbeError as exc:
        return str(exc) == wire.TOO_MANY_VIEWERS  # a probe, refusing only because its viewer places are all taken
    except OSError:
        return False


class ProbeClient:
    """One connection to one probe; requests are answered in order. Not thread-safe: one user at a time."""

    def __init__(self, path: Path, *, max_snapshot: int = wire.MAX_SNAPSHOT, timeout: float | None = None) -> None:
        """Connect; `timeout` bounds the connection and every reply (default: 5 s to connect, 120 s a reply)."""
        self.path = path
        self.max_snapshot = max_snapshot
        self.pid = wire.pid_of_socket(path)
        self.reply_timeout = REPLY_TIMEOUT_S if timeout is None else timeout
        self._ids = itertools.count(1)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(CONNECT_TIMEOUT_S if timeout is None else timeout)
        try:
            self.sock.connect(str(path))
            wire.check_peer(wire.peer_uid(self.sock))  # the socket's owner must be us too
        except ConnectionRefusedError:
            self.sock.close()
            raise ProbeError(say(LEFT_BEHIND, path=as_is(path))) from None
        except (OSError, wire.PeerRefused) as exc:
            self.sock.close()
            raise ProbeError(say(NO_CONNECTION, path=as_is(path), error=worded(exc))) from None
        self.sock.settimeout(self.reply_timeout)

    @classmethod
    def for_pid(cls, pid: int, directory: Path | None = None) -> ProbeClient:
        try:
            path = wire.socket_path(pid, directory or wire.socket_dir())
        except PermissionError as exc:
            raise ProbeError(worded(exc)) from None
        if not path.exists():
            if not psutil.pid_exists(pid):
                raise ProbeError(say(NO_PROCESS, pid=as_is(pid)))
            raise ProbeError(probe_hint(pid))
        return cls(path)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()

    def __enter__(self) -> ProbeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- requests --------------------------------------------------------------------------------------------

    def _send(self, op: str, args: dict[str, Any]) -> int:
        request_id = next(self._ids)
        try:
            self.sock.sendall(wire.encode_json({"op": op, "id": request_id, **args}))
        except OSError as exc:
            # a probe that closes a connection says why first (another user, too many viewers): that line, if any,
            # is still in our receive buffer after the send failed
            why = self._parting_words()
            if why is not None:
                raise ProbeError(why) from None
            raise ProbeGone(say(GONE, pid=as_is(self.pid), error=error_text(exc))) from None
        return request_id

    def _parting_words(self) -> str | None:
        try:
            self.sock.settimeout(0.5)
            reply = wire.read_json(self.sock)
        except (OSError, EOFError, wire.ProtocolError):
            return None
        return None if reply.get("ok", False) else refused_with(reply, REFUSED_CONNECTION)

    def _reply(self) -> dict[str, Any]:
        try:
            reply = wire.read_json(self.sock)
        except (EOFError, ConnectionError) as exc:
            raise ProbeGone(say(GONE, pid=as_is(self.pid), error=error_text(exc))) from None
        except TimeoutError:
            raise ProbeError(say(NO_ANSWER, pid=as_is(self.pid), seconds=f"{self.reply_timeout:g}")) from None
        except wire.ProtocolError as exc:
            raise ProbeError(say(BAD_MESSAGE, pid=as_is(self.pid), error=error_text(exc))) from None
        if not reply.get("ok", False):
            raise ProbeError(refused_with(reply, REFUSED_REQUEST))
        return reply

    def request(self, op: str, **args: Any) -> dict[str, Any]:
        self._send(op, args)
        return self._reply()

    def hello(self) -> dict[str, Any]:
        return self.request("hello")

    def stats(self) -> dict[str, Any]:
        return self.request("stats")

    def mark(self, name: str) -> dict[str, Any]:
        return self.request("mark", name=name)

    def history(self, enabled: bool, max_entries: int | None = None, stacks: str | None = None) -> dict[str, Any]:
        return self.request("history", enabled=enabled, max_entries=max_entries, stacks=stacks)

    def snapshot_bytes(self, include_traces: bool = True) -> bytes:
        """The snapshot pickle exactly as the probe sent it (what `--save` writes to disk)."""
        self._send("snapshot", {"include_traces": include_traces})
        self._reply()
        try:
            return wire.read_bytes(self.sock, max_bytes=self.max_snapshot)
        except (EOFError, ConnectionError) as exc:
            raise ProbeGone(say(GONE_IN_TRANSFER, pid=as_is(self.pid), error=error_text(exc))) from None
        except wire.ProtocolError as exc:
            raise ProbeError(say(BAD_SNAPSHOT, pid=as_is(self.pid), error=error_text(exc))) from None

    def snapshot_into(self, out: IO[bytes], include_traces: bool = True) -> int:
        """The snapshot pickle written into the file `out` as it arrives, never whole in memory; its length.
        ProbeError (one line) when it would not fit in the free space of `out`'s file system, or does not fit."""

        def room(length: int) -> None:
            info = os.fstatvfs(out.fileno())
            free = info.f_bavail * info.f_frsize
            if length > free - FREE_SPACE_KEPT:
                # the sizes in bytes, written as counts: the window groups them as its language does
                raise ProbeError(say(NO_ROOM, pid=as_is(self.pid), length=f"{length:,}", free=f"{free:,}"))

        def write(chunk: memoryview) -> None:
            try:
                out.write(chunk)
            except OSError as exc:
                raise ProbeError(say(NOT_STORED, pid=as_is(self.pid), error=error_text(exc.strerror or exc))) from None

        self._send("snapshot", {"include_traces": include_traces})
        self._reply()
        try:
            length = wire.read_bytes_into(self.sock, write, max_bytes=self.max_snapshot, room=room)
            out.flush()
        except (EOFError, ConnectionError) as exc:
            raise ProbeGone(say(GONE_IN_TRANSFER, pid=as_is(self.pid), error=error_text(exc))) from None
        except wire.ProtocolError as exc:
            raise ProbeError(say(BAD_SNAPSHOT, pid=as_is(self.pid), error=error_text(exc))) from None
        return length

    def snapshot(self, include_traces: bool = True) -> Snapshot:
        """The probe's snapshot, through a temporary file read as any snapshot file is (mapped, never copied)."""
        with tempfile.NamedTemporaryFile(prefix="gpumem-gui-live-", suffix=".pickle") as out:
            self.snapshot_into(out, include_traces)
            try:
                return load_snapshot(out.name, name=f"pid {self.pid}")
            except SnapshotError as exc:
                raise ProbeError(error_text(exc)) from None


class EventStream:
    """A second connection that only receives the probe's events (an OOM, with the path of its snapshot)."""

    def __init__(self, path: Path) -> None:
        self.client = ProbeClient(path)
        self.client.request("subscribe")
        self.client.sock.settimeout(None)

    def next_event(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next event, None on timeout; ProbeGone when the job has gone."""
        self.client.sock.settimeout(timeout)
        try:
            return wire.read_json(self.client.sock)
        except TimeoutError:
            return None
        except (EOFError, OSError, wire.ProtocolError) as exc:
            raise ProbeGone(say(GONE, pid=as_is(self.client.pid), error=error_text(exc))) from None

    def close(self) -> None:
        self.client.close()
