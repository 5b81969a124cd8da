"""Spans of a trace: the training_leak example's steps against its raw trace walked by hand, a hand-made loop's
record_function ranges, the span's figures against the timeline's series, and explain --span on the command line."""

from __future__ import annotations

import itertools
import json
import pickle
from typing import Any

import numpy as np
import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.cli import main
from gpumem_gui.core import load_snapshot
from gpumem_gui.core.analysis.named_spans import named_spans, parse_span, range_spans, step_spans
from gpumem_gui.core.analysis.span import Span, span_report
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import KiB, MiB
from tests.conftest import fixture_path, load_raw
from tests.site_oracle import raw_site
from tests.test_growth import _hand_loop

LEAK_SITE = "model/transformer.py:160:forward"
FREES = ("free_requested", "free_completed")


def _raw_span(trace: list[dict[str, Any]], start: int, end: int) -> dict[str, dict[str, int]]:
    """Per kind (left_behind, temporaries, released), bytes by site, walking the raw entries: a block allocated at
    event a and first freed (requested or completed) at event f, inside the span when start < a <= end."""
    born: dict[int, tuple[int, int, str]] = {}  # addr -> (event, size, site)
    out: dict[str, dict[str, int]] = {"left_behind": {}, "temporaries": {}, "released": {}}

    def add(kind: str, size: int, site: str) -> None:
        out[kind][site] = out[kind].get(site, 0) + size

    for i, e in enumerate(trace[: end + 1]):
        if e["action"] == "alloc":
            born[e["addr"]] = (i, e["size"], raw_site(e.get("frames", [])) or "unknown")
        elif e["action"] in FREES and e["addr"] in born:
            at, size, site = born.pop(e["addr"])
            if i > start:
                add("temporaries" if at > start else "released", size, site)
    for at, size, site in born.values():
        if at > start:
            add("left_behind", size, site)
    return out


def _by_site(found: Any) -> dict[str, int]:
    return {s.site: s.bytes for s in found.by_site}


@pytest.fixture(scope="module")
def leak() -> tuple[Any, Any, list[dict[str, Any]]]:
    snap = load_snapshot(example_path("training_leak"))
    return snap, build_timeline(snap, 0), load_raw(example_path("training_leak"))["device_traces"][0]


def test_each_step_of_the_leaking_loop_leaves_behind_only_the_kept_hidden_state(leak: Any) -> None:
    snap, tl, raw = leak
    steps = step_spans(snap, tl)
    assert [s.name for s in steps] == [f"step {k}" for k in range(1, 7)]
    assert steps[0].start == -1 and steps[-1].end == tl.n_events - 1
    assert all(a.end == b.start for a, b in itertools.pairwise(steps))  # they tile the trace
    for span in steps[1:]:  # the first also holds the weights, gradients' first use and optimizer state made once
        report = span_report(snap, tl, span)
        assert [(s.site, s.bytes, s.blocks) for s in report.left_behind.by_site] == [(LEAK_SITE, 32 * MiB, 1)]
        by_hand = _raw_span(raw, span.start, span.end)
        for kind in ("left_behind", "temporaries", "released"):
            assert _by_site(getattr(report, kind)) == by_hand[kind], (span, kind)
        freed = report.freed  # its temporaries and what it released, together by site
        assert freed.bytes == report.temporaries.bytes + report.released.bytes
        assert _by_site(freed) == {
            site: by_hand["temporaries"].get(site, 0) + by_hand["released"].get(site, 0)
            for site in {*by_hand["temporaries"], *by_hand["released"]}
        }
        # what the span left behind less what it released is what allocated memory grew by, to the byte
        assert report.delta["allocated_bytes"] == report.left_behind.bytes - report.released.bytes == 32 * MiB


def test_a_span_s_peak_and_its_holders(leak: Any) -> None:
    snap, tl, raw = leak
    span = step_spans(snap, tl)[3]
    report = span_report(snap, tl, span)
    live: dict[int, int] = {}
    values = []
    for e in raw[: span.end + 1]:
        if e["action"] == "alloc":
            live[e["addr"]] = e["size"]
        elif e["action"] in FREES:
            live.pop(e["addr"], None)
        values.append(sum(live.values()))
    inside = values[span.start + 1 : span.end + 1]
    assert report.peak_bytes == max(inside) == report.peak_holders.bytes
    assert report.peak_event == span.start + 1 + inside.index(max(inside))
    # four hidden states are alive then: those of the three steps before and this step's own
    assert _by_site(report.peak_holders)[LEAK_SITE] == 4 * 32 * MiB
    assert report.at_start["allocated_bytes"] == int(tl.series.allocated[span.start])
    assert report.at_end["reserved_bytes"] == int(tl.series.reserved[span.end])


