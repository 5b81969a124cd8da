"""What a window shows, as text, and the English left in it: for tests that switch the language and look.

`visible_texts(root)` walks every widget under `root` and collects what a user reads: labels, buttons, menus and
their actions, tab titles, dock and group titles, combo entries, placeholders, tooltips, item views' headers and
cells, text views, and in pyqtgraph plots the axis labels, legends and text items; a widget or plot item may add
what it paints itself with a `painted_texts()` method. `english_words(texts)` finds the common English words of an
interface in them, leaving out code (names with _ . ( ) = /, hexadecimal), units and the names the allowed list
keeps (torch, CUDA, OOM...). `opened_window(files, visit)` is the walks' window: the files open, each snapshot tab
visited (`visit_every_page`), English and closed again after."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.app.window import MainWindow
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.views.common import language
from gpumem_gui.views.snapshot.tab import SnapshotTab

MAX_ROWS = 40  # the cells of an item view looked at: its first rows (a table of blocks repeats itself)

# words that read as English in a window and in neither Romanian nor French; what the two languages share with
# English ("segments", "normal", "fragmentation", "pool", "stream", "cache", "total") is not in the list
ENGLISH = frozenset(
    (
        "the",
        "of",
        "and",
        "or",
        "to",
        "in",
        "at",
        "by",
        "for",
        "with",
        "from",
        "into",
        "onto",
        "over",
        "under",
        "after",
        "before",
        "since",
        "until",
        "about",
        "than",
        "then",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "is",
        "was",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "will",
        "would",
        "can",
        "cannot",
        "could",
        "should",
        "may",
        "not",
        "no",
        "yes",
        "all",
        "any",
        "each",
        "every",
        "some",
        "more",
        "most",
        "less",
        "least",
        "only",
        "also",
        "just",
        "here",
        "there",
        "what",
        "which",
        "who",
        "why",
        "how",
        "when",
        "where",
        "open",
        "opening",
        "close",
        "closed",
        "save",
        "export",
        "import",
        "cancel",
        "quit",
        "help",
        "view",
        "edit",
        "files",
        "folder",
        "show",
        "showing",
        "shown",
        "hide",
        "attach",
        "detach",
        "live",
        "devices",
        "device",
        "settings",
        "setting",
        "explain",
        "explained",
        "event",
        "events",
        "block",
        "blocks",
        "hole",
        "holes",
        "free",
        "freed",
        "allocated",
        "reserved",
        "requested",
        "request",
        "requests",
        "memory",
        "size",
        "largest",
        "smallest",
        "biggest",
        "waste",
        "rounding",
        "pending",
        "inactive",
        "split",
        "label",
        "labels",
        "row",
        "rows",
        "start",
        "end",
        "share",
        "width",
        "widths",
        "scale",
        "search",
        "match",
        "matches",
        "play",
        "address",
        "first",
        "last",
        "next",
        "previous",
        "peak",
        "grows",
        "growth",
        "flame",
        "span",
        "stack",
        "frames",
        "frame",
        "none",
        "left",
        "right",
        "top",
        "bottom",
        "time",
        "ago",
        "alive",
        "recording",
        "began",
        "name",
        "names",
        "value",
        "values",
        "count",
        "kind",
        "fits",
        "fit",
        "found",
        "warning",
        "alert",
        "looks",
        "look",
        "high",
        "low",
        "little",
        "much",
        "many",
        "few",
        "nothing",
        "something",
        "everything",
        "new",
        "old",
        "other",
        "others",
        "whole",
        "same",
        "read",
        "reading",
        "indexing",
        "grouping",
        "replaying",
        "allocator",
        "caching",
        "cached",
        "returns",
        "return",
        "would",
        "need",
        "needs",
        "needed",
        "asked",
        "ask",
        "tensors",
        "choose",
        "chosen",
        "click",
        "drag",
        "drop",
        "select",
        "selected",
        "selection",
        "list",
        "chart",
        "plot",
        "curve",
        "curves",
        "axis",
        "legend",
        "colour",
        "color",
        "coloured",
        "hue",
        "age",
        "mark",
        "compared",
        "guided",
        "lab",
        "language",
        "full",
        "screen",
        "libraries",
        "your",
        "you",
        "our",
        "we",
    )
)
# names, units and abbreviations every language writes as they are
ALLOWED = frozenset(
    (
        "b",
        "kib",
        "mib",
        "gib",
        "tib",
        "kio",
        "mio",
        "gio",
        "tio",
        "o",
        "µs",
        "ms",
        "s",
        "min",
        "h",
        "gpu",
        "gpus",
        "cpu",
        "cuda",
        "nvml",
        "nvidia",
        "smi",
        "torch",
        "pytorch",
        "oom",
        "ooms",
        "csv",
        "json",
        "pickle",
        "pkl",
        "gz",
        "png",
        "ctrl",
        "shift",
        "alt",
        "f2",
        "id",
        "pid",
        "rank",
        "ranks",
        "probe",
        "gpumem",
        "gui",
        "expandable_segments",
        "empty_cache",
        "record_stream",
        "cudamalloc",
        "cudafree",
        "malloc",
        "api",
        "ok",
    )
)
# code: a symbol between two letters or digits (torch.cuda.empty_cache, expandable_segments:True, a/b.py), a call
_CODE = re.compile(r"\S*\w[_./=\\@#:]\w\S*|\S*\(\)|0x[0-9a-f]+", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _plain(text: str) -> str:
    """The text of a label or a tooltip that may be rich text, as a reader sees it."""
    if "<" in text and ">" in text:
        return QtGui.QTextDocumentFragment.fromHtml(text).toPlainText()
    return text


def shown_text(text: str) -> str:
    """What a rich-text label shows of `text`, every character kept (U+00A0 and U+202F too): the words a reader sees,
    not the markup that holds them (views/common/rich_text wraps each narrow no-break space in a span)."""
    if "<" in text and ">" in text:
        return QtGui.QTextDocumentFragment.fromHtml(text).toRawText()
    return text


def _menu_texts(menu: QtWidgets.QMenu, where: str) -> Iterable[tuple[str, str]]:
    yield f"{where} menu", menu.title()
    for action in menu.actions():
        yield from _action_texts(action, where)


def _action_texts(action: QtGui.QAction, where: str) -> Iterable[tuple[str, str]]:
    if action.isSeparator():
        return
    submenu = action.menu()
    if isinstance(submenu, QtWidgets.QMenu):
        yield from _menu_texts(submenu, f"{where} > {submenu.title()}")
    else:
        yield f"{where} action", action.text()
        if action.toolTip() != action.text().replace("&", ""):  # Qt makes a tooltip of the text itself
            yield f"{where} action tooltip", action.toolTip()


def _model_texts(view: QtWidgets.QAbstractItemView, where: str) -> Iterable[tuple[str, str]]:
    model = view.model()
    if model is None:
        return
    display = QtCore.Qt.ItemDataRole.DisplayRole
    for column in range(model.columnCount()):
        yield f"{where} header", str(model.headerData(column, QtCore.Qt.Orientation.Horizontal, display) or "")

    def rows(parent: QtCore.QModelIndex, depth: int) -> Iterable[tuple[str, str]]:
        for row in range(min(model.rowCount(parent), MAX_ROWS)):
            for column in range(model.columnCount(parent)):
                index = model.index(row, column, parent)
                for role in (display, QtCore.Qt.ItemDataRole.ToolTipRole):
                    value = model.data(index, role)
                    if isinstance(value, str):
                        yield f"{where} cell {row},{column}", value
                if depth < 2 and column == 0 and model.rowCount(index) > 0:
                    yield from rows(index, depth + 1)

    yield from rows(QtCore.QModelIndex(), 0)


def _scene_texts(view: QtWidgets.QGraphicsView, where: str) -> Iterable[tuple[str, str]]:
    scene = view.scene()
    if scene is None:
        return
    for item in scene.items():
        if isinstance(item, pg.AxisItem):
            yield f"{where} axis", item.labelText or ""
        elif isinstance(item, pg.LabelItem):
            yield f"{where} label", item.text
        elif isinstance(item, pg.TextItem):
            yield f"{where} text", item.textItem.toPlainText()
        elif isinstance(item, QtWidgets.QGraphicsTextItem):
            yield f"{where} text", item.toPlainText()
        elif isinstance(item, QtWidgets.QGraphicsSimpleTextItem):
            yield f"{where} text", item.text()
        painted = getattr(item, "painted_texts", None)
        if callable(painted):
            for text in painted():
                yield f"{where} painted", text
        tip = item.toolTip() if isinstance(item, QtWidgets.QGraphicsItem) else ""
        if tip:
            yield f"{where} item tooltip", tip


def _widget_texts(w: QtWidgets.QWidget) -> Iterable[tuple[str, str]]:
    where = f"{type(w).__name__} {w.objectName()}".strip()
    yield f"{where} tooltip", w.toolTip()
    if isinstance(w, QtWidgets.QLabel | QtWidgets.QAbstractButton):
        yield where, w.text()
    elif isinstance(w, QtWidgets.QGroupBox):
        yield where, w.title()
    elif isinstance(w, QtWidgets.QDockWidget):
        yield where, w.windowTitle()
    elif isinstance(w, QtWidgets.QComboBox):
        for i in range(w.count()):
            yield f"{where} entry", w.itemText(i)
    elif isinstance(w, QtWidgets.QLineEdit):
        yield f"{where} placeholder", w.placeholderText()
    elif isinstance(w, QtWidgets.QTabBar):
        for i in range(w.count()):
            yield f"{where} tab", w.tabText(i)
            yield f"{where} tab tooltip", w.tabToolTip(i)
    elif isinstance(w, QtWidgets.QMenuBar):
        for action in w.actions():
            yield from _action_texts(action, "menu bar")
    elif isinstance(w, QtWidgets.QTextEdit | QtWidgets.QPlainTextEdit):
        yield where, w.toPlainText()
        yield f"{where} placeholder", w.placeholderText()
    # a header's model is its view's, a combo's popup list holds the combo's entries: read once, by their owner
    popup = isinstance(w.parent(), QtWidgets.QFrame) and isinstance(w.parent().parent(), QtWidgets.QComboBox)
    if isinstance(w, QtWidgets.QAbstractItemView) and not isinstance(w, QtWidgets.QHeaderView) and not popup:
        yield from _model_texts(w, where)
    if isinstance(w, QtWidgets.QGraphicsView):
        yield from _scene_texts(w, where)
    painted = getattr(w, "painted_texts", None)
    if callable(painted):
        for text in painted():
            yield f"{where} painted", text


def visible_texts(root: QtWidgets.QWidget) -> list[tuple[str, str]]:
    """(where, text) of every text a user can read under `root` (hidden pages of tab widgets included: a tab is a
    click away), rich text made plain; empty texts left out."""
    widgets = [root, *root.findChildren(QtWidgets.QWidget)]
    found = []
    for w in widgets:
        for where, text in _widget_texts(w):
            plain = _plain(text).replace("&&", "\0").replace("&", "").replace("\0", "&")  # a shortcut's marker
            if plain.strip():
                found.append((where, plain))
    return found


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English interface words in `text` (lower case): code, numbers and units and `allowed` left out."""
    keep = ALLOWED | {a.lower() for a in allowed}
    words = _WORD.findall(_CODE.sub(" ", text))
    return [w.lower() for w in words if w.lower() in ENGLISH and w.lower() not in keep]


