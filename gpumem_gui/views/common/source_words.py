"""What the sources say (NVML, the probe's client and socket, a live session, a rank folder) in the window's words."""

from __future__ import annotations

from gpumem_gui.sources import live, nvml, probe_client, probe_socket, rank_folder
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, translate_message

# the names of the live and ranks views' tasks: the status line names the one that failed (the log keeps English)
ATTACH_TASK = QT_TRANSLATE_NOOP("Tasks", "attach {target}")
ATTACH_ALL_TASK = QT_TRANSLATE_NOOP("Tasks", "Attach to All")
SESSION_TASK = QT_TRANSLATE_NOOP("Tasks", "live session pid {pid}")
EVENTS_TASK = QT_TRANSLATE_NOOP("Tasks", "live events pid {pid}")
MARK_TASK = QT_TRANSLATE_NOOP("Tasks", "mark {name}")
RANKS_TASK = QT_TRANSLATE_NOOP("Tasks", "ranks {folder}")
NVML_TASK = QT_TRANSLATE_NOOP("Tasks", "NVML poll")
TASKS = ("Tasks", (ATTACH_TASK, ATTACH_ALL_TASK, SESSION_TASK, EVENTS_TASK, MARK_TASK, RANKS_TASK, NVML_TASK))

# the sources' message templates (translate_message tries the one with most literal text first)
CATALOGS = (
    probe_socket.MESSAGES,
    probe_client.MESSAGES,
    live.MESSAGES,
    rank_folder.MESSAGES,
    nvml.MESSAGES,
    TASKS,
)


def source_words(message: str) -> str:
    """`message` (a source's English line, what the CLI prints) as the window shows it: in the current language."""
    return translate_message(message, CATALOGS)
