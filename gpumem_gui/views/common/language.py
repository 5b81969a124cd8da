"""The window's one language: switching it (a QTranslator per compiled translation, Qt's own for the standard dialogs)
and writing figures as it does (sizes, numbers, percentages and plurals, by Babel via teach's wording).

Widgets set their static texts in a `retranslate()` called from `__init__` and from `changeEvent` on
QEvent.LanguageChange, which Qt sends to every widget when `set_language` installs the new translators: a switch
shows at once, without reopening anything. The language is read from the installed translators (every .qm of this
package translates the "Language" context's "en" into its own code), so figures change with the words, and no
translator means English: "1,5 GiB" in ro, "1,5 Gio" in fr (number and unit tied by a no-break space in both, so
a wrapped label never parts them; teach's wording.size_units writes it).
"""

from __future__ import annotations

import functools
import json
import re
import weakref
from collections.abc import Mapping
from decimal import Decimal

import shiboken6
from babel.numbers import get_group_symbol, parse_decimal
from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.site_series import OTHER_LABEL
from gpumem_gui.core.analysis.site_tree import LINE
from gpumem_gui.core.snapshot.backward_nodes import BACKWARD_OF, ENGINE_WORDS, NOT_RECORDED
from gpumem_gui.core.snapshot.units import SUFFIXES, UNIT_BYTES, format_bytes
from gpumem_gui.teach.demos.wording import Count, localize, number, percent
from gpumem_gui.translations import FOLDER

LANGUAGES = ("en", "ro", "fr")
NAMES = {"en": "English", "ro": "Română", "fr": "Français"}  # each in its own language, as a menu lists them
SETTING = "language"  # the QSettings key of the window's language; the quiz's, QUIZ_SETTING, is kept the same
QUIZ_SETTING = "quiz/language"

_installed: list[QtCore.QTranslator] = []
_switched_to = ["en"]  # what set_language installed last (current_language reads the translators themselves)


class _Notifier(QtCore.QObject):
    changed = QtCore.Signal(str)


_notifier: list[_Notifier] = []


def notifier() -> _Notifier:
    """Its `changed(lang)` is emitted after every switch (for what is not a widget, or keeps texts in another way)."""
    if not _notifier:
        _notifier.append(_Notifier())
    return _notifier[0]


def qt_translations_folder() -> str:
    return QtCore.QLibraryInfo.path(QtCore.QLibraryInfo.LibraryPath.TranslationsPath)


def set_language(lang: str) -> None:
    """Show the whole application in `lang` ("en", "ro" or "fr"): the previous translators removed, one installed for
    every `*_<lang>.qm` of gpumem_gui/translations and Qt's own `qtbase_<lang>` (where Qt has one)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    app = QtCore.QCoreApplication.instance()
    if app is None:
        raise RuntimeError("set_language needs the QApplication made first")
    if lang == _switched_to[0]:
        return
    while _installed:
        app.removeTranslator(_installed.pop())
    if lang != "en":
        for qm in sorted(FOLDER.glob(f"*_{lang}.qm")):
            _install(app, str(qm))
        qtbase = QtCore.QDir(qt_translations_folder()).filePath(f"qtbase_{lang}.qm")
        if QtCore.QFileInfo.exists(qtbase):
            _install(app, qtbase)
    _switched_to[0] = lang
    _retitle_tabs()
    _refresh_item_views()
    notifier().changed.emit(lang)


# -- tab titles: each page keeps its title's source text and fields, retitled on every switch ------------------------

_TITLE = "translated_title"  # a page's dynamic property: (context, source text, fields)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Marks `text` for pyside6-lupdate, in `context`; translated where it is shown (tab_title, translate)."""
    return text


def translate(context: str, text: str, fields: Mapping[str, object] | None = None) -> str:
    """`text` (marked with QT_TRANSLATE_NOOP or self.tr elsewhere) in the current language, `fields` filled in."""
    translated = QtCore.QCoreApplication.translate(context, text)
    return translated.format_map(fields) if fields else translated


TABS = "Tabs"  # the one context of tab titles


