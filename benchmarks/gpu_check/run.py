"""`make gpu-check`: every real-GPU check of the project in one call, each part under its own time limit.

    python -m benchmarks.gpu_check [FOLDER]      (from the repository root; FOLDER default ./gpu-check-out)

(a) a small training step under `python -m gpumem_gui.probe`, saved with `gpumem-gui attach PID --once --save`, and
an OOM forced with set_per_process_memory_fraction that the probe captures; default settings and expandable segments.
(b) the seeded operations of sequence.py on the real allocator (history on) under three settings, and the same
operations through the simulator, compared (compare.py). (c) NVML: the device view's reading and `attach --list`.
Everything goes into FOLDER: snapshots, logs, results.json and summary.txt. Where $OUT is set (the device machine's
folder that comes back) and no FOLDER is given, the folder is a temporary one and $OUT receives results.json,
summary.txt and gpu-check.tar.gz (the whole folder; at most 3 files, as few come back from there).

Installs nothing: it runs this checkout with the given Python (its torch, numpy, psutil and nvidia-ml-py) and the
pure-Python kernels. Without a CUDA device it says so in one line and exits 2; otherwise it exits 0 when every part
finished (whatever matched) and 1 when one failed or ran out of time.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.util
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
EXIT_NO_DEVICE = 2
MiB = 1 << 20
BUDGET_S = 450.0  # the whole check, within 8 minutes end to end with the writing of the results
MIN_PART_S = 20.0  # a part that would get less than this is skipped, not started to be killed
TIMEOUTS = {"device": 120.0, "sequence": 150.0, "training": 150.0, "attach": 60.0, "list": 30.0, "explain": 60.0}
SEQUENCE_SETTINGS = {
    "default": "",
    "expandable_segments:True": "expandable_segments:True",
    "max_split_size_mb:64": "max_split_size_mb:64",
}
TRAINING_SETTINGS = {"default": "", "expandable_segments:True": "expandable_segments:True"}
PARTS = ("sequence", "training", "nvml")
TRAIN_SCRIPT = REPO / "benchmarks" / "gpu_check" / "train_step.py"  # its protocol: --ready, --go, --result, --wait
BUNDLE_NAME = "gpu-check.tar.gz"
BUNDLE_LIMIT = 15 * MiB  # a file that comes back from the device machine may be 16 MiB at most


def _slug(label: str) -> str:
    return label.replace(":", "-")


# -- parts and their time -------------------------------------------------------------------------------------------


class Parts:
    """The time left to the whole check, and how each part ended (ok, failed, timeout, skipped)."""

    def __init__(self, budget_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.deadline = clock() + budget_s
        self.done: list[dict[str, Any]] = []

    def time_for(self, wanted: float) -> float:
        """The seconds a part may take: what it asks, no more than what is left of the budget."""
        return max(0.0, min(wanted, self.deadline - self.clock()))

    def record(self, name: str, status: str, seconds: float, note: str = "") -> None:
        self.done.append({"name": name, "status": status, "seconds": round(seconds, 2), "note": note})


def start(command: list[str], *, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A child in a process group of its own (so a timeout ends its children too), its output into `log`."""
    with open(log, "wb") as out:
        return subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=REPO, start_new_session=True
        )


def finish(process: subprocess.Popen[bytes], timeout: float) -> int | None:
    """The child's exit status, or None when it ran past `timeout` (it and its group are then killed)."""
    try:
        return process.wait(timeout=max(timeout, 0.0))
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None


def run(command: list[str], *, env: dict[str, str], timeout: float, log: Path) -> tuple[int | None, str]:
    rc = finish(start(command, env=env, log=log), timeout)
    return rc, log.read_text(errors="replace")


def tail(text: str, lines: int = 3) -> str:
    return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:])


def in_thread(fn: Callable[[], Any], timeout: float) -> tuple[bool, Any]:
    """fn() in a daemon thread: (True, its result), or (False, None) when it has not returned within `timeout` (a
    hung driver call must not hold up the rest of the check)."""
    box: list[Any] = []

    def target() -> None:
        try:
            box.append(fn())
        except Exception as e:
            box.append({"error": f"{type(e).__name__}: {e}"})

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    return (True, box[0]) if box else (False, None)


# -- the environment ------------------------------------------------------------------------------------------------


