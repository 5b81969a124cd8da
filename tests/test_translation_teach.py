"""The lab, the quiz dock, the compare views and the live view in Romanian and French through Qt's translators.

Each view is built in English, then the package's ro and fr .qm files are installed with plain QTranslators (as the
window's language switch does): every widget owned by views/teach, views/compare and views/live is walked (labels,
buttons, tabs, tooltips, table headers and cells, plot titles, axis labels, legends and text items) and no English
UI word may be left. The .ts files are checked too: every message finished, its placeholders kept, French spacing.
"""

from __future__ import annotations

import contextlib
import html
import re
import string
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyqtgraph as pg
import pytest
import pytestqt  # noqa: F401  (a test dependency: missing, the suite fails rather than skips)
from PySide6 import QtCore, QtWidgets

import gpumem_gui
from gpumem_gui.assets import example_path
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.document.document import SnapshotDocument
from gpumem_gui.document.staging import WhatIfRun, replay_document
from gpumem_gui.views.compare.whatif_view import WhatIfDialog, WhatIfView
from tests.translation_walk import shown_text

PACKAGE = Path(gpumem_gui.__file__).resolve().parent
TRANSLATIONS = PACKAGE / "translations"
REPO = PACKAGE.parent
AREAS = ("teach", "compare", "live")  # this test's areas: views/teach (and the lab), views/compare, views/live
LANGS = ("ro", "fr")
# the Python files lupdate reads for each area: the views, the lab's Qt-free labels, the language message
AREA_FILES = {
    "teach": ["gpumem_gui/views/teach/*.py", "gpumem_gui/views/teach/lab/*.py", "gpumem_gui/teach/lab/*.py",
              "gpumem_gui/views/common/language.py"],
    "compare": ["gpumem_gui/views/compare/*.py"],
    "live": ["gpumem_gui/views/live/*.py"],
}  # fmt: skip

# English words a translated interface must not show: words of this UI that neither Romanian nor French spells the
# same (not "total", "trace", "gradient", "activation", "machine", "final", "pause"), and no code names (fp32, aten.mm)
ENGLISH_WORDS = """the of and with for to from is be by at it its this that which what when where only also than
 more less each every none nothing one two all both not yes no in open save show hide run rerun refresh browse
 cancel replay detach resume record recording mark marked attach reading read could cannot waiting measuring measured
 measurement failed first figures peak peaks reserved allocated requested cached free layer layers selective
 policy held backward forward recompute recomputed width tokens works wrong error errors saving saved over matmul
 matmuls world size per sum ranks rank file files device memory event events before after recorded replayed
 never click drag timeline travel maps curves folder state live ended closed used outside time request gone since
 listed seconds bytes calls worst high median flags added removed changed kept blocks
 parameters optimizer refining chains longer timing times timed counted clock shared inside
 without keyword tensors detached output outputs ops storages alive returns
 excluded packed outer during highest started again under grad share same names saves early stop
 busy importing warming precision mixed rows input sequence features slope line unsharded
 flat padding split evenly slice prefetching instead counters shown there so process processes probe command
 user kind name red scheduler pointwise flops units wide"""
ENGLISH = frozenset(ENGLISH_WORDS.split())
# data, not words: quoted text (torch's own error) “…”, „…”, «…»; paths; settings in brackets ([256:1,>:4])
QUOTED = re.compile(r"“[^”]*”|„[^”]*”|«[^»]*»|\S*/\S*|\[[^\]]*\]")
ENGLISH_SIZE = re.compile(r"\d\.\d+ [KMGT]iB|\d,\d{3}\b")  # "1.5 MiB", "2,520": English decimals and grouping
FRENCH_UNIT = re.compile(r"\d\s?[KMGT]iB\b")  # French writes Kio, Mio, Gio


def _settle() -> None:
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LanguageChange.value)
    QtCore.QCoreApplication.processEvents()


