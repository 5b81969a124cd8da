"""The window's translations are whole and current: every text the sources mark has a finished translation in ro and
fr, each .qm is what its .ts compiles to, the fields and the languages' typography are kept, and switching installs
one translator per area (and Qt's own) and takes them away again."""

from __future__ import annotations

import re
import shutil
import string
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.translations import AREAS, FOLDER, TRANSLATED
from gpumem_gui.translations.__main__ import release, tool, update
from gpumem_gui.views.common import language
from tests.test_glossary import GLOSSARY, violations

TOP = Path(__file__).resolve().parent.parent
PAIRS = [(area, lang) for area in AREAS for lang in TRANSLATED]


def messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    """(context, source) -> the <translation> element, for every message of `ts`."""
    found = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name", "")
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            found[name, message.findtext("source", "")] = translation
    return found


def translations(lang: str) -> list[tuple[str, str]]:
    """(source, translation) of every message in `lang`'s .ts files."""
    return [
        (source, element.text or "")
        for area in AREAS
        for (_context, source), element in messages(FOLDER / f"{area}_{lang}.ts").items()
    ]


@pytest.mark.parametrize(("area", "lang"), PAIRS, ids=str)
def test_every_marked_text_has_a_finished_translation(tmp_path: Path, area: str, lang: str) -> None:
    committed = FOLDER / f"{area}_{lang}.ts"
    fresh = tmp_path / committed.name
    shutil.copy(committed, fresh)
    update(area, lang, TOP, fresh)  # lupdate over the sources as they are now, keeping the translations
    now, before = messages(fresh), messages(committed)
    assert sorted(set(now) - set(before)) == [], f"texts not in {committed.name}: run make translations"
    assert sorted(set(before) - set(now)) == [], f"{committed.name} keeps texts the sources dropped"
    unfinished = [key for key, element in now.items() if element.get("type") == "unfinished" or not element.text]
    assert unfinished == [], f"{committed.name}: untranslated {unfinished}"


@pytest.mark.parametrize(("area", "lang"), PAIRS, ids=str)
def test_each_qm_is_what_its_ts_compiles_to(tmp_path: Path, area: str, lang: str) -> None:
    ts = FOLDER / f"{area}_{lang}.ts"
    release(ts, tmp_path / "fresh.qm")
    assert (tmp_path / "fresh.qm").read_bytes() == ts.with_suffix(".qm").read_bytes(), "run make translations"


def _fields(text: str) -> list[str]:
    return sorted({name.split(":")[0] for _, name, _, _ in string.Formatter().parse(text) if name is not None})


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_fields_and_the_accelerators(lang: str) -> None:
    for source, text in translations(lang):
        assert _fields(text) == _fields(source), (source, text)
        assert text.count("&") == source.count("&"), (source, text)  # a menu's shortcut letter, once


def test_french_puts_a_narrow_no_break_space_before_double_punctuation() -> None:
    # "Ouvrir : ..." with U+202F before : ; ? ! (not before the colon of code: expandable_segments:True)
    # an HTML entity's semicolon (&rarr;) is markup, not punctuation
    wrong = [
        text
        for _, text in translations("fr")
        if re.search(r"(?:[^\u202f]|^)[:;?!](?=\s|$)", re.sub(r"&#?\w+;", "", text))
    ]
    assert wrong == []
    assert any("\u202f:" in text for _, text in translations("fr"))


def test_romanian_writes_comma_below_and_the_formal_register() -> None:
    texts = [text for _, text in translations("ro")]
    assert not [t for t in texts if re.search("[şţŞŢ]", t)]  # cedillas: ș and ț take a comma below
    register = [c for c in GLOSSARY if c.lang == "ro"]
    problems = [line for t in texts for concept in register for line in violations(concept, "ts", t)]
    assert problems == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_french_counts_octets_and_no_text_says_bytes_in_english(lang: str) -> None:
    units = [t for _, t in translations(lang) if re.search(r"\b[KMG]iB\b" if lang == "fr" else r"\bGio\b", t)]
    assert units == []


