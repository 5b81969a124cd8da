"""Run a load or an attach in a process of its own and measure its peak RSS: hostile inputs must stay bounded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# The child caps its address space, so that a reader that is not bounded fails there instead of taking the machine
# (the test then fails on the answer or the peak), and says its peak RSS on its last line (Linux: /proc).
ADDRESS_SPACE = 3 << 30
_CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
mode, *args = sys.argv[1:]
if mode == "load":
    from gpumem_gui.core.snapshot.errors import SnapshotError
    from gpumem_gui.core.snapshot.loader import load_snapshot
    try:
        load_snapshot(args[0])
        print("loaded", file=sys.stderr)
    except SnapshotError as e:
        print(e, file=sys.stderr)
elif mode == "live":
    from pathlib import Path
    from gpumem_gui.sources.live import LiveSession
    session = LiveSession(Path(args[0]), stats_interval=3600)
    print(session.run() or "stopped", file=sys.stderr)  # the window's live session: fetches a snapshot first
else:
    from gpumem_gui import cli
    cli.main(["attach", "--socket", args[0], "--save", args[1]])
# VmHWM, this image's own peak: ru_maxrss also keeps the peak of the parent it was forked from (the test run's)
status = open("/proc/self/status").read()
print(json.dumps(int(status.split("VmHWM:")[1].split()[0]) * 1024))
"""


def run_measured(mode: str, *args: str, timeout: float = 120) -> tuple[str, int]:
    """What the child said on stderr (a load's error, or the CLI's lines) and its peak RSS in bytes; `mode` is
    "load" (args: a path), "attach" (args: a socket path, the --save path) or "live" (args: a socket path)."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    env["OPENBLAS_NUM_THREADS"] = "1"  # each BLAS thread reserves address space the cap would count
    child = _CHILD.format(limit=ADDRESS_SPACE)
    command = [sys.executable, "-c", child, mode, *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return done.stderr, int(done.stdout.strip().splitlines()[-1])