@contextlib.contextmanager
def language(lang: str) -> Iterator[list[QtCore.QTranslator]]:
    """Every translation of the package in `lang` installed (as the window's switch does), removed afterwards."""
    installed = []
    for qm in sorted(TRANSLATIONS.glob(f"*_{lang}.qm")):
        translator = QtCore.QTranslator()
        assert translator.load(str(qm)), qm
        assert QtCore.QCoreApplication.installTranslator(translator)
        installed.append(translator)
    _settle()
    try:
        yield installed
    finally:
        for translator in installed:
            QtCore.QCoreApplication.removeTranslator(translator)
        _settle()


# -- the walker ----------------------------------------------------------------------------------------------------


def _area(widget: QtCore.QObject | None) -> str | None:
    """The views/<area> that owns a widget: the nearest one of its ancestors (itself included) that is one of ours."""
    while widget is not None:
        module = type(widget).__module__
        if module.startswith("gpumem_gui.views."):
            return module.split(".")[2]
        widget = widget.parent()
    return None


def _model_texts(model: QtCore.QAbstractItemModel, rows: int = 40) -> Iterator[str]:
    roles = (QtCore.Qt.ItemDataRole.DisplayRole, QtCore.Qt.ItemDataRole.ToolTipRole)
    for orientation in (QtCore.Qt.Orientation.Horizontal, QtCore.Qt.Orientation.Vertical):
        count = model.columnCount() if orientation == QtCore.Qt.Orientation.Horizontal else model.rowCount()
        for section in range(min(count, rows)):
            for role in roles:
                yield str(model.headerData(section, orientation, role) or "")
    for row in range(min(model.rowCount(), rows)):
        for column in range(model.columnCount()):
            for role in roles:
                yield str(model.data(model.index(row, column), role) or "")


def _graphics_texts(view: pg.GraphicsView) -> Iterator[str]:
    """Plot titles, axis labels, legend entries and text items of a pyqtgraph view."""
    for item in view.scene().items():
        if isinstance(item, pg.AxisItem):
            yield str(item.labelText or "")
        elif isinstance(item, pg.LabelItem):
            yield str(item.text or "")
        elif isinstance(item, pg.TextItem):
            yield item.textItem.toPlainText()


def widget_texts(widget: QtWidgets.QWidget) -> Iterator[str]:
    """What one widget shows or says when hovered (not its children's)."""
    yield widget.toolTip()
    if widget.isWindow() or isinstance(widget, QtWidgets.QDockWidget):
        yield widget.windowTitle()
    if isinstance(widget, QtWidgets.QLabel | QtWidgets.QAbstractButton):
        yield widget.text()
    elif isinstance(widget, QtWidgets.QLineEdit):
        yield widget.placeholderText()
    elif isinstance(widget, QtWidgets.QGroupBox):
        yield widget.title()
    elif isinstance(widget, QtWidgets.QProgressBar):
        yield widget.text()
    elif isinstance(widget, QtWidgets.QTabBar):
        for i in range(widget.count()):
            yield widget.tabText(i)
            yield widget.tabToolTip(i)
    elif isinstance(widget, QtWidgets.QComboBox):
        for i in range(widget.count()):
            yield widget.itemText(i)
            yield str(widget.itemData(i, QtCore.Qt.ItemDataRole.ToolTipRole) or "")
    elif isinstance(widget, QtWidgets.QAbstractItemView) and widget.model() is not None:
        yield from _model_texts(widget.model())
    elif isinstance(widget, pg.GraphicsView):
        yield from _graphics_texts(widget)


def shown_texts(root: QtWidgets.QWidget) -> list[tuple[str, str]]:
    """(where, text) of every text of the widgets under `root` owned by this test's areas."""
    found = []
    for widget in [root, *root.findChildren(QtWidgets.QWidget)]:
        if widget is not root and not widget.isVisibleTo(root):
            continue  # a page not shown (a tab behind, the quiz's chooser): worded when it shows
        if _area(widget) not in AREAS:
            continue  # a map or figures panel inside a demo: views/snapshot's, translated with the window
        where = f"{type(widget).__name__} {widget.objectName()}".strip()
        found += [(where, text) for text in widget_texts(widget) if text and text.strip()]
    return found