def test_set_language_installs_one_translator_per_area_and_qt_s_own(qtbot: Any) -> None:
    label = QtWidgets.QLabel()
    qtbot.addWidget(label)
    try:
        language.set_language("fr")
        installed = [Path(p).name for p in language.installed_files()]
        assert sorted(installed) == sorted([f"{area}_fr.qm" for area in AREAS] + ["qtbase_fr.qm"])
        # Qt's own dialogs speak French too (qtbase_fr's "&Yes")
        assert QtCore.QCoreApplication.translate("QPlatformTheme", "&Yes") == "&Oui"
        assert QtCore.QCoreApplication.translate("MenuWindow", "&Quit") == "&Quitter"
        language.set_language("ro")  # Qt has no qtbase_ro: the window's own translators only
        assert sorted(Path(p).name for p in language.installed_files()) == sorted(f"{a}_ro.qm" for a in AREAS)
        assert QtCore.QCoreApplication.translate("MenuWindow", "&Quit") == "&Ieșire"
    finally:
        language.set_language("en")
    assert language.installed_files() == []
    assert QtCore.QCoreApplication.translate("MenuWindow", "&Quit") == "&Quit"


def test_a_tab_title_follows_a_switch(qtbot: Any) -> None:
    tabs = QtWidgets.QTabWidget()
    qtbot.addWidget(tabs)
    page = QtWidgets.QWidget()
    language.add_tab(tabs, page, language.QT_TRANSLATE_NOOP("Tabs", "cached segments"))
    try:
        language.set_language("ro")
        assert tabs.tabText(0) == "segmente în cache"
        language.set_language("fr")
        assert tabs.tabText(0) == "segments en cache"
    finally:
        language.set_language("en")
    assert tabs.tabText(0) == "cached segments"


def test_the_lupdate_of_this_environment_reads_python() -> None:
    # the tools come with PySide6: make translations needs nothing else
    out = subprocess.run([tool("pyside6-lupdate"), "-version"], capture_output=True, text=True, check=True)
    assert "lupdate" in out.stdout + out.stderr


def test_the_saved_language_is_the_window_s_then_the_quiz_s_then_the_system_s(tmp_path: Path) -> None:
    settings = QtCore.QSettings(str(tmp_path / "s.ini"), QtCore.QSettings.Format.IniFormat)
    assert language.saved_language(settings) == language.system_language()
    settings.setValue("quiz/language", "fr")  # chosen in the quiz before the window had a language
    assert language.saved_language(settings) == "fr"
    settings.setValue(language.SETTING, "ro")
    assert language.saved_language(settings) == "ro"
    settings.setValue(language.SETTING, "klingon")  # not a language of the window: the next one counts
    assert language.saved_language(settings) == "fr"


def test_every_translation_file_is_one_of_an_area_and_language() -> None:
    # a .ts or .qm no area names would be loaded (set_language takes every *_<lang>.qm) but never checked here
    expected = {f"{area}_{lang}.{ext}" for area, lang in PAIRS for ext in ("ts", "qm")}
    found = {p.name for p in FOLDER.iterdir() if p.suffix in (".ts", ".qm")}
    assert found == expected


def test_no_marked_text_hides_inside_an_f_string() -> None:
    # pyside6-lupdate does not read an f-string's fields: f"{self.tr('x')}" would never reach the .ts
    inside = re.compile(r"""\{(?:self\.tr\(\s*['"]|translate\(\s*['"][^'"]*['"]\s*,\s*['"])""")
    found = [
        f"{path.relative_to(TOP)}:{n}"
        for area in AREAS.values()
        for source in area
        for path in ([TOP / source] if source.endswith(".py") else sorted((TOP / source).rglob("*.py")))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if inside.search(line)
    ]
    assert found == []
