"""The `gpumem-gui` command line: subcommands over the core library (the window comes with the app)."""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import pickle
import sys
from collections.abc import Sequence
from typing import Any

from gpumem_gui import __version__, blas_threads  # noqa: F401 (blas_threads: before numpy is imported)
from gpumem_gui.cli import user_code
from gpumem_gui.cli.common import EXIT_BAD_INPUT, bad_input
from gpumem_gui.cli.guard import run_guarded
from gpumem_gui.core.analysis.report import build_report, report_text
from gpumem_gui.core.rules.alloc_conf import AllocConfError
from gpumem_gui.core.rules.torch_versions import DEFAULT_VERSION, format_release, modelled_range, modelled_release
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.units import format_bytes, format_bytes_exact, format_percent, parse_bytes
from gpumem_gui.json_documents import explain_document, replay_document, report_document

SPAN_HELP = (
    "explain a span of the trace instead: I:J runs from right after event I (-1: before the first) to right after "
    "event J; step:K is the K-th training step found; or a record_function range's name"
)
RENDER_LAYOUTS = ("address", "segment-size", "segment-free", "segment-scale")  # in the order of document.LAYOUTS


def _positive(text: str) -> int:
    """A count of at least 1, for argparse (its message names the value otherwise)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, got {text!r}")
    return value


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only`, the command about to run, the other module commands' options are
    left out."""
    parser = argparse.ArgumentParser(
        prog="gpumem-gui",
        description="See, measure and teach PyTorch CUDA caching-allocator memory.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    user_code.add_arguments(parser)  # for the window (`gpumem-gui --user-code PATH FILE`) and every command
    sub = parser.add_subparsers(dest="command")
    report = sub.add_parser("report", help="print the memory figures of a snapshot file")
    report.add_argument("file", help="a pickle from torch.cuda.memory._dump_snapshot (or JSON, gzip'd or not)")
    report.add_argument("--device", type=int, default=None, help="only this CUDA device")
    report.add_argument("--at", type=int, default=None, metavar="I", help="figures right after trace event I (0-based)")
    report.add_argument("--json", action="store_true", help="print JSON instead of text")
    report.add_argument("--top", type=int, default=10, help="how many segments to list (default 10)")
    user_code.add_arguments(report)
    exp = sub.add_parser("explain", help="why memory ran out (or what holds the peak), with remedies replayed")
    exp.add_argument("file", help="a snapshot file (with a trace, for the OOM, the peak and the remedies)")
    exp.add_argument("--device", type=int, default=None, help="this CUDA device (default: one with an OOM)")
    exp.add_argument("--at", type=int, default=None, metavar="I", help="explain the state right after trace event I")
    exp.add_argument("--span", default=None, metavar="I:J", help=SPAN_HELP)
    exp.add_argument("--json", action="store_true", help="print JSON instead of text")
    exp.add_argument(
        "--gpus",
        type=_positive,
        default=None,
        metavar="N",
        help="GPUs the sharding remedy shards over (default: the file's devices, else 2)",
    )
    exp.add_argument(
        "--capacity",
        help="the memory the process could get, e.g. 1GiB: its memory fraction times the device's total, for an OOM"
        " a memory limit refused (the trace does not record it; default: what the recording tells)",
    )
    _add_rules_arguments(exp)
    user_code.add_arguments(exp)
    rep = sub.add_parser("replay", help="replay a recorded trace through the allocator simulator (what if)")
    rep.add_argument("file", help="a snapshot with a trace")
    rep.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY:VALUE",
        help="an allocator setting to change, as in PYTORCH_CUDA_ALLOC_CONF (repeatable)",
    )
    rep.add_argument("--capacity", help="device memory to simulate (default: what an OOM saw, else 80GiB)")
    rep.add_argument("--device", type=int, default=None, help="the device whose trace to replay")
    rep.add_argument(
        "--hints",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="offer each new segment the address the recording got (default; --no-hints: the simulator picks)",
    )
    rep.add_argument("--json", action="store_true", help="print JSON instead of text")
    rep.add_argument("-o", "--output", help="write the replayed run as a snapshot pickle")
    _add_rules_arguments(rep)
    ren = sub.add_parser("render", help="render a snapshot's window, map or timelines to a PNG, without a screen")
    ren.add_argument("file")
    ren.add_argument("-o", "--output", required=True, help="the PNG to write")
    ren.add_argument(
        "--view",
        choices=("window", "map", "timeline", "sites", "settings", "segments", "pools", "flame"),
        default="window",
        help="sites: the site timeline; settings: the allocator settings page; segments: the cached-segment timeline;"
        " pools: memory by pool, each private pool (CUDA graphs, MemPool) an envelope at its reserved size;"
        " flame: the flame graph of the bytes live at the event shown",
    )
    ren.add_argument(
        "--pin",
        metavar="ADDRESS",
        help="pin the stack of the block at ADDRESS (0x... or decimal) over the map (window or map view)",
    )
    ren.add_argument(
        "--at",
        type=int,
        default=None,
        metavar="I",
        help="the state right after trace event I (default: where the window opens: the first OOM, else the peak)",
    )
    ren.add_argument("--device", type=int, default=None)
    ren.add_argument("--size", default="1400x900", help="WxH in pixels (default 1400x900)")
    user_code.add_arguments(ren)
    ren.add_argument(
        "--layout",
        choices=RENDER_LAYOUTS,
        default="address",
        help="the map's layout (segment-scale: a row per segment, widths to scale)",
    )
    att = sub.add_parser("attach", help="attach to a local job that runs the gpumem-gui probe")
    att.add_argument("pid", type=int, nargs="?", help="the job's process id")
    att.add_argument(
        "--socket",
        metavar="PATH",
        help="the probe's socket at this path instead of a local pid's: one forwarded from a server with "
        "`ssh -L /tmp/gpumem.sock:/run/user/UID/gpumem-gui/probe-PID.sock server`",
    )
    att.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="S",
        help="give up on a snapshot that has not arrived in S seconds (default 120; connecting takes at most 5)",
    )
    att.add_argument("--list", action="store_true", help="list local GPU processes and the ones that run a probe")
    att.add_argument("--save", metavar="OUT", help="write the job's snapshot here (a normal snapshot pickle)")
    att.add_argument(
        "--save-ranks",
        metavar="DIR",
        help="save a snapshot of every local probe (with PID: of that process and the ones below it, e.g. torchrun's)"
        " into DIR, each named rankR.pickle, for `gpumem-gui ranks DIR`",
    )
    att.add_argument("--once", action="store_true", help="take one snapshot and exit (with --save)")
    att.add_argument("--no-trace", action="store_true", help="leave the recorded trace out of the snapshot")
    # its options are the demo job's own (gpumem_gui.demo_job): `gpumem-gui demo-job --help` lists them
    sub.add_parser("demo-job", help="a simulated training job with the probe: live mode without a GPU", add_help=False)
    quiz = sub.add_parser("quiz", help="open the guided quiz")
    quiz.add_argument("quiz_id", nargs="?", help="the quiz to open (default: the chooser)")
    challenge = sub.add_parser("challenge", help="open the debugging challenge: find what pins an OOM, fix it")
    challenge.add_argument("name", nargs="?", help="the challenge to start (default: the first)")
    for name, (module, summary) in MODULE_COMMANDS.items():
        command = sub.add_parser(name, help=summary)
        if only in (None, name):  # the module's imports (diff, ranks, MCP) only for its own command or for --help
            importlib.import_module(module).add_arguments(command)
    return parser