def english_left(texts: list[tuple[str, str]], lang: str) -> list[str]:
    """The texts with an English word, an English number or (in French) a byte unit in English."""
    left = []
    for where, text in texts:
        code = re.sub(r"<code[^>]*>.*?</code>", " ", text, flags=re.DOTALL)  # a command line, as it is
        plain = QUOTED.sub(" ", html.unescape(re.sub(r"<[^>]+>", " ", code)))
        words = [t.strip(".") for t in re.findall(r"[\w.]+", plain)]
        english = [w for w in words if w and not re.search(r"[\d_.]", w) and w.lower() in ENGLISH]
        if english or ENGLISH_SIZE.search(plain) or (lang == "fr" and FRENCH_UNIT.search(plain)):
            left.append(f"{where}: {english} in {text!r}")
    return left


def assert_translated(root: QtWidgets.QWidget, lang: str) -> list[tuple[str, str]]:
    texts = shown_texts(root)
    assert len(texts) > 5, texts  # the walk found the view's texts
    left = english_left(texts, lang)
    assert not left, "\n".join(left)
    return texts


def check_switches(root: QtWidgets.QWidget) -> dict[str, list[tuple[str, str]]]:
    """English as built, then ro, then fr with no English left, then English again: each switch applies at once."""
    seen = {"en": shown_texts(root)}
    assert english_left(seen["en"], "en")  # the premise: built in English, the walk sees English words
    for lang in LANGS:
        with language(lang):
            seen[lang] = assert_translated(root, lang)
    assert english_left(shown_texts(root), "en")  # the translators gone, English again at once
    return seen


# -- the .ts files -------------------------------------------------------------------------------------------------


def _fields(text: str) -> list[str]:
    return sorted({f"{name}:{spec}" if "|" not in spec else name
                   for _, name, spec, _ in string.Formatter().parse(text) if name})  # fmt: skip


def _messages(path: Path) -> Iterator[tuple[str, str, ET.Element]]:
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            yield name, message.findtext("source") or "", translation