def base_env(socket_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    env.pop("PYTORCH_ALLOC_CONF", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    env["GPUMEM_GUI_PURE_PYTHON"] = "1"  # nothing is compiled on the device machine
    env["GPUMEM_GUI_SOCKET_DIR"] = str(socket_dir)  # the probe and attach meet here, whoever else runs
    env["PYTHONUNBUFFERED"] = "1"
    return env


def with_settings(env: dict[str, str], settings: str) -> dict[str, str]:
    return {**env, "PYTORCH_CUDA_ALLOC_CONF": settings} if settings else dict(env)


def check_device(python: str, env: dict[str, str], timeout: float) -> tuple[dict[str, Any] | None, str]:
    """(the device facts, "") where torch sees a CUDA device, else (None, why not, in a few words). Writes nothing:
    a machine without a GPU is left as it was."""
    if python == sys.executable and importlib.util.find_spec("torch") is None:
        return None, f"torch is not installed in {python}"
    with tempfile.TemporaryDirectory(prefix="gpu-check-") as scratch:
        command = [python, "-m", "benchmarks.gpu_check.real_run", "--device-info"]
        rc, output = run(command, env=env, timeout=timeout, log=Path(scratch) / "device-info.log")
    if rc is None:
        return None, f"asking torch for a device took over {timeout:.0f} s"
    lines = output.strip().splitlines()
    try:
        info = json.loads(lines[-1]) if rc == 0 and lines else None
    except json.JSONDecodeError:
        info = None
    if not isinstance(info, dict):
        return None, f"torch could not be asked ({tail(output, 1) or f'exit {rc}'})"
    if not info.get("cuda"):
        return None, f"torch {info.get('torch')} sees none (CUDA build: {info.get('cuda_build') or 'none'})"
    return info, ""


class Check:
    """What every part needs: the time left, the results folder, the jobs' Python and their environment."""

    def __init__(self, parts: Parts, folder: Path, python: str, env: dict[str, str], chosen: list[str]) -> None:
        self.parts, self.folder, self.python, self.env = parts, folder, python, env
        self.chosen = chosen


def missing_modules() -> list[str]:
    return [name for name in ("numpy", "psutil") if importlib.util.find_spec(name) is None]


# -- snapshots ------------------------------------------------------------------------------------------------------


def snapshot_facts(path: Path) -> dict[str, Any]:
    """What the project's own loader reads in a snapshot file: segments, reserved bytes, trace events, OOM events."""
    import numpy as np

    from gpumem_gui.core.snapshot.loader import load_snapshot
    from gpumem_gui.core.snapshot.model import Action

    snapshot = load_snapshot(path)
    traces = [snapshot.trace(d) for d in snapshot.devices()]
    return {
        "segments": len(snapshot.state.segments),
        "reserved": int(snapshot.state.segments.total_size.sum()),
        "events": sum(len(t) for t in traces),
        "oom_events": sum(int(np.count_nonzero(t.action == Action.OOM)) for t in traces),
        "devices": list(snapshot.devices()),
    }


def replay_facts(path: Path) -> dict[str, Any]:
    """The project's what-if replay of the real trace under the settings it was recorded with, as `gpumem-gui replay
    FILE` runs it (the device size guessed from the OOM)."""
    from gpumem_gui.core.allocator.replay import replay
    from gpumem_gui.core.snapshot.loader import load_snapshot

    result = replay(load_snapshot(path))
    return {
        "first_divergence": result.first_divergence,
        "recorded": vars(result.original),
        "replayed": vars(result.replayed),
    }


def _write_pickle(path: Path, data: Any) -> None:
    with open(path, "wb") as f:
        pickle.dump(data, f, protocol=4)


def _read_snapshot_dict(path: Path) -> Any:
    from gpumem_gui.core.snapshot.safe_unpickle import loads_no_globals

    return loads_no_globals(path.read_bytes())


# -- (b) the sequence -----------------------------------------------------------------------------------------------


def compare_sequence(label: str, settings: str, folder: Path, ops: list[dict[str, Any]]) -> dict[str, Any]:
    """The real run of one setting beside the simulator's run of the same operations."""
    from benchmarks.gpu_check.compare import compare_runs
    from benchmarks.gpu_check.sequence import without_private_pool
    from benchmarks.gpu_check.sim_run import device_addresses, run_on_simulator

    slug = _slug(label)
    real_path = folder / f"real-{slug}.pickle"
    record = json.loads((folder / f"real-{slug}.json").read_text())
    sim_ops = ops if record.get("private_pool", True) else without_private_pool(ops)
    real = {**record, "snapshot": _read_snapshot_dict(real_path)}
    capacity = int(record["device_total"])
    # the rules are what is checked: the simulator places each new range where the device's driver put it (the
    # driver's choice decides ties between equal free blocks); its run with addresses of its own is kept beside
    sim = run_on_simulator(sim_ops, capacity=capacity, settings=settings, addresses=device_addresses(real["snapshot"]))
    own = run_on_simulator(sim_ops, capacity=capacity, settings=settings)
    _write_pickle(folder / f"sim-{slug}.pickle", sim["snapshot"])
    own_comparison = compare_runs(real, own)
    out: dict[str, Any] = {
        "settings": settings,
        "real": {**record, "snapshot_file": real_path.name},
        "simulator": {k: v for k, v in sim.items() if k != "snapshot"} | {"snapshot_file": f"sim-{slug}.pickle"},
        "comparison": compare_runs(real, sim),
        "own_addresses": {"matched": own_comparison["matched"], "first_difference": own_comparison["first_difference"]},
    }
    try:
        out["real"]["loaded"] = snapshot_facts(real_path)
        out["replay"] = replay_facts(real_path)
    except Exception as e:  # the comparison stands without them; the reason is kept
        out["replay"] = {"error": f"{type(e).__name__}: {e}"}
    return out


def sequence_part(check: Check, seed: int) -> dict[str, Any]:
    from benchmarks.gpu_check.sequence import generate

    parts, folder, python, env = check.parts, check.folder, check.python, check.env
    ops = generate(seed)
    ops_file = folder / "sequence.json"
    ops_file.write_text(json.dumps(ops))
    runs: dict[str, Any] = {}
    timeout = parts.time_for(TIMEOUTS["sequence"])
    if timeout < MIN_PART_S:
        for label in SEQUENCE_SETTINGS:
            parts.record(f"sequence {label}", "skipped", 0.0, "no time left")
        return {"seed": seed, "operations": len(ops), "file": ops_file.name, "runs": runs}
    began = time.monotonic()
    started = {}
    for label, settings in SEQUENCE_SETTINGS.items():  # side by side: separate processes, a few hundred MiB each
        slug = _slug(label)
        command = [python, "-m", "benchmarks.gpu_check.real_run", str(ops_file)]
        command += [str(folder / f"real-{slug}.pickle"), str(folder / f"real-{slug}.json")]
        started[label] = start(command, env=with_settings(env, settings), log=folder / f"real-{slug}.log")
    for label, process in started.items():
        rc = finish(process, began + timeout - time.monotonic())
        seconds = time.monotonic() - began
        log = (folder / f"real-{_slug(label)}.log").read_text(errors="replace")
        if rc != 0:
            status = "timeout" if rc is None else "failed"
            parts.record(f"sequence {label}", status, seconds, tail(log))
            runs[label] = {"settings": SEQUENCE_SETTINGS[label], "error": tail(log, 8)}
            continue
        try:
            runs[label] = compare_sequence(label, SEQUENCE_SETTINGS[label], folder, ops)
            parts.record(f"sequence {label}", "ok", seconds)
        except Exception as e:
            parts.record(f"sequence {label}", "failed", seconds, f"comparing: {type(e).__name__}: {e}")
            runs[label] = {"settings": SEQUENCE_SETTINGS[label], "error": f"{type(e).__name__}: {e}"}
    return {"seed": seed, "operations": len(ops), "file": ops_file.name, "runs": runs}


# -- (c) NVML -------------------------------------------------------------------------------------------------------


def nvml_part(check: Check, pid: int | None, reserved: int | None) -> dict[str, Any]:
    from benchmarks.gpu_check.nvml_capture import cross_check, device_view, parse_attach_list

    parts, folder, python, env = check.parts, check.folder, check.python, check.env
    began = time.monotonic()
    timeout = parts.time_for(TIMEOUTS["list"])
    finished, view = in_thread(device_view, timeout)
    if not finished:
        view = {"error": f"the NVML reading took over {timeout:.0f} s", "devices": []}
    command = [python, "-m", "gpumem_gui", "attach", "--list"]
    rc, text = run(command, env=env, timeout=parts.time_for(TIMEOUTS["list"]), log=folder / "attach-list.log")
    attach = {"rc": rc, "text": text, **parse_attach_list(text)}
    result: dict[str, Any] = {"device_view": view, "attach_list": attach}
    if pid is not None:
        result["job"] = cross_check(view, attach, pid, reserved)
    ok = finished and rc == 0 and not view.get("error")
    note = "" if ok else (view.get("error") or f"attach --list: {'timeout' if rc is None else f'exit {rc}'}")
    parts.record("nvml", "ok" if ok else "failed", time.monotonic() - began, note)
    return result


# -- (a) the training step ------------------------------------------------------------------------------------------


def _wait_ready(process: subprocess.Popen[bytes], ready: Path, deadline: float) -> str | None:
    """None once the job says it is ready, else why it never will."""
    while not ready.exists():
        if process.poll() is not None:
            return f"the job ended (exit {process.returncode}) before it was ready"
        if time.monotonic() > deadline:
            return "the job was not ready in time"
        time.sleep(0.1)
    return None


def training_part(check: Check, label: str, results: dict[str, Any]) -> dict[str, Any]:
    parts, folder, python, env = check.parts, check.folder, check.python, check.env
    settings, slug, name = TRAINING_SETTINGS[label], _slug(label), f"training {label}"
    timeout = parts.time_for(TIMEOUTS["training"])
    if timeout < MIN_PART_S:
        parts.record(name, "skipped", 0.0, "no time left")
        return {"settings": settings}
    began, deadline = time.monotonic(), time.monotonic() + timeout
    ready, go, result = (folder / f"train-{slug}.{ext}" for ext in ("ready.json", "go", "json"))
    oom_dir, log = folder / f"oom-{slug}", folder / f"train-{slug}.log"
    command = [python, "-m", "gpumem_gui.probe", "--oom-dir", str(oom_dir)]
    command += [str(TRAIN_SCRIPT), "--ready", str(ready), "--go", str(go)]
    command += ["--result", str(result), "--wait", f"{timeout:.0f}"]
    job_env = with_settings(env, settings)
    process = start(command, env=job_env, log=log)
    out: dict[str, Any] = {"settings": settings}
    problem = _wait_ready(process, ready, deadline)
    if problem is not None:
        finish(process, 0)
        parts.record(name, "timeout" if "time" in problem else "failed", time.monotonic() - began, problem)
        out["error"] = f"{problem}: {tail(log.read_text(errors='replace'), 8)}"
        return out
    job = json.loads(ready.read_text())
    out["job"] = job
    if "nvml" in check.chosen and "nvml" not in results:  # (c) while a job with a probe holds the GPU
        results["nvml"] = nvml_part(check, int(job["pid"]), int(job["reserved"]))
    saved = folder / f"train-{slug}.pickle"
    attach_command = [python, "-m", "gpumem_gui", "attach", str(job["pid"]), "--once", "--save", str(saved)]
    attach_timeout = min(TIMEOUTS["attach"], max(deadline - time.monotonic(), 1.0))
    rc, text = run(attach_command, env=job_env, timeout=attach_timeout, log=folder / f"attach-{slug}.log")
    out["attach"] = {"rc": rc, "line": tail(text, 1), "file": saved.name}
    if rc == 0:
        out["attach"]["snapshot"] = snapshot_facts(saved)
    go.touch()
    rc = finish(process, deadline - time.monotonic())
    if rc != 0 or not result.exists():
        status = "timeout" if rc is None else "failed"
        parts.record(name, status, time.monotonic() - began, tail(log.read_text(errors="replace")))
        return out
    out["oom"] = json.loads(result.read_text())["oom"]
    captured = sorted(oom_dir.glob("*.pickle"))
    out["oom"]["captured_files"] = [p.name for p in captured]
    if captured:
        out["oom"]["captured"] = snapshot_facts(captured[0])
        explain = [python, "-m", "gpumem_gui", "explain", str(captured[0]), "--json"]
        explain_log = folder / f"explain-{slug}.json"
        rc, _ = run(explain, env=env, timeout=parts.time_for(TIMEOUTS["explain"]), log=explain_log)
        out["oom"]["explain_rc"] = rc
    ok = out["attach"]["rc"] == 0 and bool(captured) and out["oom"].get("raised")
    parts.record(name, "ok" if ok else "failed", time.monotonic() - began, "" if ok else "see training results")
    return out


def guarded(parts: Parts, name: str, part: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A part's results; a part that breaks (a bug, a file it expected and did not get) costs itself only: it is
    recorded as failed, with the reason, and the check goes on."""
    began = time.monotonic()
    try:
        return part()
    except Exception as e:
        parts.record(name, "failed", time.monotonic() - began, f"{type(e).__name__}: {e}")
        return {"error": f"{type(e).__name__}: {e}"}


# -- results --------------------------------------------------------------------------------------------------------


def bundle(folder: Path, target: Path, limit: int = BUNDLE_LIMIT) -> list[str]:
    """The whole folder as one gzip'd tar at `target`; the largest files are left out until it fits under `limit`.
    Returns the names left out."""
    files = sorted((p for p in folder.rglob("*") if p.is_file() and p != target), key=lambda p: p.stat().st_size)
    left_out: list[str] = []
    while True:
        with tarfile.open(target, "w:gz") as tar:
            for path in files:
                tar.add(path, arcname=str(Path(folder.name) / path.relative_to(folder)))
        if target.stat().st_size <= limit or not files:
            return left_out
        left_out.append(str(files.pop().relative_to(folder)))


def write_results(results: dict[str, Any], folder: Path, out: Path | None) -> list[str]:
    from benchmarks.gpu_check.summary import summary_lines

    lines = summary_lines(results)
    (folder / "summary.txt").write_text("\n".join(lines) + "\n")
    (folder / "results.json").write_text(json.dumps(results, indent=1, default=str))
    if out is not None:
        left_out = bundle(folder, out / BUNDLE_NAME)
        if left_out:
            results["left_out_of_bundle"] = left_out
            lines.append(f"left out of {BUNDLE_NAME} (over {BUNDLE_LIMIT // MiB} MiB): {', '.join(left_out)}")
            (folder / "summary.txt").write_text("\n".join(lines) + "\n")
            (folder / "results.json").write_text(json.dumps(results, indent=1, default=str))
        for name in ("results.json", "summary.txt"):
            shutil.copy(folder / name, out / name)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make gpu-check", description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", help="where the results go (default ./gpu-check-out, or a temporary "
                        "folder bundled into $OUT when that is set)")  # fmt: skip
    parser.add_argument("--python", default=sys.executable, help="the Python with torch for the jobs (default: this)")
    parser.add_argument(
        "--budget-s", type=float, default=BUDGET_S, help=f"the whole check's time (default {BUDGET_S:.0f})"
    )
    parser.add_argument("--seed", type=int, default=None, help="the operation sequence's seed (default sequence.py's)")
    parser.add_argument(
        "--parts",
        default=",".join(PARTS),
        help=f"which parts to run, comma-separated (default all: {','.join(PARTS)}); nvml runs during training",
    )
    args = parser.parse_args(argv)
    chosen = [p.strip() for p in args.parts.split(",") if p.strip()]
    if not chosen or set(chosen) - set(PARTS):
        parser.error(f"--parts takes some of {', '.join(PARTS)}")
    out = Path(os.environ["OUT"]) if os.environ.get("OUT") else None
    began = time.monotonic()
    parts = Parts(args.budget_s)
    socket_dir = Path(tempfile.mkdtemp(prefix="gpck", dir="/tmp" if os.path.isdir("/tmp") else None))
    env = base_env(socket_dir)
    device, why = check_device(args.python, env, parts.time_for(TIMEOUTS["device"]))
    if device is None:
        socket_dir.rmdir()
        print(f"gpu-check: needs a CUDA device: {why}", file=sys.stderr)
        return EXIT_NO_DEVICE
    missing = missing_modules()
    if missing:
        socket_dir.rmdir()
        print(f"gpu-check: {', '.join(missing)} missing in {sys.executable}: the check reads snapshots with them",
              file=sys.stderr)  # fmt: skip
        return EXIT_NO_DEVICE
    if args.folder:
        folder = Path(args.folder).resolve()
    elif out is not None:
        folder = Path(tempfile.mkdtemp(prefix="gpu-check-"))
    else:
        folder = (Path.cwd() / "gpu-check-out").resolve()
    folder.mkdir(parents=True, exist_ok=True)
    from benchmarks.gpu_check.sequence import DEFAULT_SEED

    results: dict[str, Any] = {"check": "gpumem-gui gpu-check", "folder": str(folder), "device": device}
    results["started"] = time.strftime("%Y-%m-%d %H:%M:%S %z")
    results["parts"] = parts.done
    seed = DEFAULT_SEED if args.seed is None else args.seed
    check = Check(parts, folder, args.python, env, chosen)
    try:
        if "sequence" in chosen:
            results["sequence"] = guarded(parts, "sequence", lambda: sequence_part(check, seed))
        if "training" in chosen:
            results["training"] = {}
            for label in TRAINING_SETTINGS:
                part = functools.partial(training_part, check, label, results)
                results["training"][label] = guarded(parts, f"training {label}", part)
        if "nvml" in chosen and "nvml" not in results:  # no job got as far as being ready: NVML on its own
            results["nvml"] = guarded(parts, "nvml", lambda: nvml_part(check, None, None))
    finally:
        shutil.rmtree(socket_dir, ignore_errors=True)
    results["seconds"] = round(time.monotonic() - began, 1)
    lines = write_results(results, folder, out)
    print("\n".join(lines))
    return 0 if all(p["status"] == "ok" for p in parts.done) else 1
