"""The public Python API (gpumem_gui.api): each function on the bundled examples and a real fixture gives what the
CLI's --json gives; the notebook pictures are PNGs of the asked size; the public surface is the changelog's."""

from __future__ import annotations

import html
import inspect
import json
import re
import struct
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui import api, assets
from gpumem_gui.cli import main
from tests.conftest import fixture_path

ROOT = Path(__file__).resolve().parents[1]
OOM = str(assets.example_path("fragmented_oom"))


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return dict(json.loads(capsys.readouterr().out))


@pytest.fixture(scope="module")
def snap() -> api.Snapshot:
    return api.open(OOM)


def test_report_at_and_explain_are_the_cli_s_json(snap: api.Snapshot, capsys: pytest.CaptureFixture[str]) -> None:
    assert snap.report().to_dict() == _cli(capsys, "report", OOM, "--json")
    assert snap.report(device=0, at=100).to_dict() == _cli(
        capsys, "report", OOM, "--device", "0", "--at", "100", "--json"
    )
    assert snap.at(100).to_dict() == _cli(capsys, "report", OOM, "--device", "0", "--at", "100", "--json")
    found = snap.explain()
    cli = _cli(capsys, "explain", OOM, "--json")
    assert found.to_dict() == cli
    # the remedies as objects: expandable segments takes this OOM away (the replay says so, the JSON agrees)
    assert [r.settings for r in found.remedies] == [r["settings"] for r in cli["remedies"]]
    assert found.remedies[0].settings == "expandable_segments:True" and found.remedies[0].fits
    assert found.event == cli["moment"]["event"] == 203 and found.findings == cli["findings"]
    assert snap.explain(at=100).to_dict() == _cli(capsys, "explain", OOM, "--at", "100", "--json")


def test_diff_replay_and_ranks_are_the_cli_s_json(snap: api.Snapshot, capsys: pytest.CaptureFixture[str]) -> None:
    other = str(assets.example_path("training_leak"))
    assert snap.diff(at=10).to_dict() == _cli(capsys, "diff", OOM, OOM, "--at-a", "10", "--json")
    assert snap.diff(api.open(other), device=0).to_dict() == _cli(capsys, "diff", OOM, other, "--device", "0", "--json")
    cli = _cli(capsys, "replay", OOM, "--set", "expandable_segments:True", "--capacity", "16GiB", "--json")
    assert snap.replay("expandable_segments:True", capacity="16GiB").to_dict() == cli
    assert snap.replay(["expandable_segments:True"], capacity=16 * 2**30).to_dict() == cli
    folder = str(Path(OOM).parent)
    cli_ranks = _cli(capsys, "ranks", folder, "--json", "--workers", "1")
    assert api.ranks(folder, workers=1).to_dict() == cli_ranks
    with ThreadPoolExecutor(2) as pool:  # a scheduler of the caller's: the same table
        assert api.ranks(folder, scheduler=pool).to_dict() == cli_ranks


def test_sites_are_explain_s_sites_at_the_same_moment(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(fixture_path("constructor_memory_snapshot.pickle"))
    snap = api.open(path)
    cli = _cli(capsys, "explain", path, "--json")
    sites = snap.sites(at=cli["moment"]["event"], device=cli["device"]).to_dict()
    assert sites["by_site"] == cli["by_site"]
    assert sites["allocated_bytes"] == cli["allocated_bytes"] == sum(s["bytes"] for s in cli["by_site"])
    # without `at`: the snapshot's own state, whose allocated bytes are report's
    final = snap.sites(device=1).to_dict()
    reported = next(d for d in _cli(capsys, "report", path, "--json")["devices"] if d["device"] == 1)
    assert final["allocated_bytes"] == reported["allocated_bytes"]


def test_bad_input_raises_with_one_line(snap: api.Snapshot, tmp_path: Path) -> None:
    with pytest.raises(api.SnapshotError, match="device 3 has no segments"):
        snap.report(device=3)
    with pytest.raises(IndexError):
        snap.at(10_000)
    with pytest.raises(ValueError, match="'True' or 'False'"):
        snap.replay("expandable_segments:maybe")
    not_one = tmp_path / "notes.pickle"
    not_one.write_text("not a snapshot")
    with pytest.raises(api.SnapshotError) as e:
        api.open(not_one)
    assert "\n" not in str(e.value)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


@pytest.mark.slow
def test_notebook_pictures_are_pngs_of_the_map_and_the_site_timeline(snap: api.Snapshot) -> None:
    moment = snap.at(203)
    assert _png_size(moment._repr_png_()) == api.MAP_SIZE
    assert _png_size(snap.sites(at=203)._repr_png_()) == api.SITES_SIZE


# -- the public surface ----------------------------------------------------------------------------------------------


def public_surface() -> list[str]:
    """One line per public name of gpumem_gui.api: functions and methods with their signatures, classes' fields."""
    lines = []
    for name in api.__all__:
        obj = getattr(api, name)
        if inspect.isfunction(obj):
            lines.append(f"{name}{inspect.signature(obj)}")
        elif inspect.isclass(obj) and obj.__module__ == api.__name__:
            lines.append(f"class {name}{inspect.signature(obj)}")
            for attr, value in sorted(vars(obj).items()):
                if attr.startswith("_") and not attr.startswith("_repr_"):
                    continue
                if isinstance(value, property):
                    lines.append(f"{name}.{attr} (property)")
                elif inspect.isfunction(value):
                    lines.append(f"{name}.{attr}{inspect.signature(value)}")
        else:
            lines.append(f"{name} (re-exported from {obj.__module__})")
    return lines


def test_the_public_surface_is_the_one_the_changelog_lists() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- api-surface -->\n```text\n(.*?)```", text, re.S)
    assert found, "CHANGELOG.md lists the public API between <!-- api-surface --> and a ```text block"
    listed = found.group(1).splitlines()
    actual = public_surface()
    assert listed == actual, "gpumem_gui.api changed: say so in CHANGELOG.md and list the new surface:\n" + "\n".join(
        actual
    )


def test_printed_and_in_a_notebook_a_report_and_an_explanation_read_as_the_cli_prints_them(
    snap: api.Snapshot, capsys: pytest.CaptureFixture[str]
) -> None:
    for found, argv in ((snap.report(), ["report", OOM]), (snap.explain(), ["explain", OOM])):
        assert main(argv) == 0
        printed = capsys.readouterr().out
        assert str(found) + "\n" == printed and "OOM" in printed
        page = found._repr_html_()
        # the same lines in a fixed-width block, escaped: a frame like <module> stays text
        assert page.startswith("<pre>") and page.endswith("</pre>")
        assert html.unescape(page[len("<pre>") : -len("</pre>")]) == str(found)
