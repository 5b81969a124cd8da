"""The loader's errors (SnapshotError) in the window's language: each message a Sentence whose English is what the
command line always printed, the compiled and the pure-Python readers raising the same one, the window saying it in
Romanian and French, and every template translated in both with its fields kept."""

from __future__ import annotations

import ast
import gzip
import json
import os
import pickle
import string
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtWidgets

from gpumem_gui.app.window import MainWindow
from gpumem_gui.core.snapshot.errors import MAX_MESSAGE, SnapshotError
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.sentences import Sentence
from gpumem_gui.translations import FOLDER, TRANSLATED
from gpumem_gui.views.common import language
from gpumem_gui.views.common.start_page import LoadErrorPage
from tests.translation_walk import english_left, opened_window, settle, switch_language, visible_texts

PACKAGE = Path(__file__).resolve().parent.parent / "gpumem_gui"


class _Global:
    def __reduce__(self) -> tuple[Any, ...]:
        return (os.system, ("true",))


_SEG = {"address": 0, "total_size": 512, "blocks": [{"size": 512, "state": "active_allocated"}]}


def _snap(**keys: Any) -> bytes:
    return pickle.dumps({"segments": [_SEG], "device_traces": [], **keys}, 4)


def _trace(*entries: dict[str, Any]) -> bytes:
    return _snap(device_traces=[list(entries)])


def _blocks(*blocks: Any) -> bytes:
    return _snap(segments=[{"address": 0, "total_size": 512, "blocks": list(blocks)}])


# (file's bytes, the message as the command line prints it: written out by hand, "(name)" the file's)
BROKEN: dict[str, tuple[bytes, str]] = {
    "truncated": (_snap()[:-5], "truncated or corrupt pickle (pickle data was truncated)"),
    "global": (pickle.dumps(_Global(), 4), "refused to load: the file asks for posix.system"),
    "no_segments": (
        pickle.dumps({"alfa": 1, "beta": 2}, 4),
        "not a snapshot: the dict has no 'segments' (its keys: alfa, beta)",
    ),
    "no_blocks": (pickle.dumps({"segments": [{"address": 0, "total_size": 512}]}, 4), "segment 0 has no 'blocks'"),
    "bad_state": (_blocks({"size": 512, "state": "ciudat"}), "segment 0 block 0 has a bad 'state' ('ciudat')"),
    "block_not_dict": (_blocks(3), "segment 0 block 0 is not a dict"),
    "float_size": (
        _trace({"action": "alloc", "addr": 0, "size": 1.5, "stream": 0}),
        "device 0 trace: entry 0 has a 'size' that is 1.5, not an integer",
    ),
    "str_addr": (
        _trace({"action": "alloc", "addr": 0, "size": 5}, {"action": "alloc", "addr": "x", "size": 5}),
        "device 0 trace: entry 1 has a 'addr' that is 'x', not an integer",
    ),
    "no_action": (_trace({"addr": 0, "size": 5}), "device 0 trace: entry 0 has no 'action'"),
    "trace_not_dict": (
        _trace({"action": "alloc", "addr": 0, "size": 5}, None),  # type: ignore[arg-type]
        "device 0 trace: entry 1 is a NoneType, not a dict",
    ),
    "trace_frames": (
        _trace({"action": "alloc", "addr": 0, "size": 5, "frames": 7}),
        "device 0 trace: entry 0 has 'frames' that is 7, not a list",
    ),
    "traces_not_list": (_snap(device_traces={"0": []}), "not a snapshot: 'device_traces' is not a list of lists"),
    "segments_dict": (pickle.dumps({"segments": {}}, 4), "not a snapshot: 'segments' is a dict, not a list"),
    "seg_not_dict": (pickle.dumps({"segments": [_SEG, 5]}, 4), "segment 1 is a int, not a dict"),
    "neg_address": (
        _snap(segments=[{"address": -4, "total_size": 512, "blocks": []}]),
        "segment 0 'address' is -4, below zero",
    ),
    "frame_not_dict": (
        _blocks({"size": 512, "state": "active_allocated", "frames": [3]}),
        "a stack frame is a int, not a dict",
    ),
    "overlap": (_snap(segments=[_SEG, dict(_SEG, address=256)]), "segments 0 and 1 overlap (at 0x100 on device 0)"),
    "outside": (
        _blocks({"size": 1024, "state": "active_allocated"}),
        "segment 0 (0x0, 512 bytes) has a block outside it (0x0, 1024 bytes)",
    ),
    "settings": (
        _snap(allocator_settings={"garbage_collection_threshold": 2.0}),
        "allocator_settings 'garbage_collection_threshold' is 2.0, not a number in 0..1",
    ),
    "recorded": (_snap(recorded_with=[1]), "'recorded_with' is a list, not a dict"),
    "json_not_snapshot": (
        json.dumps({"salut": 1}).encode(),
        "not a snapshot: the dict has no 'segments' (its keys: salut)",
    ),
    "json_list": (json.dumps([1, 2]).encode(), "not a snapshot: a list, but not of segments (dicts with 'blocks')"),
    "json_invalid": (b'{"segments": [', "not valid JSON (Expecting value: line 1 column 15 (char 14))"),
    "empty": (b"", "the file is empty"),
    "garbage": (b"salut lume, nimic aici", "not a snapshot: neither a pickle nor JSON"),
    "gzip_empty": (gzip.compress(b""), "the gzip stream is empty"),
    "protocol": (b"\x80\x09abc", "pickle protocol 9 is newer than this Python reads"),
}


