"""What a snapshot tab leans on: the pause between its staged parts, the first plot's warm-up, its panes and their
remembered sizes, a scroll area, and the device menu's words."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach.demos.wording import number
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import (
    QT_TRANSLATE_NOOP,
    TranslatedLabel,
    current_language,
    localized,
    translate,
)
from gpumem_gui.views.snapshot.light_plot import menu_defaults
from gpumem_gui.views.snapshot.map_view import MapPlot, SegmentMapView, map_plot

# the delay between the parts of a staged change (a tab opening, a trace arriving): a timer rather than a queued call,
# so that the window's own events (input, painting) are served between two parts, never after both
TURN_MS = 1
UNSHOWN_MS = 300
READING_TRACE = QT_TRANSLATE_NOOP("SnapshotTab", "reading the trace...")

_warmed = False


def warm_up() -> None:
    """Make, paint (offscreen) and drop one map view, once per process, over four turns of the event loop: the first
    pyqtgraph plot costs twice the next to make and to paint (its classes' and fonts' first use), which the window
    pays while a file is read rather than in the turn that opens its tab (read_ahead has read the rest)."""
    global _warmed  # noqa: PLW0603 (once per process)
    if _warmed:
        return
    _warmed = True
    plots: list[MapPlot] = []
    made: list[QtWidgets.QWidget] = []

    def plot() -> None:
        plots.append(map_plot())  # pyqtgraph's classes, as a tab's plots are made (without the options menu)

    def map_view() -> None:
        view = SegmentMapView(plot=plots.pop())
        view.resize(400, 300)
        made.append(view)

    def paint() -> None:
        view = made.pop()
        view.grab()
        view.deleteLater()

    # the options menu's defaults (read from one menu made for it: a third of the first plot's making) in a turn of
    # their own
    _one_a_turn([menu_defaults, plot, map_view, paint])


def _one_a_turn(steps: list[Callable[[], object]]) -> None:
    """Each of `steps` in a turn of its own, each asked for by the one before (two timers due at once run in the
    same turn)."""

    def step() -> None:
        steps[0]()
        if len(steps) > 1:
            _one_a_turn(steps[1:])

    QtCore.QTimer.singleShot(TURN_MS, step)


_read = False


def read_ahead() -> None:
    """What a file's first figures and bands read on first use, read once per process as the window is made, before
    it shows: the language's number formats (Babel's CLDR data: tens of ms of the first figures shown, the longest
    turn of the window as a file opened) and numpy.ma, which numpy 2's np.unique imports on its first call (7 ms of
    the site timeline's first draw). Read in a thread while a file loaded, they held the GIL from the window's turns,
    three times as long on busy cores."""
    global _read  # noqa: PLW0603 (once per process)
    if _read:
        return
    _read = True
    import numpy.ma  # noqa: F401, PLC0415

    number(0, current_language())  # the language is the GUI thread's to ask (Qt's translators)


def scroll_area() -> QtWidgets.QScrollArea:
    area = QtWidgets.QScrollArea(widgetResizable=True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    return area


def device_label(snapshot: Snapshot, device: int) -> str:
    """What the device menu says of a device: its high point and its OOMs, or that it holds nothing."""
    peak, ooms = snapshot.peak_reserved(device), snapshot.oom_count(device)
    if peak <= 0 and not ooms:
        return translate("DeviceMenu", "GPU {device}: nothing reserved").format(device=device)
    text = translate("DeviceMenu", "GPU {device}: peak {peak}").format(
        device=device, peak=localized(format_bytes(peak))
    )
    return text + (f", {ooms} OOM{'s' if ooms > 1 else ''}" if ooms else "")


T = TypeVar("T")


def made_part(make: Callable[[int], None], parts: int, part: Callable[[], T | None]) -> T:
    """A part of a tab made in turns (see SnapshotTab._make), made now with the parts before it where it is not yet."""
    make(parts)
    made = part()
    assert made is not None
    return made


# the map over the curves once the trace is read, as weights (the splitter's stretch: the curves keep their least
# height, 3/4 of the rest goes to the map; any other widget, the reading line, none); the sizes Qt gave a widget added
# later depended on which stages of the load had been laid out when it came (the curves 238 px high in one run, 476
# in the next)
MAP_OVER_CURVES = (3000, 1000)


class SplitterMemory:
    """A tab's splitters by name: each reports a drag (the window then saves their states), and each takes the size
    remembered from an earlier tab (or dragged to in this one), also one made after the tab (the timeline's, when the
    trace arrives), or one whose widgets are all in place only then (settle)."""

    def __init__(self, moved: Callable[[], None]) -> None:
        self._moved = moved
        self._splitters: dict[str, QtWidgets.QSplitter] = {}
        self._remembered: dict[str, object] = {}

    def add(self, name: str, splitter: QtWidgets.QSplitter) -> None:
        splitter.setChildrenCollapsible(False)
        splitter.splitterMoved.connect(lambda _pos, _index: self._dragged(name))
        self._splitters[name] = splitter
        state = self._remembered.get(name)
        if isinstance(state, QtCore.QByteArray):
            splitter.restoreState(state)

    def _dragged(self, name: str) -> None:
        self._remembered[name] = self._splitters[name].saveState()  # settle keeps what the user chose here
        self._moved()

    def splitter(self, name: str) -> QtWidgets.QSplitter:
        return self._splitters[name]

    def settle(self, name: str, sizes: list[int]) -> None:
        """The splitter's widgets are all in place (the curves under the map, once the trace is read): its
        remembered sizes, else `sizes`, whatever was laid out before and in what order the load's stages came."""
        splitter = self._splitters[name]
        state = self._remembered.get(name)
        if not (isinstance(state, QtCore.QByteArray) and splitter.restoreState(state)):
            splitter.setSizes(sizes)

    def states(self) -> dict[str, QtCore.QByteArray]:
        return {name: splitter.saveState() for name, splitter in self._splitters.items()}

    def restore(self, states: dict[str, object]) -> None:
        """Missing or unreadable sizes leave their splitter as it is."""
        self._remembered = dict(states)
        for name, state in states.items():
            splitter = self._splitters.get(name)
            if splitter is not None and isinstance(state, QtCore.QByteArray):
                splitter.restoreState(state)


