"""The live views and the ranks view read in Romanian and in French after what happens to them, not only as they
open: the devices page over a driver that fails (and one that answers: its column tips), a live job's view after an
OOM and after its job has gone, an attach to a pid that runs no probe, to a socket that does not exist and to a file
that is no socket, and a ranks tab on a hand-made folder (its title, its summary and its unreadable file): walked
widget by widget, the attach warnings and the attach dialog's hint too, no English left."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pynvml
import pytest
from PySide6 import QtCore, QtWidgets

from gpumem_gui.app.window import MainWindow
from gpumem_gui.core.allocator.simulator import OutOfMemoryError
from gpumem_gui.core.rules.allocator_constants import GiB, MiB
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.sources import nvml
from gpumem_gui.sources.local_jobs import LocalJob, LocalJobs
from gpumem_gui.sources.nvml import NvmlSource
from gpumem_gui.sources.rank_cluster import ClusterReader, DaskMissing
from gpumem_gui.views.common import language
from gpumem_gui.views.compare.ranks_view import RanksView
from gpumem_gui.views.live.attach import AttachDialog
from gpumem_gui.views.live.devices import DeviceView
from gpumem_gui.views.live.live_view import LiveView
from tests.probe_helpers import serve_simulated
from tests.test_nvml import FakeGpu, FakeNvml
from tests.test_ranks import _write
from tests.translation_walk import english_left, visible_texts
from tests.translation_walk import settle as _settle

# NVML's own reason, as the driver words it (the bindings' text, not the window's), torch's word for a block, and
# the Python statement the attach hint quotes for the user to type (`import gpumem_gui.probe; ...`)
ALLOWED = ("Insufficient", "Permissions", "inactive", "import")


def _wait(done: object, what: str, timeout_ms: int = 30_000) -> None:
    deadline = QtCore.QDeadlineTimer(timeout_ms)
    while not done():  # type: ignore[operator]
        assert not deadline.hasExpired(), f"waited too long for {what}"
        QtWidgets.QApplication.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)


@pytest.fixture
def window(qapp: QtWidgets.QApplication) -> Iterator[MainWindow]:
    with throwaway_settings() as settings:
        win = MainWindow(settings)
        win.resize(1400, 900)
        win.show()
        try:
            yield win
        finally:
            for view in win.live_views:
                view.close_session()
            for box in _boxes():
                box.close()
            language.set_language("en")
            win.close()
            win.deleteLater()
            _settle()


def _boxes() -> list[QtWidgets.QMessageBox]:
    return [w for w in QtWidgets.QApplication.topLevelWidgets() if isinstance(w, QtWidgets.QMessageBox)]


def _box_texts() -> list[tuple[str, str]]:
    return [(f"box: {b.windowTitle()}", b.text()) for b in _boxes() if b.isVisible()]


def _failed_attach(window: MainWindow, target: int | Path) -> str:
    attaching = window.attach(target)
    assert attaching is not None
    assert attaching.wait_view() is None
    _settle()
    assert len(attaching.errors) == 1
    return attaching.errors[0]


def _ranks_folder(root: Path) -> Path:
    folder = root / "ranks"
    _write(folder / "rank0.pickle", 3)
    _write(folder / "rank1.pickle", 3, device=1)
    (folder / "rank2.pickle").symlink_to(folder / "gone.pickle")  # a link to nothing: the folder reader's words
    return folder


def _no_dask(_scheduler: str) -> ClusterReader:
    raise DaskMissing


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_live_and_ranks_views_after_their_events(
    window: MainWindow, tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    language.set_language(lang)
    _settle()
    # the devices page: a driver that refuses to start, then one that answers (its columns' tips)
    window.show_devices()
    devices = window.device_view
    assert isinstance(devices, DeviceView)
    devices.stop()
    refused = NvmlSource(FakeNvml([], init_error=pynvml.NVML_ERROR_NO_PERMISSION)).read()
    devices.set_reading(refused)
    _settle()
    assert devices.banner.isVisible() and "NVML" in devices.banner.text()
    texts = visible_texts(window)
    answering = NvmlSource(FakeNvml([FakeGpu("GPU", "GPU-1", 80 * GiB, 10 * GiB, GiB)])).read()
    devices.set_reading(answering)
    _settle()
    texts += visible_texts(window)

    # a live job: an OOM caught, then the job gone
    server, backend = serve_simulated(tmp_path)
    try:
        backend.malloc(100 * MiB, [])
        assert server.path is not None
        attaching = window.attach(server.path)
        assert attaching is not None
        view = attaching.wait_view()
        assert isinstance(view, LiveView)
        _wait(lambda: view.session._stream is not None and view.frames >= 1, "the live view's first figures")
        with pytest.raises(OutOfMemoryError):
            backend.malloc(8 * GiB, [])
        _wait(lambda: view.ooms.table.rowCount() == 1, "the OOM listed")
        _settle()
        texts += visible_texts(window)
    finally:
        server.stop()
    _wait(lambda: view.state != "live", "the job's end")
    capture = view.ooms.capture_at(0)
    assert capture is not None and capture.path is not None
    Path(capture.path).unlink()  # its file gone with the job: the list says so when the row is opened
    assert view.ooms.open_row(0) is not None and view.ooms.problem.text().startswith("OOM ")
    _settle()
    texts += visible_texts(window)

    # the attach dialog: a GPU job without a probe picked, NVML unavailable
    jobs = LocalJobs((LocalJob(os.getpid(), "python train.py", None, None),), nvml.NO_DRIVER)
    dialog = AttachDialog(lambda: jobs, window)  # it lists them in a task
    _wait(lambda: dialog.table.rowCount() == 1, "the dialog's list")
    dialog.table.selectRow(0)
    _settle()
    assert str(os.getpid()) in dialog.hint.text()
    texts += visible_texts(dialog)
    dialog.reject()

    # attaches that fail: a pid without a probe, a socket that is not there, a file that is no socket
    no_probe = _failed_attach(window, os.getpid())
    missing = _failed_attach(window, tmp_path / "nothing.sock")
    plain = tmp_path / "plain.txt"
    plain.write_text("not a socket")
    not_socket = _failed_attach(window, plain)
    status = window.statusBar().currentMessage()  # the last failed task, named, and why
    assert plain.name in status
    texts.append(("status bar", status))
    boxes = _box_texts()
    assert len(boxes) == 3  # each attach warned, in a box of its own
    assert [(what, text) for what, text in boxes if str(os.getpid()) in text]  # the pid's hint
    texts += boxes
    assert no_probe.startswith(f"process {os.getpid()} runs no") and missing and not_socket  # scripts read English

    # a ranks tab on a small folder, one file unreadable
    folder = _ranks_folder(tmp_path)
    monkeypatch.setattr(ClusterReader, "connect", _no_dask)
    cluster = window.compare.open_folder(str(folder), "tcp://127.0.0.1:1")  # no Dask here: the view says so
    assert isinstance(cluster, RanksView)
    _wait(lambda: not cluster.progress.isVisible(), "the cluster's refusal", 60_000)
    ranks = window.compare.open_folder(str(folder))
    _wait(lambda: ranks.result is not None, "the ranks read", 60_000)
    _settle()
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    # the tab titles, as each language writes them ("rank" is torch's word, which the walk lets through)
    words = {"ro": ("ranguri: ", " pe ", "în direct: pid "), "fr": ("rangs\u202f: ", " sur ", "en direct\u202f: pid ")}
    ranks_word, on, live = words[lang]
    assert titles.count(f"{ranks_word}ranks{on}tcp://127.0.0.1:1") == 1 and titles.count(f"{ranks_word}ranks") == 1
    assert titles.count(f"{live}{view.session.pid}") == 1
    assert "unreadable" not in ranks.errors.text() and ranks.errors.isVisible()
    texts += visible_texts(window)

    left = english_left(texts, ALLOWED)
    assert not left, f"English left in {lang}:\n" + "\n".join(left)


def test_a_source_message_is_said_from_its_template(qapp: QtWidgets.QApplication) -> None:
    """The sources' messages are Sentences, English as the CLI prints them: the window says each from its own
    template (never matched back from its English), a field that is itself a message ("compute") in turn; a probe's
    refusal arrives with its template and fields and is rebuilt; a plain line (a library's words) is left as it is."""
    from gpumem_gui.probe import wire  # noqa: PLC0415
    from gpumem_gui.sources import probe_client  # noqa: PLC0415
    from gpumem_gui.views.common.sentences import said  # noqa: PLC0415

    both = nvml.say(nvml.NO_LIST_CALL, kind=nvml.KINDS["compute"])
    assert both == "compute processes n/a (this driver has no call to list them)"
    other = nvml.say(nvml.NOT_LISTED, kind=nvml.KINDS["graphics"], error=nvml.as_is("Not Supported"))
    failed = nvml.say(nvml.READING_FAILED, error=nvml.as_is("OSError: gone"))
    assert failed == "reading failed: OSError: gone"
    # a probe's refusals, as the probe (in the job, without the window's marks) sends them, read by the viewer
    with pytest.raises(wire.PeerRefused) as refused:
        wire.check_peer(os.getuid() + 1)
    refusals = [
        probe_client.refused_with(wire.refusal(wire.TOO_MANY_VIEWERS), probe_client.REFUSED_REQUEST),
        probe_client.refused_with(wire.refusal_of(refused.value), probe_client.REFUSED_REQUEST),
        probe_client.worded(refused.value),
    ]
    assert refusals[1] == refusals[2] == str(refused.value)
    old_probe = probe_client.refused_with({"ok": False, "error": "too many viewers attached"}, "")
    try:
        language.set_language("fr")
        n = "\u202f"
        assert said(both) == "processus de calcul indisponibles (ce pilote n'a pas d'appel pour les lister)"
        assert said(other) == "processus graphiques indisponibles (Not Supported)"
        assert said(failed) == f"la lecture a échoué{n}: OSError: gone"
        assert said("Timed out trying to connect") == "Timed out trying to connect"
        uid, me = os.getuid() + 1, os.getuid()
        assert [said(r) for r in refusals] == [
            "trop de visualiseurs attachés",
            f"connexion de l'uid {uid} refusée{n}: seul l'uid {me} peut s'attacher",
            f"connexion de l'uid {uid} refusée{n}: seul l'uid {me} peut s'attacher",
        ]
        assert said(old_probe) == "too many viewers attached"  # an older probe's line: shown as it is
        language.set_language("ro")
        assert said(failed) == "citirea a eșuat: OSError: gone"
    finally:
        language.set_language("en")
    assert said(both) == both