def _add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of every command that replays: whose allocator rules, and how much memory the device has."""
    parser.add_argument(
        "--torch-version",
        metavar="X.Y",
        help=f"follow this torch release's allocator rules ({modelled_range()}; default: the version the probe "
        f"recorded in the file, else {format_release(DEFAULT_VERSION)})",
    )
    parser.add_argument(
        "--device-memory",
        metavar="SIZE",
        help="the device's total memory, e.g. 80GiB (default: what the probe recorded, else the capacity, a guess)",
    )


def _rules_options(args: argparse.Namespace) -> dict[str, Any]:
    """replay()'s torch_version and device_memory from the command line, checked (ValueError: one line)."""
    if args.torch_version:
        modelled_release(args.torch_version)
    memory = parse_bytes(args.device_memory) if args.device_memory else None
    if memory is not None and memory <= 0:
        raise ValueError(f"--device-memory {args.device_memory!r}: a device has more memory than that")
    return {"torch_version": args.torch_version, "device_memory": memory}


def _capacity(text: str | None) -> int | None:
    """--capacity, checked (ValueError: one line)."""
    capacity = parse_bytes(text) if text else None
    if capacity is not None and capacity <= 0:
        raise ValueError(f"--capacity {text!r}: a process can get more memory than that")
    return capacity