@pytest.mark.parametrize("area", AREAS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_finished_in_the_learners_language(area: str, lang: str) -> None:
    glossary = tomllib.loads((REPO / "resources" / "glossary.toml").read_text(encoding="utf-8"))
    forbidden = [re.compile(f, re.IGNORECASE) for concept in glossary[lang].values() for f in concept["forbidden"]]
    messages = list(_messages(TRANSLATIONS / f"{area}_{lang}.ts"))
    assert len(messages) > 50
    for context, source, translation in messages:
        text = translation.text or ""
        where = f"{area}_{lang} {context}: {source!r} -> {text!r}"
        assert text and translation.get("type") is None, where  # finished, neither unfinished nor obsolete
        assert _fields(text) == _fields(source), where  # the same placeholders, plural forms apart
        assert not any(f.search(text) for f in forbidden), where  # the glossary's terms and register
        if lang == "ro":
            assert not re.search("[şţŞŢ]", text), where  # comma below, never the cedilla
        else:
            assert not re.search(r"\w [:;?!](\s|$)", text), where  # a narrow no-break space before : ; ? !
            assert not FRENCH_UNIT.search(text) and "MiB" not in text, where  # Kio, Mio, Gio


def test_the_language_is_read_from_the_translators(qtbot: Any) -> None:
    from gpumem_gui.views.common.language import current_language, pct, size  # noqa: PLC0415

    assert (current_language(), size(1536), pct(0.419, 1)) == ("en", "1.5 KiB", "41.9%")
    with language("ro"):
        assert (current_language(), size(1536), pct(0.419, 1)) == ("ro", "1,5\u00a0KiB", "41,9\u00a0%")
    with language("fr"):
        assert (current_language(), size(1536), pct(0.419, 1)) == ("fr", "1,5\u00a0Kio", "41,9\u00a0%")
    assert current_language() == "en"


# -- the views -----------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_lab_every_tab_in_ro_and_fr(qtbot: Any) -> None:
    from gpumem_gui.views.teach.lab.panel import TAB_API, TAB_FSDP, CheckpointLabPanel  # noqa: PLC0415

    panel = CheckpointLabPanel()
    panel.auto_run = False
    panel.n_values, panel.timing = (4, 9), False  # every figure the walk needs, in seconds
    panel.n_spin.setValue(9)
    qtbot.addWidget(panel)
    panel.resize(1300, 850)
    panel.show()
    panel.set_focus("api")  # the API table and the edited policy first, then the sweep and the FSDP calculator
    qtbot.waitUntil(lambda: panel.sweep is not None and panel.sweep.complete and not panel.busy(), timeout=120_000)
    assert panel.api_page.table_result is not None and panel.fsdp is not None
    panel.set_focus("sqrt")  # a focus marks the plots: "peak ..." on the saved-bytes plot
    for index in range(panel.tabs.count()):
        panel.tabs.setCurrentIndex(index)
        seen = check_switches(panel)
    texts = dict(seen["fr"])
    assert panel.tabs.tabText(TAB_FSDP) == "FSDP" and panel.tabs.tabText(TAB_API) == "checkpoint API"  # en again
    with language("ro"):
        assert panel.run_button.text() == "Rulați" and panel.tabs.tabText(TAB_API) == "API-ul checkpoint"
        cells = [panel.table.item(r, 1).text() for r in range(panel.table.rowCount())]
        assert all(re.fullmatch(r"\d+(,\d)?\u00a0[KM]iB \(\d+ act\.\)", c) for c in cells), cells
        assert panel.api_page.rerun.text() == "Rulați din nou politica"
    with language("fr"):
        assert panel.run_button.text() == "Lancer" and panel.fsdp_page.table.horizontalHeaderItem(0).text() == (
            "un GPU (non partitionné)"
        )
        cells = [panel.table.item(r, 1).text() for r in range(panel.table.rowCount())]
        assert all(re.fullmatch(r"\d+(,\d)?\u00a0[KM]io \(\d+ act\.\)", c) for c in cells), cells
        assert "sauvegardant" in panel.api_page.result.text() and "\u202f:" in panel.api_page.result.text()
        legend = [t for w, t in shown_texts(panel) if "PlotWidget" in w]
        assert "sans point de contrôle" in legend and "pic sur la passe avant + arrière" in " ".join(legend)
    assert texts  # walked in French
    panel.shutdown()


@pytest.fixture(scope="module")
def whatif_run() -> WhatIfRun:
    document = SnapshotDocument(load_snapshot(example_path("fragmented_oom")))
    return replay_document(document, ["expandable_segments:True"], None, lambda: None)


def test_the_whatif_view_and_its_dialog_in_ro_and_fr(qtbot: Any, whatif_run: WhatIfRun) -> None:
    view = WhatIfView(whatif_run)
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    check_switches(view)
    with language("fr"):
        header = shown_text(view.summary.text())
        assert "pic réservé" in header and "Gio" in header and "GiB" not in header and "\u202f:" in header
    with language("ro"):
        assert "vârf rezervat" in view.summary.text() and "după evenimentul" in view.titles[0].text()
    dialog = WhatIfDialog()
    qtbot.addWidget(dialog)
    check_switches(dialog)


def test_the_ranks_view_in_ro_and_fr(qtbot: Any, tmp_path: Path) -> None:
    from gpumem_gui.views.compare.ranks_view import RanksView  # noqa: PLC0415
    from tests.test_ranks_view import _write  # noqa: PLC0415

    _write(tmp_path / "rank0.pickle", 5, 0)
    _write(tmp_path / "rank1.pickle", 5, 1)
    _write(tmp_path / "oom_rank2.pickle", 5, 2, oom=True)
    _write(tmp_path / "rank3.pickle", 8, 3)
    (tmp_path / "rank4.pickle").write_bytes(b"not a pickle")
    view = RanksView()
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    with qtbot.waitSignal(view.loaded, timeout=60_000):
        view.load_folder(str(tmp_path))
    for tab in (0, 1):  # the bars, then the small plots of every rank
        view.charts.setCurrentIndex(tab)
        check_switches(view)
    with language("ro"):
        assert "4 fișiere, 4 ranguri." in view.status.text() and "(roșu)" in view.status.text()


def test_the_live_view_in_ro_and_fr(qtbot: Any, tmp_path: Path) -> None:
    from gpumem_gui.core.rules.allocator_constants import MiB  # noqa: PLC0415
    from gpumem_gui.sources.live import LiveSession  # noqa: PLC0415
    from gpumem_gui.views.live.live_ooms import OomCapture  # noqa: PLC0415
    from gpumem_gui.views.live.live_view import LiveView  # noqa: PLC0415
    from tests.probe_helpers import serve_simulated  # noqa: PLC0415

    server, backend = serve_simulated(tmp_path)
    backend.malloc(100 * MiB, [])
    view = LiveView(LiveSession(server.path, stats_interval=0.05))
    try:
        qtbot.addWidget(view)
        view.resize(1200, 800)
        view.show()
        qtbot.waitUntil(lambda: view.frames >= 1 and view.bar.figures is not None, timeout=20_000)
        view.pause_button.setChecked(True)  # no new frame or status line while the walk reads them
        view.ooms.add(OomCapture(ordinal=1, time=1_700_000_000.0, requested=512 * MiB, device=0, path=None))
        view.ooms.setVisible(True)
        check_switches(view)
        with language("fr"):
            assert view.pause_button.text() == "Reprendre" and "Mio" in view.bar.toolTip()
            assert view.ooms.summary.text().startswith("1 erreur de mémoire épuisée")
    finally:
        view.close_session()
        server.stop()


def test_the_quiz_dock_show_me_and_the_lab_in_ro_and_fr(qtbot: Any) -> None:
    from gpumem_gui.app import MainWindow  # noqa: PLC0415

    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1500, 950)
    window.show()
    try:
        panel = window.open_quiz("gpu-memory")
        quiz = panel.current_quiz
        assert quiz is not None
        # Show me on a what-if question: the comparison is ours, its maps the snapshot views'
        question = next(q for q in quiz.questions if q.demo == "expandable_whatif")
        window.show_demo(question)
        demo = window.wait_for_demo()
        assert isinstance(demo, WhatIfView)
        for lang in LANGS:
            panel.set_language(lang)  # the quiz's own texts, from its files; the chrome from the translators
            with language(lang):
                assert_translated(demo, lang)
                assert_translated(panel, lang)
        panel.set_language("en")
    finally:
        window.shutdown()


def test_the_diff_view_in_ro_and_fr(qtbot: Any, tmp_path: Path) -> None:
    from gpumem_gui.document.compare import CompareDocument  # noqa: PLC0415
    from gpumem_gui.views.compare.diff_view import DiffView  # noqa: PLC0415
    from tests.test_diff import _hand_made_pair  # noqa: PLC0415

    path_a, path_b, _blocks = _hand_made_pair(tmp_path)
    doc_a, doc_b = SnapshotDocument(load_snapshot(path_a)), SnapshotDocument(load_snapshot(path_b))
    view = DiffView(CompareDocument.open(doc_a, doc_b, None, None).diff, doc_a, doc_b)
    qtbot.addWidget(view)
    view.resize(1400, 900)
    view.show()
    check_switches(view)
    with language("fr"):
        figures = shown_text(view.figures.text())
        assert "blocs alloués\u202f: 2 ajoutés" in figures and "−2,0\u00a0Mio" in figures
        assert (
            view.sites.headerData(0, QtCore.Qt.Orientation.Horizontal, QtCore.Qt.ItemDataRole.DisplayRole)
            == "site d'appel"
        )
