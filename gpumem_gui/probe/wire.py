"""The probe's wire format and where its sockets live: framing, size limits, the per-user directory, peer checks.

Shared by the probe (inside the training process) and the viewer, so it uses the standard library only.
A frame is a 16-byte header, then the payload:

    b"GMEM" | version: u8 | kind: u8 (b"J" JSON object, b"B" bytes) | reserved: u16 | length: u64 (big endian)

Requests are small JSON objects; replies are JSON objects, and a snapshot reply is a JSON object followed by one
bytes frame holding the snapshot pickle (which the viewer reads with its no-globals loader, as it reads files).
"""

from __future__ import annotations

import json
import os
import socket
import stat
import struct
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAGIC = b"GMEM"
VERSION = 1
HEADER = struct.Struct(">4sBcHQ")
JSON_KIND, BYTES_KIND = b"J", b"B"
MAX_REQUEST = 64 * 1024  # what the probe accepts: requests are a few hundred bytes
MAX_JSON_REPLY = 64 * 1024 * 1024
MAX_SNAPSHOT = 16 * 1024**3  # a 1M-event snapshot pickle is ~125 MB; a bigger one is refused, not half-read
SOCKET_PREFIX, SOCKET_SUFFIX = "probe-", ".sock"
SOCKET_DIR_ENV = "GPUMEM_GUI_SOCKET_DIR"  # tests and unusual setups; the directory is checked like the default one
TOO_MANY_VIEWERS = "too many viewers attached"  # the refusal when every viewer place is taken: a probe, alive
MAX_HISTORY_ENTRIES = 10_000_000  # torch keeps several KB per trace entry: more than this is tens of GB of host memory
# sun_path holds 108 bytes on Linux and 104 on the BSDs and macOS, the final NUL included
SOCKET_PATH_MAX = (108 if sys.platform.startswith("linux") else 104) - 1
_LONGEST_NAME = len(f"{SOCKET_PREFIX}{2**22}{SOCKET_SUFFIX}")  # for any pid: 2^22 is Linux's PID_MAX_LIMIT
SHORT_ROOT = "/tmp"  # where sockets go when the usual folder's path is too long for a socket's address


class ProtocolError(Exception):
    """A frame that is malformed, of another version, or larger than allowed: the connection is closed."""


# the words of a refusal, kept as template and fields (plain strings: the probe runs without the window's marks), so
# that a viewer says them in its language (sources/probe_client.py marks each template and rebuilds the sentence)
DIR_NOT_MADE = "socket folder {path}: cannot create it: {error}"
DIR_UNREADABLE = "socket folder {path}: {error}"
DIR_NOT_FOLDER = "socket folder {path} is not a directory"
DIR_OTHER_USER = "socket folder {path} belongs to another user (uid {uid})"
DIR_OPEN = "socket folder {path} is open to other users (mode {mode}); expected 0700"
PEER_OTHER_USER = "connection from uid {uid} refused: only uid {me} may attach"
PEER_UNKNOWN = "this system cannot tell who is connecting (no SO_PEERCRED)"
OP_FAILED = "{op} failed in the probe: {error}"  # the answer to a request that broke in the probe


class _Worded(Exception):
    """An exception whose one line is `template` filled with `fields`, both kept (`template`, `fields`)."""

    template: str
    fields: dict[str, str]

    def _word(self, template: str, fields: dict[str, object]) -> str:
        self.template, self.fields = template, {k: str(v) for k, v in fields.items()}
        return template.format(**self.fields)


class PeerRefused(_Worded):
    """The peer of a connection is another user."""

    def __init__(self, template: str, **fields: object) -> None:
        super().__init__(self._word(template, fields))


class SocketDirError(_Worded, PermissionError):
    """The socket folder cannot be trusted or made: another user's, open to others, not a folder, not creatable."""

    def __init__(self, template: str, **fields: object) -> None:
        super().__init__(self._word(template, fields))


