"""The README's commands stay true: every `gpumem-gui` and probe command line it shows names a real subcommand and
real options (checked against each command's own --help), so the usage sections cannot drift from the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpumem_gui import cli
from gpumem_gui.probe import __main__ as probe_main

README = Path(__file__).resolve().parent.parent / "README.md"
PROBE = "python -m gpumem_gui.probe"
_ENV_ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")
_OPTION = re.compile(r"^\[?(--?[A-Za-z][\w-]*)")


def _code_lines(text: str) -> list[str]:
    """The lines of the README's shell code blocks (not the Python ones), comments and continuations joined, and
    its inline code spans."""
    lines: list[str] = []
    fence: str | None = None
    pending = ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped[3:].strip()
            continue
        if fence is None or fence not in ("", "sh", "bash", "console"):
            continue
        line = pending + re.sub(r"\s+#\s.*$", "", stripped)  # a comment after two spaces or more
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if line and not line.startswith("#"):
            lines.append(line)
    outside = re.sub(r"^[ \t]*```.*?^[ \t]*```", "", text, flags=re.M | re.S)  # the prose, fenced blocks taken out
    lines += [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", outside)]  # `gpumem-gui render ...`
    return lines


def _commands(text: str) -> list[tuple[str, list[str]]]:
    """(program, arguments) for each `gpumem-gui ...` and `python -m gpumem_gui.probe ...` in the code blocks."""
    found = []
    for line in _code_lines(text):
        for part in re.split(r"\s*(?:&&|;|\|)\s*", line.rstrip("& ")):
            words = part.split()
            while words and _ENV_ASSIGNMENT.match(words[0]):
                words.pop(0)  # `GPUMEM_GUI_SOCKET_DIR=... gpumem-gui attach PID`
            joined = " ".join(words)
            if words[:1] == ["gpumem-gui"]:
                found.append(("gpumem-gui", words[1:]))
            elif joined.startswith(PROBE + " ") or joined == PROBE:
                found.append((PROBE, joined[len(PROBE) :].split()))
    return found


def _help(program: str, sub: str | None, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        if program == PROBE:
            probe_main.main(["--help"])
        else:
            cli.main([sub, "--help"] if sub else ["--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def _options(program: str, args: list[str]) -> list[str]:
    """The option names a command line uses, up to the probe's target script (whose own options are its business)."""
    options = []
    for word in args:
        if program == PROBE and not word.startswith(("-", "[")) and word.endswith(".py"):
            break
        match = _OPTION.match(word)
        if match:
            options.append(match.group(1))
    return options


def test_the_readme_shows_the_commands_a_user_starts_with() -> None:
    commands = _commands(README.read_text(encoding="utf-8"))
    shown = {(program, args[0] if args else "") for program, args in commands}
    for expected in ["attach", "demo-job", "quiz", "report", "replay", "render"]:
        assert ("gpumem-gui", expected) in shown, f"the README shows no `gpumem-gui {expected}`"
    assert any(program == PROBE for program, _ in commands), "the README shows no probe command"


def test_every_readme_command_names_a_real_subcommand_and_real_options(capsys: pytest.CaptureFixture[str]) -> None:
    problems = []
    for program, args in _commands(README.read_text(encoding="utf-8")):
        line = " ".join([program, *args])
        if program == "gpumem-gui" and args and args[0] not in cli.COMMANDS:
            if args[0].startswith("-") and args[0] not in ("-h", "--help", "--version", "--user-code", "--library"):
                problems.append(f"{line}: {args[0]} is not an option of gpumem-gui")
            elif not args[0].startswith("-") and any(a.startswith("-") for a in args):
                problems.append(f"{line}: the window takes files only")  # `gpumem-gui FILE ...`
            elif re.fullmatch(r"[a-z][a-z-]*", args[0]):  # a file shown has an extension or is FILE
                problems.append(f"{line}: {args[0]} is not a subcommand ({', '.join(cli.COMMANDS)})")
            continue
        sub = args[0] if program == "gpumem-gui" and args else None
        text = _help(program, sub, capsys)
        rest = args[1:] if sub else args
        for option in _options(program, rest):
            if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text):
                problems.append(f"{line}: {option} is not in `{program} {sub or ''} --help`")
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_made_up_option(capsys: pytest.CaptureFixture[str]) -> None:
    """The check can fail: an option no command has is caught, in a block, after an environment assignment."""
    text = "```\nX=1 gpumem-gui attach PID --made-up-option /tmp/p.sock  # made up\n```\n"
    ((program, args),) = _commands(text)
    assert (program, args[0]) == ("gpumem-gui", "attach")
    assert "--made-up-option" in _options(program, args[1:])
    assert not re.search(r"(?<![\w-])--made-up-option(?![\w-])", _help(program, "attach", capsys))
