"""What the sources say (NVML, the probe's client and socket, a live session, a rank folder) in the window's words."""

from __future__ import annotations

from gpumem_gui.sources import live, nvml, probe_client, probe_socket, rank_folder
from gpumem_gui.views.common.language import translate_message

# the sources' message templates (translate_message tries the one with most literal text first)
CATALOGS = (
    probe_socket.MESSAGES,
    probe_client.MESSAGES,
    live.MESSAGES,
    rank_folder.MESSAGES,
    nvml.MESSAGES,
)


def source_words(message: str) -> str:
    """`message` (a source's English line, what the CLI prints) as the window shows it: in the current language."""
    return translate_message(message, CATALOGS)
