"""Every --json output carries its schema_version and validates against its JSON Schema; a schema (hence an output)
cannot change without its version being bumped and the new fingerprint recorded."""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema", reason="the test extra: pip install 'gpumem-gui[test]'")

from gpumem_gui import assets  # noqa: E402
from gpumem_gui.cli import main  # noqa: E402
from gpumem_gui.json_documents import SCHEMA_VERSIONS  # noqa: E402
from tests.conftest import fixture_path  # noqa: E402

SCHEMAS = resources.files("gpumem_gui") / "schemas"

# (document, schema_version) -> sha256 of the schema's canonical JSON. A new version adds a line; a line once recorded
# never changes (gpumem_gui/schemas/README.md says how to bump).
RECORDED = {
    ("report", 1): "85f1fa3e37382a5a9752e4d991f44a6bb2304e9c67f8a14358b2a2c8b28439ad",
    ("explain", 1): "4b7e83adf1367c8c9f051801e7374af8419e01716692f6ccaa2126a80edfc618",
    ("explain", 2): "e4940d33e943683dc98edf42cf637f84091e576cdc1c4cb2820b8f02f8a8e443",
    ("explain", 3): "4f9651af2937c79bfb8a14ecd538f76e2d585fdf7a1e15941dcd3836a755bfb3",
    ("diff", 1): "6e6d158bdef57b31f1328369713a92462cd321d21e45c144238b71c05dd6f17f",
    ("ranks", 1): "b8e7dbdc1b17a40cb0f11e4a3260943a7f215859c5a9e6e51caa2485ebfaff6c",
    ("ranks", 2): "7d6e4fc323e74d2bafc23832e7340d91c670ba7b5b5171bf989e7d062871bcf6",
    ("replay", 1): "be83a22030a96fc393b3ca6a97b71373b03e205a81c2c79884f2c73f1270a1af",
    ("replay", 2): "55f0f83de15578145a477e59e6298e971b6b5d486482883c7fd10ec93702be8d",
    ("replay", 3): "b42ecde472c9884faf8223e2ab6771ded64c411fa3de36f87ba1a47047f18420",
    ("events", 1): "c97a0fd82e56f2707bacd389fbb647a03473f11819b8af7979e0d4210490d805",
    ("stack", 1): "29ebc2bd88d891f7e1a9eedeffd805e4821980a0c6eb62605e05d747ee386061",
    ("span", 1): "68f457c8ad3d56940637f12d6f3c75fd2f4362482999f87cb18f9ccb17f11452",
}


def _schema(name: str) -> dict[str, Any]:
    return dict(json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8")))


def fingerprint(schema: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(schema, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def validate(name: str, document: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(_schema(name)).validate(document)


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return dict(json.loads(capsys.readouterr().out))


@pytest.mark.parametrize("name", sorted(SCHEMA_VERSIONS))
def test_each_schema_is_valid_and_recorded_for_its_version(name: str) -> None:
    schema = _schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    version = SCHEMA_VERSIONS[name]
    assert schema["properties"]["schema_version"] == {"const": version, **{
        k: v for k, v in schema["properties"]["schema_version"].items() if k != "const"
    }}, "the schema's const and json_documents.SCHEMA_VERSIONS differ"  # fmt: skip
    assert "schema_version" in schema["required"]
    found = fingerprint(schema)
    assert (name, version) in RECORDED, (
        f"{name}.json is at version {version}, never recorded: add ({name!r}, {version}): {found!r} to RECORDED"
    )
    assert RECORDED[(name, version)] == found, (
        f"{name}.json changed without a version bump: raise its schema_version (the schema's const and"
        f" SCHEMA_VERSIONS[{name!r}]) and record the new fingerprint {found!r} (gpumem_gui/schemas/README.md)"
    )
    assert version == max(v for n, v in RECORDED if n == name), "a newer version is recorded than the code's"


def test_every_schema_file_is_a_document_the_code_versions() -> None:
    names = {p.name.removesuffix(".json") for p in SCHEMAS.iterdir() if p.name.endswith(".json")}
    assert names == set(SCHEMA_VERSIONS)


def test_a_schema_is_strict_enough_that_a_new_or_missing_key_fails(capsys: pytest.CaptureFixture[str]) -> None:
    document = _json(capsys, "explain", str(assets.example_path("fragmented_oom")), "--json")
    validate("explain", document)
    for changed in (
        document | {"narrative": "a key nobody declared"},
        {k: v for k, v in document.items() if k != "findings"},
        document | {"remedies": [document["remedies"][0] | {"verdict": "fits"}]},
        document | {"schema_version": document["schema_version"] + 1},
    ):
        with pytest.raises(jsonschema.ValidationError):
            validate("explain", changed)


EXAMPLES = ["fragmented_oom", "training_leak", "kv_cache_paged", "empty_cache_live_tensor"]
FIXTURES = ["constructor_memory_snapshot.pickle", "felix_dump_a.pickle", "silmont_mem_snapshot.pickle"]


@pytest.mark.parametrize("name", EXAMPLES + FIXTURES, ids=lambda n: Path(n).stem)
def test_report_explain_and_diff_validate(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    # resolved in the test: a checkout without the shared fixtures skips these, not the whole module
    path = str(fixture_path(name) if name in FIXTURES else assets.example_path(name))
    for command, argv in (
        ("report", ["report", path, "--json"]),
        ("explain", ["explain", path, "--json"]),
        ("diff", ["diff", path, path, "--json"]),
    ):
        document = _json(capsys, *argv)
        assert document["schema_version"] == SCHEMA_VERSIONS[command]
        assert next(iter(document)) == "schema_version"
        validate(command, document)


@pytest.mark.parametrize("name", [n for n in EXAMPLES + FIXTURES if "felix" not in n], ids=lambda n: Path(n).stem)
def test_replay_and_a_moment_validate(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(fixture_path(name) if name in FIXTURES else assets.example_path(name))
    validate("replay", _json(capsys, "replay", path, "--set", "expandable_segments:True", "--json"))
    validate("report", _json(capsys, "report", path, "--at", "0", "--json"))
    validate("diff", _json(capsys, "diff", path, path, "--at-a", "0", "--json"))


@pytest.mark.parametrize("name", ["training_leak", *FIXTURES], ids=lambda n: Path(n).stem)
def test_explain_span_validates(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(fixture_path(name) if name in FIXTURES else assets.example_path(name))
    if "felix" in name:  # a file without a trace has no span: one line says so
        assert main(["explain", path, "--span=-1:1", "--json"]) == 2
        assert "the file has no trace: a span needs one" in capsys.readouterr().err
        return
    for span in ("--span=-1:1", "--span=step:2") if name == "training_leak" else ("--span=-1:1",):
        document = _json(capsys, "explain", path, span, "--json")
        assert document["schema_version"] == SCHEMA_VERSIONS["span"] and next(iter(document)) == "schema_version"
        validate("span", document)
    with pytest.raises(jsonschema.ValidationError):
        validate("span", document | {"left_behind": {**document["left_behind"], "sites": []}})


def test_ranks_validates(capsys: pytest.CaptureFixture[str]) -> None:
    document = _json(capsys, "ranks", str(assets.example_path("fragmented_oom").parent), "--json", "--workers", "1")
    assert document["schema_version"] == SCHEMA_VERSIONS["ranks"] and document["ranks"]
    validate("ranks", document)