def english_left(texts: Iterable[tuple[str, str]], allowed: Iterable[str] = ()) -> list[str]:
    """One line per text that still has English in it: where it is, the words, the text."""
    allowed = list(allowed)
    lines, seen = [], set()
    for where, text in texts:
        words = english_words(text, allowed)
        if words and text not in seen:  # a text repeated (the rows of a table) is said once
            seen.add(text)
            lines.append(f"{where}: {sorted(set(words))} in {text[:160]!r}")
    return lines


def settle() -> None:
    """Let the window finish what a click or a switch set going (posted events, queued repaints, short timers)."""
    for _ in range(5):
        QtWidgets.QApplication.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)


def switch_language(window: QtWidgets.QMainWindow, lang: str) -> None:
    """View > Language, as the user picks it (the window's language_group holds one action per language)."""
    group = window.language_group  # type: ignore[attr-defined]
    action = next(a for a in group.actions() if a.data() == lang)
    action.trigger()
    settle()


def wait_until(done: Callable[[], object], what: str = "it", seconds: float = 60) -> None:
    """Let the window work until `done()` (a page filled in the background, a report computed); fail after `seconds`."""
    timer = QtCore.QElapsedTimer()
    timer.start()
    while not done():
        assert timer.elapsed() < seconds * 1000, f"waited too long for {what}"
        settle()