class Panes(NamedTuple):
    top: QtWidgets.QSplitter  # the map | the side panel
    side: QtWidgets.QSplitter  # the figures over the side tabs
    main: QtWidgets.QSplitter  # the top over the reading line, then the curves
    reading: QtWidgets.QLabel


def map_and_side(map_view: QtWidgets.QWidget, figures: QtWidgets.QWidget, side_tabs: QtWidgets.QWidget) -> Panes:
    """The map beside the side panel (the figures over the side tabs), above the line said while the trace is read;
    the curves join the main splitter once they are made."""
    side = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
    # the figures and their findings scroll when the splitter leaves them less room than they need (squeezed,
    # their rows were drawn over each other)
    figures_area = scroll_area()
    figures_area.setWidget(figures)
    figures_area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    side.addWidget(figures_area)
    side.addWidget(side_tabs)
    side.setMinimumWidth(280)
    side.setSizes([max(figures.sizeHint().height(), 300), 320])  # the figures and findings whole at first
    top = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
    top.addWidget(map_view)
    top.addWidget(side)
    # the side panel wide enough for a full address and a stack line, and a share of a wider window (2 of 7) as it
    # grows: at 1920 px the map alone taking the rest left it 400 px, cutting its lines beside an emptier map
    top.setStretchFactor(0, 5)
    top.setStretchFactor(1, 2)
    top.setSizes([1000, 400])
    main = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
    main.addWidget(top)
    main.setStretchFactor(0, 3)
    # where the timeline will be, while the trace is read: a label costs nothing to make, a plot a stall
    reading = TranslatedLabel("SnapshotTab", READING_TRACE)
    reading.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
    reading.setStyleSheet(f"color: {palette.TEXT_MUTED}")
    reading.setMinimumHeight(60)
    reading.setVisible(False)
    main.addWidget(reading)
    return Panes(top, side, main, reading)
