"""The sources' messages in the window's language: every template translated in ro and fr with its {fields}, the
attach dialog's notes on the socket folder, a probe's snapshot too big for the free space (its bytes grouped as the
language groups them), all said from their Sentence, none matched back from English."""

from __future__ import annotations

import os
import re
import string
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.sources import live, nvml, probe_client, probe_socket, rank_cluster, rank_folder, rank_shards
from gpumem_gui.sources.local_jobs import local_jobs
from gpumem_gui.sources.probe_client import ProbeError
from gpumem_gui.translations import FOLDER
from gpumem_gui.views.common import language
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.tasks import one_line
from gpumem_gui.views.live.attach import AttachDialog
from tests.test_attach_socket import _peer
from tests.translation_walk import english_words
from tests.translation_walk import settle as _settle

SOURCES = (probe_client, probe_socket, live, nvml, rank_folder, rank_cluster, rank_shards)


def _fields(template: str) -> set[str]:
    return {name.split(":")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def _translations(lang: str) -> dict[tuple[str, str], tuple[str, bool]]:
    """(context, source) -> (translation, finished) over every .ts of `lang`."""
    found = {}
    for ts in FOLDER.glob(f"*_{lang}.ts"):
        for context in ET.parse(ts).getroot().iter("context"):
            name = context.findtext("name") or ""
            for message in context.iter("message"):
                translation = message.find("translation")
                assert translation is not None
                done = translation.get("type") not in ("unfinished", "vanished", "obsolete")
                found[name, message.findtext("source") or ""] = (translation.text or "", done)
    return found


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_every_source_template_is_translated_with_the_same_fields(lang: str) -> None:
    translated = _translations(lang)
    templates = [t for module in SOURCES for t in module.MESSAGES]
    assert len(templates) > 50
    for template in templates:
        assert template.context, template  # glue is never a catalog's template
        translation, done = translated.get((template.context, template.template), ("", False))
        assert done and translation, f"{lang}: no finished translation of {template.context}: {template.template!r}"
        assert _fields(translation) == _fields(template.template), (template.template, translation)


def test_every_probe_refusal_of_wire_is_marked_for_the_window() -> None:
    from gpumem_gui.probe import wire  # noqa: PLC0415

    sent = {v for k, v in vars(wire).items() if k.startswith(("DIR_", "PEER_", "OP_")) and isinstance(v, str)}
    sent.add(wire.TOO_MANY_VIEWERS)
    assert sent == {t.template for t in probe_client.PROBE_REFUSALS}


def _figure(n: int, lang: str) -> str:
    return QtCore.QLocale(lang).toString(n)  # what the window's locale writes, worked out apart from Babel


@pytest.fixture
def in_language() -> object:
    yield language.set_language
    language.set_language("en")


def _note_with_path_left_out(text: str, path: Path) -> str:
    return text.replace(str(path), " ")


@pytest.mark.parametrize("lang", ["ro", "fr"])
@pytest.mark.parametrize("wrong", ["open", "file"])
def test_the_attach_dialog_says_what_is_wrong_with_the_socket_folder(
    qapp: QtWidgets.QApplication, tmp_path: Path, in_language, lang: str, wrong: str
) -> None:
    folder = tmp_path / "s"
    if wrong == "open":
        folder.mkdir(mode=0o700)
        folder.chmod(0o755)
    else:
        folder.write_text("")
    english = str(local_jobs(folder).probe_error)
    assert english == (
        f"socket folder {folder} is open to other users (mode 755); expected 0700"
        if wrong == "open"
        else f"socket folder {folder} is not a directory"
    )
    in_language(lang)
    dialog = AttachDialog(lambda: local_jobs(folder))
    try:
        deadline = QtCore.QDeadlineTimer(30_000)
        while dialog.found is None and not deadline.hasExpired():
            _settle()
        note = dialog.nvml_note.text()
    finally:
        dialog.tasks.cancel_all()
        dialog.tasks.wait()
        dialog.deleteLater()
    assert str(folder) in note
    rest = _note_with_path_left_out(note, folder)
    assert not english_words(rest, ["NVML", "GPU"]), note
    assert ("755" in note) == (wrong == "open")
    assert "socket folder" not in note and "expected" not in note and "directory" not in note


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_a_snapshot_too_big_for_the_free_space_is_said_with_the_language_s_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, in_language, lang: str
) -> None:
    real = os.fstatvfs
    free = 1 << 30

    def little_room(fd: int) -> os.statvfs_result:
        info = real(fd)
        return os.statvfs_result((info.f_bsize, 4096, 0, 0, free // 4096, *info[5:]))  # 1 GiB free

    monkeypatch.setattr(os, "fstatvfs", little_room)
    path = tmp_path / "peer.sock"
    with _peer(path, "huge"), (tmp_path / "x").open("wb") as out, pytest.raises(ProbeError) as refused:
        probe_socket.fetch_snapshot_into(path, out)
    message = one_line(refused.value)  # what a task hands the view
    length = int(re.search(r"\(([\d,]+) bytes\)", message)[1].replace(",", ""))  # type: ignore[index]
    assert length > free and f"({length:,} bytes) does not fit" in message
    in_language(lang)
    shown = said(message)
    assert _figure(length, lang) in shown and _figure(free, lang) in shown, shown
    assert f"{length:,}" not in shown and f"{free:,}" not in shown
    pid = re.search(r"pid (\d+)", message)[1]  # type: ignore[index]
    assert f" {pid} " in shown or f"-{pid} " in shown or f" {pid}(" in shown, shown  # the pid said as it is
    assert not english_words(shown), shown