def snapshot_tabs(window: MainWindow) -> list[SnapshotTab]:
    """The window's snapshot tabs, in their order."""
    return [w for w in (window.tabs.widget(i) for i in range(window.tabs.count())) if isinstance(w, SnapshotTab)]


def visit_every_page(tab: SnapshotTab, back_to_first: bool = True) -> None:
    """Show each page of every tab widget in `tab` (the side panel, the curves, the diagnosis: a page fills when
    first shown), then (`back_to_first`) the first of each again."""
    assert tab.scope is not None  # the last of its parts: every page is made
    for tabs in tab.findChildren(QtWidgets.QTabWidget):
        for i in range(tabs.count()):
            tabs.setCurrentIndex(i)
            settle()
        if back_to_first:
            tabs.setCurrentIndex(0)
    settle()


@contextlib.contextmanager
def opened_window(
    files: Sequence[str] = (),
    visit: Callable[[SnapshotTab], None] | None = None,
    size: tuple[int, int] | None = None,
) -> Iterator[MainWindow]:
    """A window of throwaway settings (`size` where given) with `files` open and loaded; each tab, a snapshot tab,
    made current in turn and handed to `visit`. After: back in English, closed and deleted."""
    with throwaway_settings() as settings:
        win = MainWindow(settings)
        if size is not None:
            win.resize(*size)
        win.show()
        try:
            if files:
                win.open_files(list(files))
                win.wait_for_loads()
            if visit is not None:
                for index in range(win.tabs.count()):
                    win.tabs.setCurrentIndex(index)
                    tab = win.tabs.widget(index)
                    assert isinstance(tab, SnapshotTab)
                    visit(tab)
            yield win
        finally:
            language.set_language("en")
            win.close()
            win.deleteLater()
            settle()
