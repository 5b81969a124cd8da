"""A probe reached by its socket's path (one forwarded from another machine over SSH too): checked, bounded, one line.

`attach --socket PATH` and the window's attach to a path go through here first, so that a path that is not a socket,
a socket nobody listens on, or a peer that says nothing (or says it too slowly) is one line within a bounded time,
never a hang. Whether the probe is on this machine is told by the socket's peer: a local probe's socket is held by
the job itself (SO_PEERCRED gives the job's pid), a forwarded one by the ssh that relays it.
"""

from __future__ import annotations

import contextlib
import socket
import stat
import struct
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import psutil

from gpumem_gui.sources.probe_client import (
    BAD_MESSAGE,
    LEFT_BEHIND,
    REPLY_TIMEOUT_S,
    ProbeClient,
    ProbeError,
    ProbeGone,
)
from gpumem_gui.sources.words import QT_TRANSLATE_NOOP, Sentence, as_is, error_text, say

HANDSHAKE_S = 5.0  # to connect and get the probe's hello: a probe answers in milliseconds, an SSH hop in a second
_PEERCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid

NO_SOCKET = QT_TRANSLATE_NOOP("Probe", "no socket at {path}: nothing there (for an SSH forward: is `ssh -L` running?)")
UNREACHABLE = QT_TRANSLATE_NOOP("Probe", "cannot reach {path}: {error}")
IS_FOLDER = QT_TRANSLATE_NOOP("Probe", "{path} is a folder, not a probe's socket")
IS_FILE = QT_TRANSLATE_NOOP("Probe", "{path} is a file, not a probe's socket")
IS_OTHER = QT_TRANSLATE_NOOP("Probe", "{path} is not a socket, not a probe's socket")
TOO_LONG = QT_TRANSLATE_NOOP("Probe", "{what} took longer than {seconds} s: {path}")
FAILED = QT_TRANSLATE_NOOP("Probe", "{what} failed: {error}")
NOBODY = QT_TRANSLATE_NOOP("Probe", "nothing listens at {path}: the probe's job or the SSH forward has gone")
NOT_A_PROBE = QT_TRANSLATE_NOOP("Probe", "what answers at {path} is not a gpumem-gui probe")
CLOSED = QT_TRANSLATE_NOOP(
    "Probe",
    "the connection at {path} closed without an answer: no probe behind it (for an SSH forward: is the job still running, and is the server's socket path right?)",  # noqa: E501 (one literal: lupdate)
)
HELLO = QT_TRANSLATE_NOOP("Probe", "the probe's hello")
SNAPSHOT = QT_TRANSLATE_NOOP("Probe", "the snapshot")
# every message above, each made with say(): the window says it in its language (views/common/sentences.said)
MESSAGES = (NO_SOCKET, UNREACHABLE, IS_FOLDER, IS_FILE, IS_OTHER, TOO_LONG, FAILED, NOBODY, NOT_A_PROBE, CLOSED)


def _made_from(exc: ProbeError, template: Sentence) -> bool:
    """Whether `exc` says `template` (compared by template, not by its English words)."""
    message = exc.args[0] if exc.args else None
    return isinstance(message, Sentence) and message.template == template.template


@dataclass(frozen=True)
class SocketProbe:
    path: Path
    hello: dict[str, Any]
    pid: int  # the job's pid on its own machine
    local: bool  # the job runs on this machine; False behind a forward (its pid is another machine's)
    rank: int | None  # RANK of a local job started by torchrun (or any launcher that sets it), else None