def refusal(template: str, **fields: object) -> dict[str, Any]:
    """A reply that refuses: `error` its one line (what every viewer reads), `words` its template and fields (what
    a viewer that translates rebuilds its sentence from)."""
    words = {k: str(v) for k, v in fields.items()}
    return {"ok": False, "error": template.format(**words), "words": {"template": template, "fields": words}}


def refusal_of(exc: BaseException) -> dict[str, Any]:
    """The reply that refuses with `exc`'s words (its template and fields where it keeps them)."""
    if isinstance(exc, _Worded):
        return refusal(exc.template, **exc.fields)
    return {"ok": False, "error": str(exc)}


def encode_json(obj: dict[str, Any]) -> bytes:
    payload = json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()
    return HEADER.pack(MAGIC, VERSION, JSON_KIND, 0, len(payload)) + payload


def encode_bytes_header(length: int) -> bytes:
    return HEADER.pack(MAGIC, VERSION, BYTES_KIND, 0, length)


def _read_exact(sock: socket.socket, n: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < n:
        chunk = sock.recv(min(n - len(chunks), 1 << 20))
        if not chunk:
            raise EOFError("the other side closed the connection")
        chunks += chunk
    return bytes(chunks)


def read_frame(sock: socket.socket, *, max_json: int, max_bytes: int) -> tuple[bytes, bytes]:
    """(kind, payload) of the next frame; ProtocolError on anything malformed or oversized, before reading it."""
    kind, length = _read_header(sock, max_json=max_json, max_bytes=max_bytes)
    return kind, _read_exact(sock, length)


def _read_header(sock: socket.socket, *, max_json: int, max_bytes: int) -> tuple[bytes, int]:
    head = _read_exact(sock, HEADER.size)
    magic, version, kind, _reserved, length = HEADER.unpack(head)
    if magic != MAGIC:
        raise ProtocolError("not a gpumem-gui probe message")
    if version != VERSION:
        raise ProtocolError(f"protocol version {version}, expected {VERSION}")
    if kind == JSON_KIND:
        if length > max_json:
            raise ProtocolError(f"message of {length} bytes is larger than the {max_json} allowed")
    elif kind == BYTES_KIND:
        if length > max_bytes:
            raise ProtocolError(f"data of {length} bytes is larger than the {max_bytes} allowed")
    else:
        raise ProtocolError(f"unknown message kind {kind!r}")
    return kind, length


def read_json(sock: socket.socket, *, max_json: int = MAX_JSON_REPLY) -> dict[str, Any]:
    kind, payload = read_frame(sock, max_json=max_json, max_bytes=0)
    if kind != JSON_KIND:
        raise ProtocolError("expected a JSON message")
    try:
        obj = json.loads(payload)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ProtocolError(f"malformed JSON message: {exc}") from None
    except RecursionError:  # [[[[... a hundred thousand deep: a line, not a traceback
        raise ProtocolError("malformed JSON message: nested too deeply") from None
    if not isinstance(obj, dict):
        raise ProtocolError("a message must be a JSON object")
    return obj


def read_bytes(sock: socket.socket, *, max_bytes: int = MAX_SNAPSHOT) -> bytes:
    kind, payload = read_frame(sock, max_json=0, max_bytes=max_bytes)
    if kind != BYTES_KIND:
        raise ProtocolError("expected a data frame")
    return payload


def read_bytes_into(
    sock: socket.socket,
    write: Callable[[memoryview], object],
    *,
    max_bytes: int = MAX_SNAPSHOT,
    room: Callable[[int], object] | None = None,
) -> int:
    """Pass the next data frame's payload to `write` a chunk at a time (a file's write: it is never whole in
    memory), after `room` has been told its length (to refuse it before a byte is read); the length."""
    kind, length = _read_header(sock, max_json=0, max_bytes=max_bytes)
    if kind != BYTES_KIND:
        raise ProtocolError("expected a data frame")
    if room is not None:
        room(length)
    buffer = memoryview(bytearray(min(length, 1 << 20)))
    left = length
    while left:
        got = sock.recv_into(buffer, min(left, len(buffer)))
        if not got:
            raise EOFError("the other side closed the connection")
        write(buffer[:got])
        left -= got
    return length


# -- where sockets live ----------------------------------------------------------------------------------------


def socket_dir(create: bool = False) -> Path:
    """The per-user directory of probe sockets: $GPUMEM_GUI_SOCKET_DIR, else $XDG_RUNTIME_DIR/gpumem-gui, else
    <tmp>/gpumem-gui-<uid>; where that path leaves no room for a socket's name within the platform's limit on a
    socket address (a long TMPDIR), /tmp/gpumem-gui-<uid> instead. The choice depends on the environment only, not
    on the pid, so a viewer finds the probes of a job started in the same environment.

    With `create`, it is made with mode 0700; an existing one must belong to this user and be closed to others,
    or it is refused with a one-line SocketDirError (someone else could have made it to catch our sockets)."""
    override = os.environ.get(SOCKET_DIR_ENV)
    if override:
        path = Path(override)
    elif os.environ.get("XDG_RUNTIME_DIR") and Path(os.environ["XDG_RUNTIME_DIR"]).is_dir():
        path = Path(os.environ["XDG_RUNTIME_DIR"]) / "gpumem-gui"
    else:
        path = Path(tempfile.gettempdir()) / f"gpumem-gui-{os.getuid()}"
    if not fits_socket_name(path):
        root = SHORT_ROOT if os.path.isdir(SHORT_ROOT) else tempfile.gettempdir()
        path = Path(root) / f"gpumem-gui-{os.getuid()}"
    if create:
        try:
            path.mkdir(mode=0o700, parents=False)
        except FileExistsError:
            pass
        except OSError as exc:
            raise SocketDirError(DIR_NOT_MADE, path=path, error=exc.strerror or exc) from None
    if path.exists() or path.is_symlink():
        check_private_dir(path)
    return path


def fits_socket_name(directory: Path) -> bool:
    """Whether a probe socket for any pid fits in a socket address under `directory`."""
    return len(os.fsencode(directory)) + 1 + _LONGEST_NAME <= SOCKET_PATH_MAX


def check_private_dir(path: Path) -> None:
    """Refuse (SocketDirError, one line naming the folder) all but a directory of this user closed to others."""
    try:
        info = path.lstat()
    except OSError as exc:
        raise SocketDirError(DIR_UNREADABLE, path=path, error=exc.strerror or exc) from None
    if not stat.S_ISDIR(info.st_mode):
        raise SocketDirError(DIR_NOT_FOLDER, path=path)
    if info.st_uid != os.getuid():
        raise SocketDirError(DIR_OTHER_USER, path=path, uid=info.st_uid)
    if info.st_mode & 0o077:
        raise SocketDirError(DIR_OPEN, path=path, mode=f"{info.st_mode & 0o777:o}")


def socket_path(pid: int, directory: Path | None = None) -> Path:
    return (directory or socket_dir()) / f"{SOCKET_PREFIX}{pid}{SOCKET_SUFFIX}"


def pid_of_socket(path: Path) -> int | None:
    name = path.name
    if not (name.startswith(SOCKET_PREFIX) and name.endswith(SOCKET_SUFFIX)):
        return None
    digits = name[len(SOCKET_PREFIX) : -len(SOCKET_SUFFIX)]
    return int(digits) if digits.isdigit() else None


_PEERCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process at the other end of a Unix socket (SO_PEERCRED on Linux, getpeereid elsewhere)."""
    if hasattr(socket, "SO_PEERCRED"):
        _pid, uid, _gid = _PEERCRED.unpack(sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size))
        return int(uid)
    raise PeerRefused(PEER_UNKNOWN)  # refuse rather than guess


def check_peer(uid: int) -> None:
    if uid != os.getuid():
        raise PeerRefused(PEER_OTHER_USER, uid=uid, me=os.getuid())
