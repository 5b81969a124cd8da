"""The test suite's own rules: a real snapshot that should be there is never silently skipped, and waits end."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests import conftest


@pytest.fixture
def fixture_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(conftest, "FIXTURE_DIR", tmp_path / "snapshots")
    monkeypatch.delenv("CI", raising=False)
    return tmp_path / "snapshots"


def _outcome(name: str) -> tuple[str, str]:
    """What fixture_path(name) does, caught whatever it is: a skip escaping here would skip this test, not fail it."""
    try:
        return "returned", str(conftest.fixture_path(name))
    except pytest.skip.Exception as e:
        return "skipped", str(e)
    except pytest.fail.Exception as e:
        return "failed", str(e)


def test_a_present_fixture_is_returned(fixture_dir: Path) -> None:
    fixture_dir.mkdir()
    (fixture_dir / "a.pickle").write_bytes(b"x")
    assert _outcome("a.pickle") == ("returned", str(fixture_dir / "a.pickle"))


def test_a_file_missing_from_a_present_folder_fails(fixture_dir: Path) -> None:
    fixture_dir.mkdir()
    (fixture_dir / "a.pickle").write_bytes(b"x")
    (fixture_dir / "c.pickle").mkdir()  # a folder under a fixture's name is no fixture either
    for name in ("b.pickle", "c.pickle"):
        assert _outcome(name) == ("failed", f"{name} is missing from {fixture_dir}, where the real snapshots are")


def test_an_absent_folder_skips_outside_ci_and_fails_in_ci(fixture_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    absent = f"real snapshots not present ({fixture_dir})"
    assert _outcome("a.pickle") == ("skipped", absent)
    for value in ("true", "True", "1"):
        monkeypatch.setenv("CI", value)
        assert _outcome("a.pickle") == ("failed", f"{absent}, and CI needs them"), value
    monkeypatch.setenv("CI", "false")
    assert _outcome("a.pickle") == ("skipped", absent)


def test_the_real_fixtures_are_all_there_when_their_folder_is() -> None:
    if not conftest.FIXTURE_DIR.is_dir():
        pytest.skip(f"real snapshots not present ({conftest.FIXTURE_DIR})")
    assert {p.name for p in conftest.FIXTURE_DIR.glob("*.pickle")} >= set(conftest.FIXTURE_NAMES)


def test_wait_until_returns_when_the_condition_holds_and_fails_at_its_deadline() -> None:
    began = time.monotonic()
    conftest.wait_until(lambda: time.monotonic() - began > 0.05, timeout=5)
    assert time.monotonic() - began < 2
    with pytest.raises(pytest.fail.Exception, match=r"timed out after 0\.1 s waiting for nothing"):
        conftest.wait_until(lambda: False, timeout=0.1, what="nothing")
