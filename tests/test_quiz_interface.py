"""The quiz panel's interface texts, without Qt: every key in every language, and clear errors for a broken file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.teach.quiz import LANGUAGES
from gpumem_gui.teach.quiz_interface import INTERFACE_PATH, InterfaceError, load_interface


def test_interface_file_has_every_text_in_every_language() -> None:
    interface = load_interface()
    for lang in LANGUAGES:
        assert interface("question_progress", lang, number=3, total=8).count("3") == 1
    assert {interface("language_name", lang) for lang in LANGUAGES} == {"English", "Română", "Français"}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.replace('fr = "Langue"', 'de = "Sprache"'), "language_label.de is not a quiz language"),
        (lambda s: s.replace(', fr = "Langue"', ""), "language_label.fr is missing"),
        (lambda s: s.replace("Question {number} sur {total}", "Question {numero} sur {total}"), "question_progress.fr"),
        (lambda s: s + 'extra = { en = "a", ro = "b", fr = "c" }\n', "unknown key 'extra'"),
        (lambda s: s.replace("start_again = ", "# start_again = "), "start_again is missing"),
        (lambda s: s + "[[", "not valid UTF-8 TOML"),
    ],
)
def test_a_broken_interface_file_says_what_is_wrong(tmp_path: Path, edit: Any, message: str) -> None:
    path = tmp_path / "quiz_interface.toml"
    path.write_text(edit(INTERFACE_PATH.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(InterfaceError, match=message):
        load_interface(path)