# subcommands in modules of their own, each with add_arguments(parser) and run(args) -> exit status
MODULE_COMMANDS = {
    "diff": ("gpumem_gui.cli.diff", "compare two snapshots, or two moments of one, block by block"),
    "ranks": ("gpumem_gui.cli.ranks", "summarise a folder of per-rank snapshots: peaks, OOMs, outliers"),
    "mcp": (
        "gpumem_gui.cli.mcp_server",
        "serve report, explain, diff, ranks, replay, events and stack to AI agents (MCP)",
    ),
}
COMMANDS = ("report", "explain", "replay", "render", "attach", "demo-job", "quiz", "challenge", *MODULE_COMMANDS)


# the commands that read snapshot files: run in a forked child (cli/guard.py), so that a file cut short while it is
# read (SIGBUS on its mapped pages) is one line, not a dead command (ranks reads in worker processes of its own)
READING_COMMANDS = frozenset({"report", "explain", "replay", "render", "diff"})


def main(argv: Sequence[str] | None = None) -> int:
    _escape_unprintable_output()
    argv = user_code.take(sys.argv[1:] if argv is None else argv)  # the folders of --user-code, --library
    if argv and argv[0] in READING_COMMANDS:
        files = [a for a in argv[1:] if not a.startswith("-") and os.path.isfile(a)]
        return run_guarded(lambda: _run(argv), files)
    return _run(argv)


def _run(argv: list[str]) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()  # inside the try: a reader that left (`| head`) shows up here at the latest
    except BrokenPipeError:
        # the reader has all it wanted: no traceback, and no second error when Python flushes stdout at exit
        # (the recipe of Python's docs, "Note on SIGPIPE")
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return code


