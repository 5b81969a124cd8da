"""`gpumem-gui mcp --root DIR`: a Model Context Protocol server on stdio, for AI agents (the tools of mcp_tools.py).

Each tool takes a file path and the CLI's options and returns the JSON of the matching `--json` command (with its
schema_version), its long lists cut to `top` entries; `events` and `stack`, which have no command, page through the
trace and name a stack's frames. Only files under the --root folders are read.
"""

# no `from __future__ import annotations`: the SDK reads each tool's annotations (their descriptions among them) as
# objects, and the aliases below are local to build_server, where a string could not be resolved

import argparse
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any

from gpumem_gui.cli.common import EXIT_BAD_INPUT
from gpumem_gui.core.snapshot.errors import SnapshotError

INSTALL = "gpumem-gui mcp needs the MCP SDK: pip install 'gpumem-gui[mcp]'"
INSTRUCTIONS = (
    "PyTorch CUDA memory snapshots (torch.cuda.memory._dump_snapshot pickles): explain tells why memory ran out and"
    " which allocator settings fix it, each remedy verified by replaying the recorded trace; report gives the figures,"
    " diff compares two moments or files, ranks a folder of per-rank files, replay tries settings, events pages through"
    " the trace and stack names who allocated. Paths must lie under the folders the user allowed."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder whose snapshot files the server may read, and the folders below it (repeatable; required)",
    )


def run(args: argparse.Namespace) -> int:
    if not args.root:
        print("gpumem-gui mcp: give --root DIR, the folder of snapshots it may read (repeatable)", file=sys.stderr)
        return EXIT_BAD_INPUT
    for root in args.root:
        if not os.path.isdir(root):
            print(f"gpumem-gui mcp: --root {root} is not a folder", file=sys.stderr)
            return EXIT_BAD_INPUT
    try:
        server = build_server(args.root)
    except ImportError:
        print(INSTALL, file=sys.stderr)
        return EXIT_BAD_INPUT
    server.run("stdio")
    return 0


def build_server(roots: list[str]) -> Any:
    """The MCP server with the tools over `roots` (ImportError without the `mcp` package)."""
    from mcp.server.mcpserver import MCPServer  # noqa: PLC0415 (an optional extra)
    from mcp.server.mcpserver.exceptions import ToolError  # noqa: PLC0415
    from pydantic import Field  # noqa: PLC0415 (the SDK's own dependency)

    from gpumem_gui import __version__  # noqa: PLC0415
    from gpumem_gui.mcp_tools import MAX_TOP, TOP, Tools  # noqa: PLC0415

    tools = Tools(roots)

    def answer(call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The call's JSON; bad input (a path outside the roots, a file that is not a snapshot, an event outside
        the trace, a setting PyTorch refuses) is an error result of one line that the agent reads, not a crash."""
        try:
            return call()
        except (SnapshotError, ValueError, IndexError, OSError) as e:  # OutsideRoots is an OSError
            raise ToolError(str(e)) from None

    server = MCPServer("gpumem-gui", version=__version__, instructions=INSTRUCTIONS)
    File = Annotated[str, Field(description="a snapshot file's path, under a folder the user allowed")]
    Device = Annotated[
        int | None, Field(description="a CUDA device (default: the one with an OOM, else the most used)")
    ]
    At = Annotated[int | None, Field(description="the state right after this trace event (0-based)")]
    Top = Annotated[int, Field(description=f"how many entries of each long list to return (at most {MAX_TOP})")]

    @server.tool()
    def report(path: File, device: Device = None, at: At = None) -> dict[str, Any]:
        """A snapshot's figures per device: reserved, allocated, free, fragmentation, peaks, OOMs (`report --json`)."""
        return answer(lambda: tools.report(path, device=device, at=at))

    @server.tool()
    def explain(path: File, at: At = None, device: Device = None, top: Top = TOP) -> dict[str, Any]:
        """Why memory ran out (the first OOM, else the peak), which sites hold it, and remedies (allocator settings,
        a smaller request) each verified by replaying the trace: `fits` says whether the OOM goes away."""
        return answer(lambda: tools.explain(path, at=at, device=device, top=top))

    @server.tool()
    def diff(
        path_a: File,
        *,
        path_b: Annotated[str | None, Field(description="the second file (default: path_a again, at at_b)")] = None,
        at_a: At = None,
        at_b: At = None,
        device: Device = None,
        device_a: Device = None,
        device_b: Device = None,
        top: Top = TOP,
    ) -> dict[str, Any]:
        """Two snapshots, or two moments of one, block by block: the figures' deltas (B minus A) and the sites
        that gained or lost most."""
        return answer(
            lambda: tools.diff(
                path_a,
                path_b=path_b,
                at_a=at_a,
                at_b=at_b,
                device=device,
                device_a=device_a,
                device_b=device_b,
                top=top,
            )
        )

    @server.tool()
    def ranks(
        folder: Annotated[str, Field(description="a folder of per-rank snapshot files, under an allowed folder")],
        top: Top = 64,
    ) -> dict[str, Any]:
        """A folder of per-rank snapshots side by side: each rank's peaks and OOMs, the OOM ranks and outliers."""
        return answer(lambda: tools.ranks(folder, top=top))

    @server.tool()
    def replay(
        path: File,
        settings: Annotated[
            list[str],
            Field(description="PYTORCH_CUDA_ALLOC_CONF items over the recorded ones, e.g. expandable_segments:True"),
        ] = [],  # noqa: B006 (the SDK copies its defaults into the tool's schema)
        capacity: Annotated[str | None, Field(description="device memory to simulate, e.g. 80GiB")] = None,
        device: Device = None,
        hints: bool = True,
    ) -> dict[str, Any]:
        """The recorded trace replayed through the allocator simulator under other settings: recorded and replayed
        peaks, OOMs and fragmentation."""
        return answer(lambda: tools.replay(path, settings, capacity=capacity, device=device, hints=hints))

    @server.tool()
    def events(
        path: File,
        *,
        device: Device = None,
        kind: Annotated[str, Field(description="all, allocations, frees, segments, maps, ooms or markers")] = "all",
        min_size: Annotated[int, Field(description="only events of at least this many bytes")] = 0,
        stream: Annotated[int | None, Field(description="only this CUDA stream")] = None,
        offset: Annotated[int, Field(description="the first matching event to return (paging)")] = 0,
        limit: Annotated[int, Field(description=f"how many to return (at most {MAX_TOP})")] = 50,
    ) -> dict[str, Any]:
        """A device's trace events, filtered, a page at a time: index, action, size, address, stream, site;
        next_offset continues."""
        return answer(
            lambda: tools.events(
                path, device=device, kind=kind, min_size=min_size, stream=stream, offset=offset, limit=limit
            )
        )

    @server.tool()
    def stack(
        path: File,
        *,
        event: Annotated[int | None, Field(description="a trace event's stack")] = None,
        address: Annotated[int | None, Field(description="or the stack of the block holding this address")] = None,
        at: At = None,
        device: Device = None,
        limit: Annotated[int, Field(description="frames to return, innermost first")] = 40,
    ) -> dict[str, Any]:
        """Who allocated: the frames (innermost first) of a trace event, or of the block at an address."""
        return answer(lambda: tools.stack(path, event=event, address=address, at=at, device=device, limit=limit))

    return server
