"""RankPins: the pins of a folder of ranks (a site, a category or a search, the same over every rank), chosen above
the ranks' small multiples, kept per folder in the settings, and handed to a rank's tab when it is opened."""

from __future__ import annotations

import hashlib
import os

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.analysis.categories import CATEGORIES
from gpumem_gui.document.pins import Pin, pins_from_text, pins_to_text
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import Retranslated
from gpumem_gui.views.snapshot.tab_pins import settings_key

RANK_PIN_KINDS = ("site", "category", "search")  # what a folder's pin may be (streams and pools differ by rank)


def folder_key(folder: str) -> str:
    """The setting of one folder's pins (a digest of its absolute path, as a file's pins are kept)."""
    path = os.path.abspath(folder)
    return "rank_pins/" + hashlib.sha1(path.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def pin_colour(index: int) -> str:
    """The i-th pin's colour: a site hue, dark, none of the reserved curve's blue."""
    return palette.SITE_HUES[(2 * index + 1) % len(palette.SITE_HUES)][0]


class RankPins(Retranslated):
    """A kind, a key (the ranks' top sites or the categories offered, or any text) and Pin; each pin a button that
    unpins it. `added(pin)`: the summaries need its series; `removed(pin)`: only the drawing changes."""

    added = QtCore.Signal(object)
    removed = QtCore.Signal(object)

    def __init__(self, settings: QtCore.QSettings | None = None, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else QtCore.QSettings()
        self.folder = ""
        self.pins: list[Pin] = []
        self.sites: list[str] = []  # the top sites the ranks' summaries name, offered for a site pin
        self.kind_box = QtWidgets.QComboBox()
        for kind in RANK_PIN_KINDS:
            self.kind_box.addItem("", kind)
        self.key_box = QtWidgets.QComboBox(editable=True)
        self.key_box.setMinimumContentsLength(28)
        self.key_box.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.pin_button = QtWidgets.QPushButton()
        self.chips = QtWidgets.QHBoxLayout()
        self.chips.setContentsMargins(0, 0, 0, 0)
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.pin_label = QtWidgets.QLabel()
        row.addWidget(self.pin_label)
        row.addWidget(self.kind_box)
        row.addWidget(self.key_box, 1)
        row.addWidget(self.pin_button)
        row.addLayout(self.chips)
        self.kind_box.currentIndexChanged.connect(lambda _i: self._offer())
        self.pin_button.clicked.connect(self._pin_typed)
        line = self.key_box.lineEdit()
        assert line is not None  # an editable box has one
        line.returnPressed.connect(self._pin_typed)
        self.retranslate()

    def kind_word(self, kind: str) -> str:
        """A pin's kind in the window's language."""
        words = {"site": self.tr("site"), "category": self.tr("category"), "search": self.tr("search")}
        return words.get(kind, kind)

    def retranslate(self) -> None:
        for i in range(self.kind_box.count()):
            self.kind_box.setItemText(i, self.kind_word(str(self.kind_box.itemData(i))))
        self.key_box.setToolTip(self.tr("a site (file:line:function), a category, or text in a frame of the stack"))
        self.pin_button.setText(self.tr("Pin on every rank"))
        self.pin_button.setToolTip(
            self.tr("draw the bytes it holds over each rank's trace; the summaries are read again for it")
        )
        self.pin_label.setText(self.tr("pin:"))
        self._offer()
        self._show_chips()

    def set_folder(self, folder: str) -> None:
        """The folder's pins, as the settings keep them."""
        self.folder = folder
        self.pins = pins_from_text(self.settings.value(folder_key(folder), "")) if folder else []
        self.pins = [p for p in self.pins if p.kind in RANK_PIN_KINDS]
        self._show_chips()

    def offer_sites(self, sites: list[str]) -> None:
        """The sites the summaries name at their peaks (most named first), offered for a site pin."""
        self.sites = sites
        if self.kind_box.currentData() == "site":
            self._offer()

    def keys(self) -> list[tuple[str, str | int]]:
        """What the summaries need: each pin's (kind, key)."""
        return [(p.kind, p.key) for p in self.pins]

    def pin(self, pin: Pin) -> None:
        if pin in self.pins or pin.kind not in RANK_PIN_KINDS:
            return
        self.pins.append(pin)
        self._save()
        self._show_chips()
        self.added.emit(pin)

    def unpin(self, pin: Pin) -> None:
        if pin in self.pins:
            self.pins.remove(pin)
            self._save()
            self._show_chips()
            self.removed.emit(pin)

    def carry_to(self, path: str) -> None:
        """A rank's file is opened from the folder: its tab pins what the folder pins (and keeps its own)."""
        if not self.pins:
            return
        key = settings_key(path)
        own = pins_from_text(self.settings.value(key, ""))
        self.settings.setValue(key, pins_to_text(own + [p for p in self.pins if p not in own]))

    def _save(self) -> None:
        if self.folder:
            self.settings.setValue(folder_key(self.folder), pins_to_text(self.pins))

    def _pin_typed(self) -> None:
        kind, text = str(self.kind_box.currentData()), self.key_box.currentText().strip()
        if text:
            label = text if kind != "search" else self.tr("stack holds '{0}'").format(text)
            self.pin(Pin(kind, text.replace(" ", "_") if kind == "category" else text, label))

    def _offer(self) -> None:
        kind = self.kind_box.currentData()
        self.key_box.clear()
        if kind == "site":
            self.key_box.addItems(self.sites)
        elif kind == "category":
            self.key_box.addItems([c.replace("_", " ") for c in CATEGORIES])
        self.key_box.setCurrentText("")
        placeholder = {
            "site": self.tr("pick a site the ranks name at their peaks, or type one"),
            "category": self.tr("pick a category"),
            "search": self.tr("text in a frame of the stack, e.g. loss.py"),
        }
        line = self.key_box.lineEdit()
        if line is not None:
            line.setPlaceholderText(placeholder.get(str(kind), ""))

    def _show_chips(self) -> None:
        while self.chips.count():
            item = self.chips.takeAt(0)
            chip = item.widget() if item is not None else None
            if chip is not None:
                chip.deleteLater()
        for i, pin in enumerate(self.pins):
            chip = QtWidgets.QToolButton()
            chip.setText(f"✕ {self.kind_word(pin.kind)}: {pin.label}")
            chip.setToolTip(self.tr("unpin it from every rank"))
            chip.setStyleSheet(f"color: {pin_colour(i)}; font-weight: bold;")
            chip.clicked.connect(lambda _c=False, p=pin: self.unpin(p))
            self.chips.addWidget(chip)
