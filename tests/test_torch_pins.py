"""torch for users is a floor, torch for the tests an exact version: `pip install 'gpumem-gui[torch]'` into a training
environment keeps the user's torch, and `make test` (CI's `.ci/run`) installs the one version the suite is run on."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
FLOOR = Version("2.4")  # the lab's CheckpointPolicy and create_selective_checkpoint_contexts (torch.utils.checkpoint)
TESTED = Version("2.13.0")


def _torch_requirements() -> dict[str, Requirement]:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    found = {}
    for extra, requirements in extras.items():
        for text in requirements:
            requirement = Requirement(text)
            if requirement.name == "torch":
                found[extra] = requirement
    return found


def test_the_extras_ask_for_a_floor_not_a_version() -> None:
    found = _torch_requirements()
    assert set(found) == {"torch", "test"}
    for extra, requirement in found.items():
        # before: torch==2.13.0, which would replace a training environment's torch
        assert [(s.operator, Version(s.version)) for s in requirement.specifier] == [(">=", FLOOR)], extra
        assert requirement.specifier.contains(TESTED)


def test_make_test_installs_the_tested_torch_through_a_constraints_file() -> None:
    makefile = (ROOT / "Makefile").read_text()
    (path,) = re.findall(r"^CONSTRAINTS := (\S+)$", makefile, re.M)
    # the install goes through PIP_INSTALL (pip install -v, its progress lines picked out of the output)
    (macro,) = [line for line in makefile.splitlines() if line.startswith("PIP_INSTALL = ")]
    assert "pip install -v $(1)" in macro
    (install,) = [line for line in makefile.splitlines() if "PIP_INSTALL," in line and "[test]" in line]
    assert "-c $(CONSTRAINTS)" in install.split("-e")[0]  # before: no constraints file, the pin sat in the extra
    lines = (ROOT / path).read_text().splitlines()
    requirements = [Requirement(line) for line in lines if line and not line.startswith("#")]
    pins = {r.name: str(r.specifier) for r in requirements}
    assert pins["torch"] == f"=={TESTED}"
    # the others pin test tools (pytest-timeout, whose options tests/conftest.py sets): exact, and in the test extra
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(pins) <= {Requirement(text).name for text in extras["test"]}
    assert all(re.fullmatch(r"==[0-9.]+", specifier) for specifier in pins.values()), pins
    assert Version(Version(version("torch")).base_version) == TESTED  # the suite runs on it (2.13.0+cpu here)


def test_the_readme_says_the_floor_and_what_is_tested() -> None:
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert f"torch {FLOOR} or later" in readme
    assert f"Only torch {TESTED} (CPU) is tested" in readme
