"""The window's translations: `<area>_<lang>.ts` (the source, kept with pyside6-lupdate) and `<area>_<lang>.qm`
(compiled with pyside6-lrelease), one pair per area of the code and language; views/common/language.py loads them."""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parent
TRANSLATED = ("ro", "fr")  # the languages besides English, the language the code is written in
# each area's sources, relative to the repository's top: one .ts per area and language; a file is in one area only
AREAS: dict[str, tuple[str, ...]] = {
    # with the loader's errors (SnapshotError), which the window shows where a file cannot be opened
    "window": (
        "gpumem_gui/app",
        "gpumem_gui/views/common",
        "gpumem_gui/core/snapshot/errors.py",
        "gpumem_gui/core/snapshot/convert.py",
        "gpumem_gui/core/snapshot/loader.py",
        "gpumem_gui/core/snapshot/budget.py",
        "gpumem_gui/core/snapshot/model.py",
        "gpumem_gui/core/snapshot/recorded_with.py",
        "gpumem_gui/core/snapshot/safe_unpickle.py",
        "gpumem_gui/core/analysis/rank_summary.py",
        "gpumem_gui/mcp_tools.py",
        "gpumem_gui/sources/file_loader.py",
    ),
    # the snapshot tab, with the spans', sites' and settings' words made below it (marked there, translated where shown)
    "snapshot": (
        "gpumem_gui/views/snapshot",
        "gpumem_gui/document/settings_page.py",
        "gpumem_gui/core/analysis/frameless.py",
        "gpumem_gui/core/analysis/span.py",
        "gpumem_gui/core/analysis/named_spans.py",
        "gpumem_gui/core/analysis/flame.py",
        "gpumem_gui/core/snapshot/stacks.py",
        "gpumem_gui/core/snapshot/backward_nodes.py",
        "gpumem_gui/core/analysis/site_series.py",
        "gpumem_gui/core/analysis/site_tree.py",
    ),
    "diagnosis": (
        "gpumem_gui/views/diagnosis",
        "gpumem_gui/core/analysis/first_look.py",
        "gpumem_gui/core/analysis/growth.py",
        # the core's sentences the window says (core/snapshot/sentences.py): the explanation and its remedies, the
        # category rules, the loader's and the replay's warnings
        "gpumem_gui/core/analysis/diagnosis.py",
        "gpumem_gui/core/analysis/explain_output.py",
        "gpumem_gui/core/analysis/categories.py",
        "gpumem_gui/core/analysis/replay_warnings.py",
        "gpumem_gui/core/analysis/backward_pass.py",
        "gpumem_gui/core/analysis/timetravel.py",
        "gpumem_gui/core/allocator/remedies.py",
        "gpumem_gui/core/allocator/program_remedies.py",
        "gpumem_gui/core/allocator/judged.py",
        "gpumem_gui/core/snapshot/checks.py",
        "gpumem_gui/core/snapshot/origin.py",
        "gpumem_gui/document/document.py",
    ),
    # the quiz dock's chrome, the lab (its texts made in teach/lab are marked there), the challenge, the lessons
    "teach": ("gpumem_gui/views/teach", "gpumem_gui/teach/lab"),
    "compare": (
        "gpumem_gui/views/compare",
        "gpumem_gui/sources/rank_folder.py",
        "gpumem_gui/sources/rank_cluster.py",
        "gpumem_gui/sources/rank_shards.py",
    ),
    # the live views, with the messages of the sources they show (marked there as Sentences: views say them, said())
    "live": (
        "gpumem_gui/views/live",
        "gpumem_gui/sources/nvml.py",
        "gpumem_gui/sources/probe_client.py",
        "gpumem_gui/sources/probe_socket.py",
        "gpumem_gui/sources/live.py",
    ),
}