def test_record_function_ranges_are_spans_by_name() -> None:
    dump, ticks, sizes = _hand_loop()
    snap = load_snapshot(pickle.dumps(dump))
    tl = build_timeline(snap, 0)
    ranges = range_spans(snap, tl)
    index_of = {e["time_us"]: i for i, e in enumerate(dump["device_traces"][0])}
    assert [(s.name, s.start, s.end) for s in ranges] == [
        (f"ProfilerStep#{k}", index_of[a] - 1, index_of[b]) for k, (a, b) in enumerate(ticks)
    ]
    assert [s.name for s in named_spans(snap, tl)][-5:] == [s.name for s in ranges]
    report = span_report(snap, tl, parse_span("ProfilerStep#2", snap, tl))
    # kept each step: 3 MiB remembered and 256 KiB of stats (a block of the size the simulator gave)
    stat = next(size for i, size in sizes.items() if dump["device_traces"][0][i]["size"] == 256 * KiB)
    assert _by_site(report.left_behind) == {"loop.py:20:remember": 3 * MiB, "loop.py:30:log_stat": stat}
    assert _by_site(report.temporaries) == {"loop.py:10:load_batch": 8 * MiB, "loop.py:12:scratch": 4 * 2 * MiB}
    assert report.released.blocks == 0


def test_spans_are_read_from_text_and_bad_ones_named(leak: Any) -> None:
    snap, tl, _ = leak
    assert parse_span("10:20", snap, tl) == Span(10, 20)
    assert parse_span("-1:5", snap, tl) == Span(-1, 5)
    assert parse_span("step:2", snap, tl) == parse_span("step 2", snap, tl) == step_spans(snap, tl)[1]
    for text, words in (
        ("20:10", "not within the trace"),
        (f"0:{tl.n_events}", "not within the trace"),
        ("step:7", "not one of the 6 steps"),
        ("nonsense", "not a span"),
    ):
        with pytest.raises(ValueError, match=words):
            parse_span(text, snap, tl)


def test_a_real_fixture_s_spans_agree_with_its_series() -> None:
    snap = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    device = snap.default_device()
    tl = build_timeline(snap, device)
    n = tl.n_events
    for start, end in ((-1, n - 1), (n // 3, 2 * n // 3), (n - 2, n - 1)):
        report = span_report(snap, tl, Span(start, end))
        assert report.delta["allocated_bytes"] == report.left_behind.bytes - report.released.bytes
        assert report.peak_bytes == int(tl.series.allocated[start + 1 : end + 1].max())
        assert sum(s.bytes for s in report.left_behind.by_site) == report.left_behind.bytes
        freed = report.freed
        assert freed.bytes == report.temporaries.bytes + report.released.bytes == sum(s.bytes for s in freed.by_site)
        assert freed.blocks == report.temporaries.blocks + report.released.blocks
    assert span_report(snap, tl, Span(n // 3, 2 * n // 3)).released.blocks > 0  # the union above was tried


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_explain_span_names_the_leak_as_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(example_path("training_leak"))
    code, out, _ = _run(capsys, "explain", path, "--span", "step:4")
    assert code == 0
    assert "Allocated in the span and still alive at its end: 32.0 MiB in 1 block\n" in out
    left = out.split("still alive at its end")[1].split("\n\n")[0].splitlines()[1:]
    assert [line.split() for line in left] == [["32.0", "MiB", "1", "block", LEAK_SITE]]
    code, out, _ = _run(capsys, "explain", path, "--span", "step:4", "--json")
    document = json.loads(out)
    assert code == 0 and document["span"]["name"] == "step 4"
    assert document["left_behind"]["by_site"] == [{"site": LEAK_SITE, "bytes": 32 * MiB, "blocks": 1}]
    start, end = document["span"]["start"], document["span"]["end"]
    code, out, _ = _run(capsys, "explain", path, f"--span={start}:{end}", "--json")
    assert json.loads(out)["left_behind"] == document["left_behind"]
    for bad, words in (("--span=9:3", "not within the trace"), ("--span=step:0", "not one of the 6 steps")):
        code, _, err = _run(capsys, "explain", path, bad)
        assert code == 2 and words in err and err.count("\n") == 1
    code, _, err = _run(capsys, "explain", path, "--span", "step:1", "--at", "3")
    assert code == 2 and "--at or --span" in err


def test_diff_of_one_file_between_two_moments(capsys: pytest.CaptureFixture[str], leak: Any) -> None:
    snap, tl, _ = leak
    span = step_spans(snap, tl)[2]
    path = str(example_path("training_leak"))
    code, out, _ = _run(capsys, "diff", path, "--at-a", str(span.start), "--at-b", str(span.end), "--json")
    document = json.loads(out)
    assert code == 0 and document["a"]["file"] == document["b"]["file"]
    assert document["by_site"] == [
        {"site": LEAK_SITE, "bytes_delta": 32 * MiB, "added_bytes": 32 * MiB, "removed_bytes": 0}
    ]
    assert np.int64(document["delta"]["allocated_bytes"]) == span_report(snap, tl, span).delta["allocated_bytes"]