def tab_title(tabs: QtWidgets.QTabWidget, page: QtWidgets.QWidget, text: str, **fields: object) -> None:
    """Title `page`'s tab with `text` (a literal marked QT_TRANSLATE_NOOP("Tabs", text)), `fields` filled in; it is
    retitled in the new language on every switch (page titles are set by whoever adds the page, not by the page)."""
    # a property holds a string, not a tuple: the three kept as JSON
    page.setProperty(_TITLE, json.dumps([TABS, text, {k: str(v) for k, v in fields.items()}]))
    _TAB_WIDGETS.add(tabs)
    index = tabs.indexOf(page)
    if index >= 0:
        tabs.setTabText(index, translate(TABS, text, fields))


def add_tab(tabs: QtWidgets.QTabWidget, page: QtWidgets.QWidget, text: str, at: int | None = None) -> int:
    """Add `page` to `tabs` (at index `at`, else last) titled `text` in the current language (see tab_title)."""
    index = tabs.addTab(page, text) if at is None else tabs.insertTab(at, page, text)
    tab_title(tabs, page, text)
    return index


# what a switch retitles and asks again: tab widgets that titled a page through tab_title, and the item models of
# translated headers and cells (translated_model). Walking QApplication.allWidgets() instead once wrapped a widget
# on its way out and took the process down with a segfault.
_TAB_WIDGETS: weakref.WeakSet[QtWidgets.QTabWidget] = weakref.WeakSet()
_MODELS: weakref.WeakSet[QtCore.QAbstractItemModel] = weakref.WeakSet()


def translated_tabs(tabs: QtWidgets.QTabWidget) -> None:
    """`tabs` has close buttons (or titles) worded by Qt or tab_title: a switch words them again."""
    _TAB_WIDGETS.add(tabs)


def translated_model(model: QtCore.QAbstractItemModel) -> None:
    """`model` words its headers or cells in the window's language: a switch makes its views ask again."""
    _MODELS.add(model)


def _retitle_tabs() -> None:
    close = QtCore.QCoreApplication.translate("CloseButton", "Close Tab")  # Qt sets it once, when a tab is added
    for tabs in list(_TAB_WIDGETS):
        if not shiboken6.isValid(tabs):
            continue
        bar = tabs.tabBar()
        for index in range(tabs.count()):
            for side in (QtWidgets.QTabBar.ButtonPosition.LeftSide, QtWidgets.QTabBar.ButtonPosition.RightSide):
                button = bar.tabButton(index, side)
                if isinstance(button, QtWidgets.QAbstractButton) and button.toolTip():
                    button.setToolTip(close)
            page = tabs.widget(index)
            source = page.property(_TITLE) if page is not None else None
            if isinstance(source, str):
                context, text, fields = json.loads(source)
                tabs.setTabText(index, translate(context, text, fields))


def _refresh_item_views() -> None:
    """Translated models tell their views that every header and cell changed: they are worded again."""
    for model in list(_MODELS):
        if not shiboken6.isValid(model):
            continue
        rows, columns = model.rowCount(), model.columnCount()
        if columns:
            model.headerDataChanged.emit(QtCore.Qt.Orientation.Horizontal, 0, columns - 1)
        if rows and columns:
            model.dataChanged.emit(model.index(0, 0), model.index(rows - 1, columns - 1))


def _install(app: QtCore.QCoreApplication, path: str) -> None:
    translator = QtCore.QTranslator(app)
    if translator.load(path):
        app.installTranslator(translator)
        _installed.append(translator)


