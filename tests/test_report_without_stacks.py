"""`report` reads no stacks (issue 35, target 3): its JSON is the full reader's, byte for byte, on every real fixture
and bundled example, in both twins; the frames it passes over are still checked (the same errors), and a skipped
frames list named outside the trace reads as the file has it."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui import assets
from gpumem_gui.cli import main
from gpumem_gui.core.analysis.report import build_report
from gpumem_gui.core.snapshot import convert
from gpumem_gui.core.snapshot.errors import SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import NO_STACK
from gpumem_gui.json_documents import report_document
from tests.conftest import FIXTURE_NAMES, fixture_path, load_raw

# names at collection, paths when a test runs (no fixture resolved at import: tests/test_suite_collects.py)
NAMES = [*FIXTURE_NAMES, *(f"example:{n}" for n in assets.example_names())]


def _path(name: str) -> Path:
    return assets.example_path(name.removeprefix("example:")) if name.startswith("example:") else fixture_path(name)


def _full_report_json(path: Path) -> str:
    """The oracle: the report document of the snapshot read whole, stacks and all, as `report --json` printed it."""
    snapshot = load_snapshot(path)
    return json.dumps(report_document(snapshot, build_report(snapshot)), indent=2) + "\n"


@pytest.mark.parametrize("name", NAMES)
def test_report_json_is_the_full_readers(name: str, twin: str, capsys: Any) -> None:
    path = _path(name)
    expected = _full_report_json(path)
    capsys.readouterr()
    assert main(["report", str(path), "--json"]) == 0
    assert capsys.readouterr().out == expected
    # and it did read no stack: the same file read whole has some (all but two fixtures record none)
    bare, whole = load_snapshot(path, stacks=False), load_snapshot(path)
    assert len(bare.stacks) == 0 and len(bare.stacks.frames) == 0
    assert all((t.stack == NO_STACK).all() for t in bare.traces)
    assert (bare.state.blocks.stack == NO_STACK).all() and (bare.state.segments.stack == NO_STACK).all()
    assert [len(t) for t in bare.traces] == [len(t) for t in whole.traces]


@pytest.mark.skipif(convert._columns is None, reason="compiled kernels not built")
def test_the_compiled_reader_skips_frames_in_one_pass_on_every_file(monkeypatch: pytest.MonkeyPatch) -> None:
    # the first free of a kind (its action string is new) is read opcode by opcode and names the frames list its
    # allocation's entry passed over: that must not send the file to the standard unpickler
    monkeypatch.delenv("GPUMEM_GUI_PURE_PYTHON", raising=False)
    for path in map(_path, NAMES):
        assert convert.snapshot_from_pickle_fast(path.read_bytes(), path.name, stacks=False) is not None, path.name


def _with_trace_change(change: Any) -> bytes:
    raw: dict[str, Any] = load_raw(fixture_path("silmont_mem_snapshot.pickle"))
    change(raw["device_traces"][0], raw)
    return pickle.dumps(raw, protocol=4)


def _frames_not_a_list(trace: list[dict[str, Any]], raw: dict[str, Any]) -> None:
    trace[40]["frames"] = 7


def _frame_not_a_dict(trace: list[dict[str, Any]], raw: dict[str, Any]) -> None:
    trace[40]["frames"] = [*trace[40]["frames"][:2], "model.py:12", *trace[40]["frames"][2:]]


def _block_frame_not_a_dict(trace: list[dict[str, Any]], raw: dict[str, Any]) -> None:
    raw["segments"][0]["blocks"][0]["frames"] = [None]


@pytest.mark.parametrize("change", [_frames_not_a_list, _frame_not_a_dict, _block_frame_not_a_dict])
def test_frames_not_read_are_still_checked(change: Any, twin: str) -> None:
    data = _with_trace_change(change)
    with pytest.raises(SnapshotError) as whole:
        load_snapshot(data)
    with pytest.raises(SnapshotError) as bare:
        load_snapshot(data, stacks=False)
    assert str(bare.value) == str(whole.value)
    assert "frame" in str(whole.value)


def test_a_skipped_frames_list_named_elsewhere_reads_as_the_file_has_it(twin: str) -> None:
    # a hand-made file: an annotation after the trace names an allocation's frames list, which the compiled reader
    # passed over (stacks=False); it must give up that shortcut, not hand out a stand-in
    def annotate(trace: list[dict[str, Any]], raw: dict[str, Any]) -> None:
        # the last entry whose frames an earlier entry has too: a new list of frame dicts pickled before, and an
        # action string pickled before, which the reader reads in one pass
        seen: set[int] = set()
        later = []
        for entry in trace:
            if entry.get("frames"):
                if id(entry["frames"]) in seen:
                    later.append(entry)
                seen.add(id(entry["frames"]))
        later[-1]["frames"] = list(later[-1]["frames"])
        raw["external_annotations"] = [{"stage": "forward", "frames": later[-1]["frames"]}]

    data = _with_trace_change(annotate)
    expected = pickle.loads(data)["external_annotations"]
    bare = load_snapshot(data, stacks=False)
    assert bare.external_annotations == expected
    assert [len(t) for t in bare.traces] == [len(t) for t in load_snapshot(data).traces]