def _escape_unprintable_output() -> None:
    """Text that the terminal's encoding cannot carry (a frame name with a lone surrogate, from a hostile or broken
    file) is printed escaped (`\\udcff`) rather than ending the command in a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _main(argv: Sequence[str] | None = None) -> int:
    argv = user_code.take(sys.argv[1:] if argv is None else argv)  # the folders of --user-code, --library
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        return _window(argv)  # `gpumem-gui [FILE ...]`
    if argv[0] == "demo-job":
        from gpumem_gui import demo_job  # noqa: PLC0415

        return demo_job.main(argv[1:])
    args = _parser(argv[0] if argv[0] in COMMANDS else None).parse_args(argv)
    if args.command == "report":
        return _report(args)
    if args.command == "explain":
        return _explain(args)
    if args.command == "replay":
        return _replay(args)
    if args.command == "render":
        return _render(args)
    if args.command == "attach":
        return _attach(args)
    if args.command == "quiz":
        return _quiz(args)
    if args.command == "challenge":
        return _challenge(args)
    if args.command in MODULE_COMMANDS:
        return int(importlib.import_module(MODULE_COMMANDS[args.command][0]).run(args))
    return _window([])


def _quiz(args: argparse.Namespace) -> int:
    from gpumem_gui.teach.quiz import QuizError, find_quiz  # noqa: PLC0415

    if args.quiz_id:
        try:
            find_quiz(args.quiz_id)
        except QuizError as e:
            print(f"gpumem-gui: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
    from gpumem_gui.app import run_window  # noqa: PLC0415

    return run_window([], quiz=args.quiz_id or "")


def _challenge(args: argparse.Namespace) -> int:
    from gpumem_gui.teach.challenge import CHALLENGES  # noqa: PLC0415

    if args.name and args.name not in CHALLENGES:
        print(f"gpumem-gui: unknown challenge '{args.name}' (known: {', '.join(CHALLENGES)})", file=sys.stderr)
        return EXIT_BAD_INPUT
    from gpumem_gui.app import run_window  # noqa: PLC0415

    return run_window([], challenge=args.name or "")


def _attach(args: argparse.Namespace) -> int:
    from pathlib import Path  # noqa: PLC0415

    from gpumem_gui.sources.local_jobs import local_jobs  # noqa: PLC0415
    from gpumem_gui.sources.probe_client import REPLY_TIMEOUT_S, ProbeClient, ProbeError  # noqa: PLC0415
    from gpumem_gui.sources.probe_socket import connect, fetch_snapshot_into  # noqa: PLC0415

    def bad(message: str) -> int:
        print(f"gpumem-gui attach: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT

    if args.timeout is not None and not args.timeout > 0:
        return bad("--timeout must be a positive number of seconds")
    if args.save_ranks:
        if args.socket or args.save or args.list:
            return bad("--save-ranks takes no --socket, --save or --list")
        from gpumem_gui.cli.attach_ranks import save_ranks  # noqa: PLC0415

        timeout = REPLY_TIMEOUT_S if args.timeout is None else args.timeout
        return save_ranks(args.save_ranks, args.pid, timeout=timeout, include_traces=not args.no_trace)
    if args.list:
        if args.socket or args.pid is not None:
            return bad("--list takes no PID and no --socket")
        found = local_jobs()
        if found.probe_error:  # e.g. another user's socket folder in GPUMEM_GUI_SOCKET_DIR
            print(f"gpumem-gui: {found.probe_error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        if found.nvml_error:
            print(f"({found.nvml_error}; listing the jobs that run a probe)")
        if not found.jobs:
            print("no local GPU process and no running probe")
            return 0
        print(f"{'PID':>8}  {'GPU memory':>12}  {'probe':<6} command")
        for job in found.jobs:
            used = format_bytes(job.gpu_bytes) if job.gpu_bytes is not None else "n/a"
            print(f"{job.pid:>8}  {used:>12}  {'yes' if job.probe else 'no':<6} {job.command[:100]}")
        return 0
    if args.socket and args.pid is not None:
        return bad("give a PID or --socket PATH, not both")
    if args.pid is None and not args.socket:
        return bad("give a PID (see `gpumem-gui attach --list`) or --socket PATH")
    if args.once and not args.save:
        return bad("--once needs --save OUT")
    timeout = REPLY_TIMEOUT_S if args.timeout is None else args.timeout
    socket_path = Path(args.socket).expanduser() if args.socket else None
    if not args.save:
        if socket_path is not None:
            try:  # checked here, bounded: the window would otherwise open on a path that cannot answer
                client, _probe = connect(socket_path, timeout=min(5.0, timeout))
                client.close()
            except ProbeError as e:
                return bad(str(e))
        from gpumem_gui.app import run_window  # noqa: PLC0415

        # MainWindow.attach takes a pid or a socket's Path; run_window's annotation (app.py) still says a pid
        return run_window([], attach=socket_path if socket_path is not None else args.pid)
    out = Path(args.save)
    tmp = out.with_name(out.name + ".part")  # the snapshot streams into it, never whole in memory
    try:
        with tmp.open("wb") as part:
            if socket_path is not None:
                size, probe = fetch_snapshot_into(socket_path, part, include_traces=not args.no_trace, timeout=timeout)
                name = f"pid {probe.pid}" + ("" if probe.local else f" via {socket_path}")
            else:
                with ProbeClient.for_pid(args.pid) as client:
                    size = client.snapshot_into(part, include_traces=not args.no_trace)
                name = f"pid {args.pid}"
        snapshot = load_snapshot(tmp, name=name)  # what was received must be a snapshot, read as files are
        tmp.replace(out)
    except (ProbeError, SnapshotError) as e:
        tmp.unlink(missing_ok=True)
        print(f"gpumem-gui: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as e:
        tmp.unlink(missing_ok=True)
        print(f"gpumem-gui: cannot write {out}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    reserved = int(snapshot.state.segments.total_size.sum())
    events = sum(len(snapshot.trace(d)) for d in snapshot.devices())
    print(f"wrote {out}: {format_bytes(size)}, {len(snapshot.state.segments)} segments, "
          f"{format_bytes(reserved)} reserved, {events:,} trace events ({name})")  # fmt: skip
    return 0


def _window(paths: list[str]) -> int:
    from gpumem_gui.app import run_window  # noqa: PLC0415 (Qt loads only for the window)

    return run_window(paths)


def _render(args: argparse.Namespace) -> int:
    import os  # noqa: PLC0415

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no screen needed
    from gpumem_gui.render import render  # noqa: PLC0415 (Qt loads only here)

    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
        layout = RENDER_LAYOUTS.index(args.layout)
        render(
            args.file,
            args.output,
            view=args.view,
            at=args.at,
            device=args.device,
            size=(width, height),
            layout=layout,
            pin=args.pin,
        )
    except SnapshotError as e:
        print(f"gpumem-gui: SnapshotError: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ValueError, IndexError, OSError) as e:
        print(f"gpumem-gui: {e} ({args.file})", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"wrote {args.output}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from gpumem_gui.core.allocator.replay import CAPACITY_SOURCES, replay, rules_lines  # noqa: PLC0415 (not for the other commands)

    try:
        snapshot = load_snapshot(args.file)
        capacity = parse_bytes(args.capacity) if args.capacity else None
        options = _rules_options(args)
        result = replay(
            snapshot, device=args.device, overrides=args.set, capacity=capacity, hints=args.hints, **options
        )
    except SnapshotError as e:
        print(f"gpumem-gui: SnapshotError: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (AllocConfError, ValueError) as e:
        print(f"gpumem-gui: {e} ({args.file})", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.output:
        with open(args.output, "wb") as f:
            pickle.dump(result.snapshot, f, protocol=4)
    if args.json:
        print(json.dumps(replay_document(result), indent=2))
        return 0
    o, r = result.original, result.replayed
    print(f"{snapshot.source}: device {result.device}, settings {result.settings or '(defaults)'}")
    why = CAPACITY_SOURCES.get(result.capacity_source, result.capacity_source)
    print(f"  capacity assumed     {format_bytes_exact(result.capacity)} ({why})")
    for line in rules_lines(result):
        print(f"  {line}")
    print(f"  address hints        {'on' if result.address_hints else 'off (the simulator picks every address)'}")
    print(
        f"  releases             {result.explicit_releases} empty_cache() replayed, "
        f"{result.allocator_releases} by the allocator left to the simulator"
    )
    print(f"  {'':22}{'recorded':>16}{'replayed':>16}")
    for label, key in (
        ("peak reserved", "peak_reserved_bytes"),
        ("final reserved", "final_reserved_bytes"),
        ("peak allocated", "peak_allocated_bytes"),
    ):
        print(f"  {label:<22}{format_bytes(getattr(o, key)):>16}{format_bytes(getattr(r, key)):>16}")
    for label, key in (
        ("device allocations", "device_allocations"),
        ("device frees", "device_frees"),
        ("OOMs", "oom_events"),
    ):
        print(f"  {label:<22}{getattr(o, key):>16,}{getattr(r, key):>16,}")
    print(
        f"  {'max fragmentation':<22}{format_percent(o.max_external_fragmentation):>16}"
        f"{format_percent(r.max_external_fragmentation):>16}"
    )
    where = "never" if result.first_divergence is None else f"at event {result.first_divergence}"
    print(f"  replay first differs {where} (a device call, an OOM or a block's place in its segment)")
    for pool in result.inferred_pools:  # assumed, not recorded: the user is told so
        made = ", ".join(f"{s.address:#x} ({format_bytes(s.size)}, event {s.event})" for s in pool.segments)
        how = "inferred from" if not result.pools_carried else "inferred under the recorded settings from"
        print(
            f"  assumed private pool {pool.pool_id}: not named by the trace, {how} the segments the recorded"
            f" allocator made where the default pool had room: {made}"
        )
        if result.pools_carried:  # these settings or this program keep the pool's memory apart, as the recorded did
            print("    (kept in this replay too: the program's requests to it go to it under any settings)")
    if args.output:
        print(f"  replayed run written to {args.output}")
    return 0


def _explain(args: argparse.Namespace) -> int:
    from gpumem_gui.core.allocator.remedies import explain  # noqa: PLC0415
    from gpumem_gui.core.analysis.explain_output import explanation_text  # noqa: PLC0415

    if args.span is not None:
        from gpumem_gui.cli import span  # noqa: PLC0415

        return span.run(args)
    try:
        snapshot = load_snapshot(args.file)
        snapshot.require_device(args.device)
        capacity = _capacity(args.capacity)
        options = _rules_options(args)
        found = explain(snapshot, device=args.device, at=args.at, gpus=args.gpus, capacity=capacity, **options)
    except (SnapshotError, IndexError, ValueError) as e:
        return bad_input(e, args.file)
    if args.json:
        print(json.dumps(explain_document(found), indent=2))
    else:
        print(explanation_text(found.diagnosis, found.remedies, found.remedy_sentences))
    return 0


def _report(args: argparse.Namespace) -> int:
    try:
        # the figures name no stack: without --at (no time travel, whose block history keeps stacks) none is read
        snapshot = load_snapshot(args.file, stacks=args.at is not None)
        snapshot.require_device(args.device)
        reports = build_report(snapshot, device=args.device, at=args.at)
    except (SnapshotError, IndexError) as e:
        return bad_input(e, args.file)
    if args.json:
        print(json.dumps(report_document(snapshot, reports), indent=2))
    else:
        print(report_text(snapshot, reports, top=args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