def _parts(text: str) -> Any:
    """A Sentence as what it is made of (nested Sentences too): its context, template and fields."""
    if not isinstance(text, Sentence):
        return ("str", str(text))
    return (text.context, text.template, {name: _parts(value) for name, value in text.fields.items()})


def _contexts(text: str) -> set[str]:
    """The translation contexts of a Sentence and of those nested in it (glue's empty one left out)."""
    if not isinstance(text, Sentence):
        return set()
    nested = set().union(*(_contexts(value) for value in text.fields.values()))
    return nested | ({text.context} if text.context else set())


def _error(path: Path) -> str:
    with pytest.raises(SnapshotError) as caught:
        load_snapshot(path, name=path.stem)
    return str(caught.value)


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_file_gets_the_same_english_as_a_sentence_from_both_readers(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, english = BROKEN[case]
    path = tmp_path / f"{case}.pickle"
    path.write_bytes(data)
    compiled = _error(path)
    monkeypatch.setenv("GPUMEM_GUI_PURE_PYTHON", "1")
    pure = _error(path)
    assert compiled == pure == f"{english} ({case})"  # the command line's, report --json's and MCP's words
    assert isinstance(compiled, Sentence) and isinstance(pure, Sentence)
    assert _parts(compiled) == _parts(pure)
    assert compiled.fields["source"] == case  # the file's name is glue's field, the message the other
    message = compiled.fields["message"]
    assert isinstance(message, Sentence) and message == english
    assert _contexts(message) == {"SnapshotError"}  # its words all marked (glue between them, data as it is)
    sent = pickle.loads(pickle.dumps(compiled))  # as the loading process sends it to the window
    assert isinstance(sent, Sentence) and _parts(sent) == _parts(compiled)


def test_a_huge_value_from_the_file_is_cut_and_the_message_stays_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(json.dumps({"x" * 5000: 1}))
    message = _error(path)
    assert isinstance(message, Sentence) and len(message) <= MAX_MESSAGE + len(" (huge)")
    assert message.startswith("not a snapshot: the dict has no 'segments' (its keys: xxx")
    assert message.fields["message"].template == "not a snapshot: the dict has no 'segments' (its keys: {keys})"


# -- in the window ---------------------------------------------------------------------------------------------------

# the snapshot format's own keys, quoted as the file names them ('blocks', 'segments'): code, not English words
KEYS = ("blocks", "segments", "size")
IN_WINDOW = (
    "no_segments",
    "bad_state",
    "float_size",
    "traces_not_list",
    "json_list",
    "segments_dict",
    "empty",
    "garbage",
)


@pytest.fixture
def window(qapp: QtWidgets.QApplication) -> Iterator[MainWindow]:
    with opened_window(size=(1400, 900)) as win:
        yield win


def test_the_window_says_why_a_file_cannot_open_in_romanian_and_in_french(window: MainWindow) -> None:
    # a folder whose name has no English in it (pytest's tmp_path carries the test's name): the path is said as it is
    with tempfile.TemporaryDirectory(prefix="dosar-") as folder:
        _opened_in_romanian_then_french(window, Path(folder))


def _opened_in_romanian_then_french(window: MainWindow, tmp_path: Path) -> None:
    folder = str(tmp_path)

    def words_of(texts: list[tuple[str, str]]) -> list[tuple[str, str]]:
        # the folder as it is, not read for English: its random part can spell a word ("dosar-2at6zd5r")
        return [(where, text.replace("\u200b", "").replace(folder, "dosar")) for where, text in texts]

    names = []
    for k, case in enumerate(IN_WINDOW):
        path = tmp_path / f"fisier{k}.pickle"  # a name in no language: the file's name is said as it is
        path.write_bytes(BROKEN[case][0])
        names.append(str(path))
    switch_language(window, "ro")
    said: list[str] = []  # every line the status bar showed: an error's clears itself after 30 s, which a loaded
    window.statusBar().messageChanged.connect(said.append)  # machine can take to open eight files (seen in CI)
    window.open_files(names)
    window.wait_for_loads()
    settle()
    pages = [p for i in range(window.tabs.count()) if isinstance(p := window.tabs.widget(i), LoadErrorPage)]
    assert len(pages) == len(IN_WINDOW)
    errors = [line for line in said if any(n in line for n in names)]  # an error names the whole path
    assert (
        len(errors) == len(IN_WINDOW)
        and english_left(words_of([("status", line) for line in said if line]), KEYS) == []
    )
    for lang in ("ro", "fr"):  # fr: the pages already open say it again after the switch
        if lang == "fr":
            switch_language(window, "fr")
        texts = [(f"page {p.path}", p.reason.text()) for p in pages]
        texts += [(f"tip {i}", window.tabs.tabToolTip(i)) for i in range(window.tabs.count()) if lang == "ro"]
        texts += visible_texts(window)
        assert english_left(words_of(texts), KEYS) == [], lang
        reasons = {p.reason.text().replace("\u200b", "") for p in pages}
        assert len(reasons) == len(pages)  # each its own message
        assert all(Path(p.path).name in p.reason.text().replace("\u200b", "") for p in pages)
    assert english_left(words_of([("status", window.statusBar().currentMessage())]), KEYS) == []  # fr, if shown


# -- the translations ----------------------------------------------------------------------------------------------


def _marked_error_templates() -> set[str]:
    """Every QT_TRANSLATE_NOOP("SnapshotError", ...) in the package's sources."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "QT_TRANSLATE_NOOP"
                and len(node.args) == 2
                and all(isinstance(a, ast.Constant) for a in node.args)
                and node.args[0].value == "SnapshotError"  # type: ignore[attr-defined]
            ):
                found.add(node.args[1].value)  # type: ignore[attr-defined]
    return found


def _fields(text: str) -> set[str]:
    return {name.split(":")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_snapshot_error_has_a_finished_translation_with_its_fields(lang: str) -> None:
    templates = _marked_error_templates()
    assert len(templates) > 60
    # (that each broken file's message is made of these templates: its contexts, checked above)
    translated: dict[str, str] = {}
    for ts in FOLDER.glob(f"*_{lang}.ts"):
        for context in ET.parse(ts).getroot():
            if context.findtext("name") != "SnapshotError":
                continue
            for message in context.findall("message"):
                node = message.find("translation")
                assert node is not None
                if node.get("type") != "unfinished" and node.text:
                    translated[message.findtext("source") or ""] = node.text
    missing = sorted(templates - set(translated))
    assert missing == []
    for template in templates:
        assert _fields(translated[template]) == _fields(template), (template, translated[template])


# -- a folder of ranks: its own errors and its summary files' ----------------------------------------------------------

# (what is wrong, the English as the command line prints it, Romanian, French): written out by hand, {p} the path
RANK_ERRORS = {
    "not_folder": (
        "not a folder ({p})",
        "nu este un dosar ({p})",
        "pas un dossier ({p})",
    ),
    "bad_json": (
        "not a summary file (JSONDecodeError: Expecting value: line 1 column 2 (char 1)) ({p})",
        "nu este un fișier de rezumat (JSONDecodeError: Expecting value: line 1 column 2 (char 1)) ({p})",
        "pas un fichier de résumé (JSONDecodeError: Expecting value: line 1 column 2 (char 1)) ({p})",
    ),
    "not_object": (
        "not a summary file (not a JSON object) ({p})",
        "nu este un fișier de rezumat (nu este un obiect JSON) ({p})",
        "pas un fichier de résumé (pas un objet JSON) ({p})",
    ),
    "old_version": (  # 1000: a version is said as it is, never grouped as a count ("1.000", "1 000")
        "a summary of version 1000, not 3: summarize it again ({p})",
        "un rezumat de versiunea 1000, nu 3: rezumați-l din nou ({p})",
        "un résumé de version 1000, pas 3\u202f: résumez-le à nouveau ({p})",
    ),
    "killed": (
        "the process reading it was killed by SIGKILL (out of memory? the system's OOM killer sends it) ({p})",
        "procesul care îl citea a fost oprit de SIGKILL (memorie epuizată? îl trimite OOM killer-ul sistemului) ({p})",
        None,  # French: its words checked apart (below)
    ),
}


def _rank_error(case: str, folder: Path) -> tuple[str, str]:
    """The message the rank folder's code makes for `case`, and the path it names."""
    from gpumem_gui.sources.rank_folder import _death, find_snapshot_files  # noqa: PLC0415
    from gpumem_gui.sources.rank_shards import read_summary  # noqa: PLC0415

    path = folder / f"{case}.gpumem-summary.json"
    if case == "not_folder":
        path.write_text("")
        with pytest.raises(SnapshotError) as caught:
            find_snapshot_files(path)
        return str(caught.value), str(path)
    if case == "killed":
        return _death(-9, str(path)), str(path)
    path.write_text({"bad_json": "[", "not_object": "[1, 2]", "old_version": '{"summary_version": 1000}'}[case])
    result = read_summary(str(path))
    assert isinstance(result, str)
    return result, str(path)


@pytest.fixture
def in_language(qapp: QtWidgets.QApplication) -> Iterator[Any]:
    yield language.set_language
    language.set_language("en")


@pytest.mark.parametrize("case", list(RANK_ERRORS))
def test_a_rank_folder_s_errors_are_sentences_said_in_romanian_and_french(case: str, in_language: Any) -> None:
    from gpumem_gui.views.common.sentences import said  # noqa: PLC0415

    english, romanian, french = RANK_ERRORS[case]
    with tempfile.TemporaryDirectory(prefix="1000-") as folder:  # a path of digits: data, never a figure
        message, path = _rank_error(case, Path(folder))
        assert message == english.format(p=path)  # the command line's words, as they always were
        assert isinstance(message, Sentence)
        sent = pickle.loads(pickle.dumps(message))  # as a worker process sends it
        assert _parts(sent) == _parts(message)
        in_language("ro")
        assert said(message) == romanian.format(p=path)
        in_language("fr")
        if french is not None:
            assert said(message) == french.format(p=path)
        else:
            assert said(message).startswith("le processus") and said(message).endswith(f" ({path})")
            assert "SIGKILL" in said(message) and english_left([("fr", said(message))], ["OOM"]) == []


def test_the_ranks_view_says_a_folder_s_errors_in_romanian(qtbot: Any, in_language: Any) -> None:
    from gpumem_gui.views.compare.ranks_view import RanksView  # noqa: PLC0415
    from tests.test_ranks_view import _write  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="ranguri-") as name:
        folder = Path(name)
        _write(folder / "rank0.pickle", 5, 0)
        paths = {case: _rank_error(case, folder)[1] for case in ("bad_json", "not_object", "old_version")}
        in_language("ro")
        view = RanksView()
        qtbot.addWidget(view)
        with qtbot.waitSignal(view.loaded, timeout=60_000):
            view.load_folder(str(folder))
        shown = view.errors.toolTip()
        for case, path in paths.items():
            assert f"ilizibil: „{RANK_ERRORS[case][1].format(p=path)}”" in shown.split("\n"), shown
        assert english_left([("errors", shown)], ["value"]) == [], shown  # "Expecting value": the JSON parser's own
        not_folder = folder / "rank0.pickle"
        view.load_folder(str(not_folder))
        qtbot.waitUntil(lambda: "nu este un dosar" in view.status.text(), timeout=30_000)
        assert view.status.text().endswith(f": nu este un dosar ({not_folder})")
        view.tasks.wait()