def check_socket_path(path: Path) -> None:
    """ProbeError (one line) unless `path` is a Unix socket."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise ProbeError(say(NO_SOCKET, path=as_is(path))) from None
    except OSError as exc:
        raise ProbeError(say(UNREACHABLE, path=as_is(path), error=error_text(exc.strerror or exc))) from None
    if not stat.S_ISSOCK(mode):
        wrong = IS_FOLDER if stat.S_ISDIR(mode) else IS_FILE if stat.S_ISREG(mode) else IS_OTHER
        raise ProbeError(say(wrong, path=as_is(path)))


def peer_pid(sock: socket.socket) -> int | None:
    """The pid of the process that listens at the other end of a connected Unix socket; None where unknown."""
    if not hasattr(socket, "SO_PEERCRED"):
        return None
    with contextlib.suppress(OSError):
        pid, _uid, _gid = _PEERCRED.unpack(sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size))
        return int(pid) or None
    return None


def is_local(client: ProbeClient, pid: int) -> bool:
    """Whether the probe at the other end of `client` is the process `pid` of this machine (not a forward)."""
    return peer_pid(client.sock) == pid


def local_rank(pid: int) -> int | None:
    """The RANK a launcher (torchrun, SLURM scripts, Ray Train) gave a local process; None when it has none."""
    try:
        value = psutil.Process(pid).environ().get("RANK")
    except (psutil.Error, OSError):
        return None
    return int(value) if value is not None and value.isdigit() else None


@contextlib.contextmanager
def deadline(client: ProbeClient, seconds: float, what: Sentence) -> Iterator[None]:
    """Bound the whole of what runs inside, not only each read: a peer that trickles a byte now and then would pass
    every per-read timeout. At the deadline the connection is shut down and ProbeError says what took too long."""
    fired = threading.Event()

    def expire() -> None:
        fired.set()
        with contextlib.suppress(OSError):
            client.sock.shutdown(socket.SHUT_RDWR)  # wakes the blocked recv at once

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    try:
        yield
        if fired.is_set():  # struck just as the work ended: the connection is shut, so it counts as too late
            raise ProbeError(say(TOO_LONG, what=what, seconds=f"{seconds:g}", path=as_is(client.path)))
    except (ProbeError, OSError) as exc:
        if fired.is_set():
            raise ProbeError(say(TOO_LONG, what=what, seconds=f"{seconds:g}", path=as_is(client.path))) from None
        if isinstance(exc, OSError):
            raise ProbeError(say(FAILED, what=what, error=error_text(exc))) from None
        raise
    finally:
        timer.cancel()


def connect(path: Path, *, timeout: float = HANDSHAKE_S) -> tuple[ProbeClient, SocketProbe]:
    """Connect to the probe at `path` and shake hands within `timeout`; the client then waits up to the usual reply
    time (a snapshot of a long trace takes a while to pickle). ProbeError, one line, for anything else."""
    check_socket_path(path)
    try:
        client = ProbeClient(path, timeout=timeout)
    except ProbeError as exc:
        if _made_from(exc, LEFT_BEHIND):
            raise ProbeError(say(NOBODY, path=as_is(path))) from None
        raise
    client.sock.settimeout(timeout + 1.0)  # the deadline, not a read's timeout, ends a silent peer: one message
    try:
        with deadline(client, timeout, HELLO):
            hello = client.hello()
        if "probe_protocol" not in hello or not isinstance(hello.get("pid"), int):
            raise ProbeError(say(NOT_A_PROBE, path=as_is(path)))
    except ProbeGone:
        client.close()
        raise ProbeError(say(CLOSED, path=as_is(path))) from None
    except ProbeError as exc:
        client.close()
        if _made_from(exc, BAD_MESSAGE):
            raise ProbeError(say(NOT_A_PROBE, path=as_is(path))) from None
        raise
    pid = int(hello["pid"])
    client.pid = pid  # the socket's name may not hold it (a forward): messages name the job by its pid
    client.reply_timeout = REPLY_TIMEOUT_S
    client.sock.settimeout(REPLY_TIMEOUT_S)
    local = is_local(client, pid)
    probe = SocketProbe(path, hello, pid, local, local_rank(pid) if local else _rank_of(hello))
    return client, probe


def _rank_of(hello: dict[str, Any]) -> int | None:
    rank = hello.get("rank")
    return rank if isinstance(rank, int) and not isinstance(rank, bool) else None


def fetch_snapshot_into(
    path: Path, out: IO[bytes], *, include_traces: bool = True, timeout: float = REPLY_TIMEOUT_S
) -> tuple[int, SocketProbe]:
    """One snapshot's pickle from the probe at `path`, written into the file `out` as it arrives (never whole in
    memory), the whole transfer bounded by `timeout` seconds: its length."""
    client, probe = connect(path, timeout=min(HANDSHAKE_S, timeout))
    client.sock.settimeout(timeout + 1.0)  # the whole transfer's deadline rules, not a read's
    with client, deadline(client, timeout, SNAPSHOT):
        length = client.snapshot_into(out, include_traces=include_traces)
    return length, probe