class LanguageAwareApplication(QtWidgets.QApplication):
    """The window's QApplication: it tells the language cache itself when Qt says the translators changed, where
    an application-wide event filter would be handed every event of every object (each paint, timer, layout
    request: a Python call each, some 180 per travel through a trace) to find this one."""

    def event(self, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.LanguageChange:  # sent to the application as a translator comes or goes
            _forget()
        return super().event(event)


class _LanguageCache(QtCore.QObject):
    """Forgets the language known when it may change: Qt sends the application a LanguageChange whenever a
    translator is installed or removed (set_language's, or a test's own); the application going, too. Another
    QApplication than LanguageAwareApplication (a host program's) is watched by an event filter."""

    def __init__(self, app: QtCore.QCoreApplication) -> None:
        super().__init__(app)
        if not isinstance(app, LanguageAwareApplication):
            app.installEventFilter(self)
        self.destroyed.connect(_forget)

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            _forget()
        return False


_known: list[str | None] = [None]  # what the translators said, until they change (figures ask it per figure)
_watching: list[_LanguageCache] = []


def _forget() -> None:
    _known[0] = None


def current_language() -> str:
    """en, ro or fr: the language of the translators installed now (set_language's, or a test's own)."""
    lang = _known[0]
    if lang is not None:
        return lang
    app = QtCore.QCoreApplication.instance()
    if app is None:  # no application: nothing tells a change, ask each time
        return _asked()
    if not _watching or not shiboken6.isValid(_watching[0]):
        _watching[:] = [_LanguageCache(app)]
    _known[0] = lang = _asked()
    return lang


def _asked() -> str:
    # the one message every .qm translates into its own language code: lupdate finds it here
    return QtCore.QCoreApplication.translate("Language", "en")


def installed_files() -> list[str]:
    """The files of the translators installed now (for tests and the About box)."""
    return [t.filePath() for t in _installed]


def system_language() -> str:
    """The system locale's language when the window has it (ro, fr), else English."""
    code = QtCore.QLocale.system().name().split("_")[0]
    return code if code in LANGUAGES else "en"


def saved_language(settings: QtCore.QSettings) -> str:
    """The language chosen last (View > Language or the quiz's; a quiz language chosen before the window had one
    counts), else the system's."""
    for key in (SETTING, QUIZ_SETTING):
        saved = str(settings.value(key, ""))
        if saved in LANGUAGES:
            return saved
    return system_language()


def choose(lang: str, settings: QtCore.QSettings) -> None:
    """The user chose `lang` (View > Language or the quiz's combo): saved as the window's language and the quiz's
    (its panel reads its own key when it opens), and the application switched."""
    settings.setValue(SETTING, lang)
    settings.setValue(QUIZ_SETTING, lang)
    set_language(lang)


# core.analysis.categories' CATEGORY_LABELS (core is Qt-free): translated where a category is named
CATEGORY_WORDS = (
    QT_TRANSLATE_NOOP("Categories", "parameters"),
    QT_TRANSLATE_NOOP("Categories", "gradients"),
    QT_TRANSLATE_NOOP("Categories", "optimizer state"),
    QT_TRANSLATE_NOOP("Categories", "activations"),
    QT_TRANSLATE_NOOP("Categories", "temporaries"),
    QT_TRANSLATE_NOOP("Categories", "unknown"),
    QT_TRANSLATE_NOOP("Categories", "allocated before recording began"),
    QT_TRANSLATE_NOOP("Categories", "library workspaces (cuBLAS, cuDNN, NCCL)"),
    QT_TRANSLATE_NOOP("Categories", "weight copies made by autocast"),
    QT_TRANSLATE_NOOP("Categories", "inputs moved to the device"),
)


def category_word(label: str) -> str:
    """A category's label (CATEGORY_LABELS) in the window's language."""
    return QtCore.QCoreApplication.translate("Categories", label)


SITES = "Sites"  # the context of the words core puts in a site's label (core.snapshot.stacks, backward_nodes)
_BACKWARD_OF = re.compile(re.escape(BACKWARD_OF).replace(re.escape("{op}"), r"(\w+)"))
_OTHER = re.compile(r"other \((\d+) sites?\)")  # site_series.other_label's band of the sites outside the top N
_LINE = re.compile(LINE.replace("{line}", r"(\d+)"))  # site_tree's node of a line


def site_words(label: str) -> str:
    """A site's label with the words core wrote in it in the window's language: a nameless site ("unknown",
    "allocated before recording began"), the autograd engine's work ("backward of bmm", "forward line not
    recorded"); the code it names (files, lines, functions, the node's class) as it is."""
    lang = current_language()
    return label if lang == "en" else _site_words(label, lang)


@functools.lru_cache(maxsize=1 << 14)
def _site_words(label: str, _lang: str) -> str:  # per language: the translators installed for it
    translate_site = functools.partial(QtCore.QCoreApplication.translate, SITES)
    whole = translate_site(label)
    if whole != label:
        return whole
    if other := _OTHER.fullmatch(label):
        return filled(translate_site(OTHER_LABEL), {"n": other.group(1)}, _lang)
    if line := _LINE.fullmatch(label):
        return translate_site(LINE).format(line=line.group(1))
    for phrase in (*ENGINE_WORDS, NOT_RECORDED):
        if phrase in label:
            label = label.replace(phrase, translate_site(phrase))
    return _BACKWARD_OF.sub(lambda m: translate_site(BACKWARD_OF).format(op=m.group(1)), label)


_BYTES = QT_TRANSLATE_NOOP("Units", "bytes")  # format_bytes_exact's "1.5 GiB (1,610,612,736 bytes)"
# Qt's own texts where Qt ships no translation (qtbase has no Romanian): the window's .ts carries them
QT_OWN = (
    QT_TRANSLATE_NOOP("CloseButton", "Close Tab"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Cancel"),  # a dialog's button box (the input dialogs, Your Code...)
)


class Shown(str):
    """A text already written as the window's language writes it (a figure localized, a sentence said): `filled`
    puts it in as it is (written again, "805.306.368" would be read as an English decimal and become
    "805,306.368"); `{x:capital}` writes it with a capital."""

    def __format__(self, spec: str) -> str:
        return self[:1].upper() + self[1:] if spec == "capital" else format(str(self), spec)


def localized(english: str, lang: str | None = None) -> Shown:
    """A figure written in English ("1.5 GiB", "41.9%", "2,520", "1.5 GiB (1,610,612,736 bytes)") as `lang` (by
    default the current language) writes it."""
    lang = current_language() if lang is None else lang
    if english[:1] in "<>~" and len(english) > 1:  # "<0.1%": the bound as it is, the figure localized
        return Shown(english[0] + localized(english[1:], lang))
    text = localize(english, lang)
    if "bytes" in text and lang != "en":
        text = re.sub(r"(?<=\d[ \u00a0])bytes\b", QtCore.QCoreApplication.translate("Units", _BYTES), text)
    return Shown(text)


def size(n: float) -> Shown:
    """`n` bytes as the language writes them: "1.5 GiB", ro "1,5 GiB", fr "1,5 Gio" (in ro and fr the number and
    its unit tied by a no-break space, U+00A0: a wrapped label never parts them)."""
    return localized(format_bytes(n))


def signed_size(n: float) -> str:
    """A byte difference with its sign: "+1.5 GiB", "−512 B"; "0" for none."""
    return "0" if n == 0 else ("+" if n > 0 else "−") + size(abs(n))


def num(value: float, decimals: int = 0) -> str:
    """A number grouped as the language groups it ("2,520", ro "2.520", fr "2 520")."""
    return number(value, current_language(), decimals)


def pct(fraction: float, decimals: int = 0) -> str:
    """A fraction as a percentage: 0.419 -> "41.9%", ro and fr "41,9 %"."""
    return percent(fraction * 100, current_language(), decimals)


def count(n: int) -> Count:
    """A count for a template: `{n}` writes it grouped, `{n:file|files}` the noun form it takes (ro one|few|other)."""
    return Count(n, current_language())


def unit_word(unit: str) -> str:
    """A byte unit alone ("GiB") as the current language writes it ("Gio" in French)."""
    return _unit_in(unit, current_language())


def _unit_in(unit: str, lang: str) -> str:
    return localize(f"1 {unit}", lang).split(None, 1)[1]  # after a plain or a no-break space


# -- sizes typed into the window: read back as the language writes them, and as English always ---------------------

_NOT_A_SIZE = QT_TRANSLATE_NOOP("Units", 'not a size: "{text}" (try {big}, {small} or a byte count)')
# a number (digits, its language's separators, spaces between groups) and a unit of letters, any space between
_SIZE_TEXT = re.compile(r"(?P<number>-?[\d.,\s]*\d)\s*(?P<unit>[^\W\d_]*)")


def parse_size(text: str, lang: str | None = None) -> int:
    """A size typed into the window, in bytes, read as `lang` (by default the current language) writes sizes (fr
    "1,5 Gio", "2 048 o", "1 610 612 736 octets"; ro "1,5 GiB", "1.610.612.736 octeți"), and as English writes
    them always ("1.5 GiB", "80GB", "512MiB", "1.5g", a byte count: a script's, a value copied from the CLI).

    The number is read in the language first, by Babel, and only what the language cannot read as a number is read
    as English: in Romanian "1,5" is 1.5 and "1.024" is 1024 (its "." groups thousands), while "1.5", no grouping
    Romanian writes, is English's 1.5; in French "1,500" is 1.5 and "1,610,612,736", no French number, English's
    count. Sizes in the window never meet the ambiguous case: it writes them with one decimal ("1,5 GiB").
    ValueError, said in the window's language, for anything else, a negative size too."""
    lang = current_language() if lang is None else lang
    found = _SIZE_TEXT.fullmatch(text.strip())
    factor = _size_units(lang).get(found.group("unit").casefold()) if found else None
    value = _size_number(found.group("number"), lang) if found and factor is not None else None
    if value is None or factor is None or value < 0:
        examples = {"big": localized("80 GiB", lang), "small": localized("1.5 GiB", lang)}
        raise ValueError(translate("Units", _NOT_A_SIZE, {"text": text.strip(), **examples}))
    return int(value * factor)


def _size_number(written: str, lang: str) -> Decimal | None:
    for reading in dict.fromkeys((lang, "en")):
        group = get_group_symbol(reading)
        # French groups with U+202F: typed, it is a plain or a no-break space (Babel's own reading, unless strict)
        number = re.sub(r"\s+", group, written) if group.isspace() else written
        try:
            return parse_decimal(number, locale=reading, strict=True)  # strict: "1.5" is no Romanian 15
        except ValueError:  # Babel's NumberFormatError
            continue
    return None


def _size_units(lang: str) -> dict[str, int]:
    # "bytes" is the window's translation (localized's): its word known for the language installed now
    bytes_word = QtCore.QCoreApplication.translate("Units", _BYTES) if lang == current_language() else _BYTES
    return _unit_table(lang, bytes_word)


@functools.cache
def _unit_table(lang: str, bytes_word: str) -> dict[str, int]:
    """Bytes per unit, by the unit casefolded: English's (parse_bytes's) and each unit as `lang` writes it, the
    figure writer's own table read backwards (localize: fr "Gio", "o"), "bytes" as the window translates it."""
    table = dict(SUFFIXES) | {_BYTES: 1, bytes_word.casefold(): 1}
    for name, n in UNIT_BYTES.items():
        table[_unit_in(name, lang).casefold()] = n
    return table


# a count as the core writes it ("2,520"), and any figure: a number, a size ("1.5 GiB", "512 B"), a percentage
# ("41.9%", "<0.1%"), an exact size ("1.5 GiB (1,610,612,736 bytes)"); anything else (an address, a setting, a path)
# is data, said as it is
_COUNT = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_FIGURE = re.compile(r"[<>~]?-?\d[\d,]*(?:\.\d+)?(?:%| [KMGTP]iB| B| bytes| MB)?(?: \([\d,]+ bytes\))?")


def filled(translated: str, fields: Mapping[str, str], lang: str | None = None) -> str:
    """A translated template filled with fields written in English, each as `lang` (by default the current
    language) writes it: a count grouped, its `{n:one|other}` (ro: `{n:one|few|other}`) in the form it takes; a
    figure localized; a text written already (a Shown: a localized figure, a sentence said) and data as they are.
    The window's one way of writing core's figures in its language (said() fills a Sentence's fields with it)."""
    lang = current_language() if lang is None else lang
    return translated.format_map({name: _field(value, lang) for name, value in fields.items()})


def _field(value: str, lang: str) -> object:
    if isinstance(value, Shown):
        return value
    if _COUNT.fullmatch(value):
        return Count(int(value.replace(",", "")), lang)
    if _FIGURE.fullmatch(value):
        return localized(value, lang)
    return Shown(value)


class Retranslated(QtWidgets.QWidget):
    """A widget whose static texts are set in `retranslate()`: call it at the end of `__init__`; it is called again
    on every switch of language (Qt's LanguageChange), so the widget shows the new language at once."""

    def retranslate(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class TranslatedLabel(QtWidgets.QLabel):
    """A label whose one text is fixed (marked QT_TRANSLATE_NOOP(context, text)): shown in the window's language,
    again after every switch."""

    def __init__(self, context: str, text: str, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self._source = (context, text)
        self.setText(translate(context, text))

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.setText(translate(*self._source))
        super().changeEvent(event)
