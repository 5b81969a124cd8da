"""The check's results in a few lines: what ran, what matched, and the first difference where something did not."""

from __future__ import annotations

from typing import Any

MiB = 1 << 20


def _mib(n: int | None) -> str:
    return "n/a" if n is None else f"{n / MiB:,.1f} MiB"


def _part_problem(results: dict[str, Any], name: str) -> str | None:
    """'timeout after 90 s: ...' for a part that did not end well, else None."""
    for part in results.get("parts") or []:
        if part["name"] == name and part["status"] != "ok":
            note = f": {part['note']}" if part.get("note") else ""
            return f"{part['status'].upper()} after {part['seconds']:.0f} s{note}"
    return None


def _sequence_line(label: str, run: dict[str, Any], problem: str | None) -> str:
    head = f"(b) sequence  {label:<26}"
    comparison = run.get("comparison")
    if comparison is None:
        return f"{head} {problem or 'no comparison'}"
    aspects = comparison["aspects"]
    events, calls = aspects["events"], aspects["device_calls"]
    real_calls = sum(calls["real"].values())
    facts = (
        f"events {events['real']}/{events['simulator']}, device calls {real_calls}/{sum(calls['simulator'].values())}"
        f", OOM {aspects['ooms']['real']['events']}/{aspects['ooms']['simulator']['events']}"
    )
    replay = run.get("replay") or {}
    if "first_divergence" in replay:
        at = replay["first_divergence"]
        facts += f"; gpumem-gui replay of the real trace {'never differs' if at is None else f'differs at event {at}'}"
    own = run.get("own_addresses")
    if own is not None:  # the simulator's run with addresses of its own: ties may break the other way
        facts += "; with its own addresses " + ("too" if own["matched"] else f"first at {own['first_difference']}")
    if comparison["matched"]:
        return f"{head} MATCH ({facts}; segments, block offsets and peaks alike)"
    same = [name for name in aspects if aspects[name]["matched"]]
    alike = f"; alike: {', '.join(same)}" if same else ""
    return f"{head} DIFFERS at {comparison['first_difference']} ({facts}{alike})"


def _training_line(label: str, run: dict[str, Any], problem: str | None) -> str:
    head = f"(a) training  {label:<26}"
    attach = run.get("attach") or {}
    oom = run.get("oom") or {}
    bits = []
    if attach.get("snapshot"):
        s = attach["snapshot"]
        bits.append(f"attach saved {s['segments']} segments, {_mib(s['reserved'])} reserved, {s['events']:,} events")
    elif attach:
        bits.append("attach timed out" if attach.get("rc") is None else f"attach failed (exit {attach['rc']})")
    if oom:
        captured = oom.get("captured") or {}
        if captured.get("oom_events"):
            bits.append(f"OOM raised and captured by the probe ({captured['oom_events']} oom event)")
        elif oom.get("raised"):
            bits.append("OOM raised but NOT captured by the probe")
        else:
            bits.append("no OOM raised")
    if problem:
        bits.append(problem)
    return f"{head} {'; '.join(bits) or 'did not run'}"


def _nvml_line(nvml: dict[str, Any]) -> str:
    view = nvml.get("device_view") or {}
    if view.get("error"):
        text = f"(c) NVML      {view['error']}"
    else:
        devices = view.get("devices") or []
        names = ", ".join(f"{d.get('name')} used {_mib(d.get('used'))} of {_mib(d.get('total'))}" for d in devices)
        text = f"(c) NVML      driver {view.get('driver_version')}, {len(devices)} GPU(s): {names}"
    attach = nvml.get("attach_list") or {}
    if attach:
        text += f"; attach --list {len(attach.get('rows') or [])} row(s)"
    job = nvml.get("job") or {}
    if job:
        seen = [where for where, key in (("device view", "in_device_view"), ("attach --list", "in_attach_list"))
                if job.get(key)]  # fmt: skip
        probe = ", probe yes" if job.get("attach_probe") else ""
        text += f"; job {job['pid']} in {' and '.join(seen) or 'neither'}{probe}"
    return text


def summary_lines(results: dict[str, Any]) -> list[str]:
    """The summary printed at the end and written to summary.txt."""
    device = results.get("device") or {}
    lines = [
        f"gpu-check: {device.get('name', 'no device')}, torch {device.get('torch', '?')}, "
        f"{_mib(device.get('total_memory'))}; {results.get('seconds', 0):.0f} s; results in {results.get('folder')}"
    ]
    for label, run in (results.get("training") or {}).items():
        lines.append(_training_line(label, run, _part_problem(results, f"training {label}")))
    sequence = results.get("sequence") or {}
    for label, run in (sequence.get("runs") or {}).items():
        lines.append(_sequence_line(label, run, _part_problem(results, f"sequence {label}")))
    if results.get("nvml"):
        lines.append(_nvml_line(results["nvml"]))
    runs = list((sequence.get("runs") or {}).values())
    matched = sum(1 for r in runs if (r.get("comparison") or {}).get("matched"))
    failed = [p["name"] for p in results.get("parts") or [] if p["status"] != "ok"]
    lines.append(
        f"simulator matched the device in {matched} of {len(runs)} settings; "
        + (f"parts that did not finish: {', '.join(failed)}" if failed else "every part finished")
    )
    return lines
