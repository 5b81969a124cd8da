"""The probe's wire format and where its sockets live: framing, size limits, the per-user directory, peer checks.

Shared by the probe (inside the training process) and the viewer, so it uses the standard library only.
A frame is a 16-byte header, then the payload:

    b"GMEM" | version: u8 | kind: u8 (b"J" JSON object, b"B" bytes) | reserved: u16 | length: u64 (big endian)

Requests are small JSON objects; replies are JSON objects, and a snapshot reply is a JSON object followed by one
bytes frame holding the snapshot pickle (which the viewer reads with its no-globals loader, as it reads files).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import struct
import tempfile
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


class ProtocolError(Exception):
    """A frame that is malformed, of another version, or larger than allowed: the connection is closed."""


class PeerRefused(Exception):
    """The peer of a connection is another user."""


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
    return kind, _read_exact(sock, length)


def read_json(sock: socket.socket, *, max_json: int = MAX_JSON_REPLY) -> dict[str, Any]:
    kind, payload = read_frame(sock, max_json=max_json, max_bytes=0)
    if kind != JSON_KIND:
        raise ProtocolError("expected a JSON message")
    try:
        obj = json.loads(payload)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ProtocolError(f"malformed JSON message: {exc}") from None
    if not isinstance(obj, dict):
        raise ProtocolError("a message must be a JSON object")
    return obj


def read_bytes(sock: socket.socket, *, max_bytes: int = MAX_SNAPSHOT) -> bytes:
    kind, payload = read_frame(sock, max_json=0, max_bytes=max_bytes)
    if kind != BYTES_KIND:
        raise ProtocolError("expected a data frame")
    return payload


# -- where sockets live ----------------------------------------------------------------------------------------


def socket_dir(create: bool = False) -> Path:
    """The per-user directory of probe sockets: $XDG_RUNTIME_DIR/gpumem-gui, else <tmp>/gpumem-gui-<uid>.

    With `create`, it is made with mode 0700; an existing one must belong to this user and be closed to others,
    or it is refused (someone else could have made it to catch our sockets)."""
    override = os.environ.get(SOCKET_DIR_ENV)
    if override:
        path = Path(override)
    elif os.environ.get("XDG_RUNTIME_DIR") and Path(os.environ["XDG_RUNTIME_DIR"]).is_dir():
        path = Path(os.environ["XDG_RUNTIME_DIR"]) / "gpumem-gui"
    else:
        path = Path(tempfile.gettempdir()) / f"gpumem-gui-{os.getuid()}"
    if create:
        with contextlib.suppress(FileExistsError):
            path.mkdir(mode=0o700, parents=False)
    if path.exists():
        check_private_dir(path)
    return path


def check_private_dir(path: Path) -> None:
    info = path.lstat()
    if not stat.S_ISDIR(info.st_mode):
        raise PermissionError(f"{path} is not a directory")
    if info.st_uid != os.getuid():
        raise PermissionError(f"{path} belongs to another user (uid {info.st_uid})")
    if info.st_mode & 0o077:
        raise PermissionError(f"{path} is open to other users (mode {info.st_mode & 0o777:o}); expected 0700")


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
    raise PeerRefused("this system cannot tell who is connecting (no SO_PEERCRED)")  # refuse rather than guess


def check_peer(uid: int) -> None:
    if uid != os.getuid():
        raise PeerRefused(f"connection from uid {uid} refused: only uid {os.getuid()} may attach")
