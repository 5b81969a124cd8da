"""`gpumem-gui mcp`: the server driven through the MCP SDK's own client over stdio, as an agent's client drives it."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra: pip install 'gpumem-gui[mcp]'")

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

from gpumem_gui import assets
from gpumem_gui.cli import main

ROOT = Path(__file__).resolve().parents[1]
TOOLS = {"report", "explain", "diff", "ranks", "replay", "events", "stack"}


def _server(root: Path, home: Path) -> StdioServerParameters:
    env = {"PYTHONPATH": str(ROOT), "HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    for key in ("GPUMEM_GUI_PURE_PYTHON", "TMPDIR"):
        if key in os.environ:
            env[key] = os.environ[key]
    return StdioServerParameters(
        command=sys.executable, args=["-m", "gpumem_gui", "mcp", "--root", str(root)], env=env, cwd=str(ROOT)
    )


async def _session(params: StdioServerParameters, calls: list[tuple[str, dict[str, Any]]]) -> tuple[set[str], list]:
    with open(os.devnull, "w") as quiet:  # the server's log lines
        async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = {t.name for t in (await session.list_tools()).tools}
            results = [await session.call_tool(name, arguments) for name, arguments in calls]
    return listed, results


def _drive(tmp_path: Path, root: Path, calls: list[tuple[str, dict[str, Any]]]) -> tuple[set[str], list]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return anyio.run(_session, _server(root, home), calls)


def _cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(list(argv)) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_an_agent_lists_the_tools_and_explain_gives_the_remedies_the_cli_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = assets.example_path("fragmented_oom")
    listed, (explained, refused, ooms, stack) = _drive(
        tmp_path,
        path.parent,
        [
            ("explain", {"path": str(path), "top": 3}),
            ("report", {"path": "/etc/passwd"}),
            ("events", {"path": str(path), "kind": "ooms"}),
            ("stack", {"path": str(path), "event": 203, "limit": 2}),
        ],
    )
    assert listed >= TOOLS
    assert not explained.is_error, explained.content
    found = explained.structured_content
    cli = _cli_json(capsys, "explain", str(path), "--json")
    # the remedies are those the CLI verified by replay: expandable segments takes the OOM away (README's example)
    assert found["remedies"] == cli["remedies"]
    first = found["remedies"][0]
    assert (first["settings"], first["fits"]) == ("expandable_segments:True", True)
    assert found["schema_version"] == cli["schema_version"]
    # bounded: the three largest sites, the rest counted
    assert found["by_site"] == [s | {"frames": s["frames"][:12]} for s in cli["by_site"][:3]]
    assert found.get("truncated", {}).get("by_site", 0) == len(cli["by_site"]) - 3
    # a path outside the allowed folder: an error result of one line, nothing read
    assert refused.is_error
    message = refused.content[0].text
    assert "outside the folders this server may read" in message and "/etc/passwd" in message
    assert len(message.strip().splitlines()) == 1
    # the event list and a stack, read against the file's own trace entry
    with open(path, "rb") as f:
        raw = pickle.load(f)["device_traces"][0]
    (oom,) = [i for i, e in enumerate(raw) if e["action"] == "oom"]
    listed_ooms = ooms.structured_content
    assert [e["index"] for e in listed_ooms["events"]] == [oom] and listed_ooms["next_offset"] is None
    assert listed_ooms["events"][0]["size_bytes"] == raw[oom]["size"]
    frames = stack.structured_content
    assert frames["frames_total"] == len(raw[203]["frames"])
    assert [(f["filename"], f["line"]) for f in frames["frames"]] == [
        (f["filename"], f["line"]) for f in raw[203]["frames"][:2]
    ]
    jsonschema = pytest.importorskip("jsonschema")
    for name, document in (("explain", found), ("events", listed_ooms), ("stack", frames)):
        schema = json.loads((resources.files("gpumem_gui") / "schemas" / f"{name}.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema).validate(document)


def test_a_symbolic_link_out_of_the_root_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "allowed"
    root.mkdir()
    outside = tmp_path / "private.pickle"
    outside.write_bytes(assets.example_path("fragmented_oom").read_bytes())
    (root / "link.pickle").symlink_to(outside)
    _listed, (linked,) = _drive(tmp_path, root, [("report", {"path": str(root / "link.pickle")})])
    assert linked.is_error and "outside the folders" in linked.content[0].text


def test_without_root_or_without_the_sdk_the_command_says_so_in_one_line(tmp_path: Path) -> None:
    env = os.environ | {"PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    bare = subprocess.run(
        [sys.executable, "-m", "gpumem_gui", "mcp"], capture_output=True, text=True, env=env, check=False
    )
    assert bare.returncode == 2 and bare.stderr.strip().count("\n") == 0 and "--root" in bare.stderr
    # an interpreter where `import mcp` fails: a module named mcp that raises ImportError shadows the SDK
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "mcp").mkdir()
    (shadow / "mcp" / "__init__.py").write_text("raise ImportError('no mcp here')\n")
    env["PYTHONPATH"] = os.pathsep.join([str(shadow), str(ROOT)])
    missing = subprocess.run(
        [sys.executable, "-m", "gpumem_gui", "mcp", "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert missing.returncode == 2
    assert missing.stderr.strip() == "gpumem-gui mcp needs the MCP SDK: pip install 'gpumem-gui[mcp]'"
