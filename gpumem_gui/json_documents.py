"""Each command's --json document with its schema_version: what the CLI prints, the Python API and the MCP server
return (one builder per command, so the three cannot drift apart)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpumem_gui.core.allocator.remedies import Explanation
    from gpumem_gui.core.allocator.replay import ReplayResult
    from gpumem_gui.core.analysis.diff import Diff
    from gpumem_gui.core.analysis.ranks import RanksTable
    from gpumem_gui.core.analysis.report import DeviceReport
    from gpumem_gui.core.analysis.span import SpanReport
    from gpumem_gui.core.snapshot.model import Snapshot

# the version of each document's shape, the `const` of its gpumem_gui/schemas/COMMAND.json; bump both together when
# a key is added, removed or changes meaning (gpumem_gui/schemas/README.md says how). events and stack are the MCP
# server's own (no command prints them).
SCHEMA_VERSIONS = {
    "report": 1,
    "explain": 3,
    "diff": 1,
    "ranks": 2,
    "replay": 3,
    "events": 1,
    "stack": 1,
    "span": 1,  # explain --span
}


def versioned(command: str, document: dict[str, Any]) -> dict[str, Any]:
    """`document` with its command's schema_version as the first key."""
    return {"schema_version": SCHEMA_VERSIONS[command], **document}


def report_document(snapshot: Snapshot, reports: list[DeviceReport]) -> dict[str, Any]:
    from gpumem_gui.core.analysis.report import report_json  # noqa: PLC0415 (each command imports what it prints)

    return versioned("report", report_json(snapshot, reports))


def explain_document(found: Explanation) -> dict[str, Any]:
    from gpumem_gui.core.analysis.explain_output import explanation_json  # noqa: PLC0415

    return versioned("explain", explanation_json(found.diagnosis, found.remedies, found.findings, found.pools))


def span_document(file: str, report: SpanReport) -> dict[str, Any]:
    """explain --span's document: the file, then the span's report (span.SpanReport.as_json)."""
    return versioned("span", {"file": file, **report.as_json()})


def diff_document(found: Diff, device_a: int, device_b: int, each_file_default: bool) -> dict[str, Any]:
    """`each_file_default`: no device was asked for, so each side is its file's default device."""
    out = versioned("diff", found.as_json())
    out["devices"] = {"a": device_a, "b": device_b, "each_file_default": each_file_default}
    return out


def ranks_document(table: RanksTable) -> dict[str, Any]:
    return versioned("ranks", table.as_json())


def replay_document(result: ReplayResult) -> dict[str, Any]:
    return versioned("replay", result.as_dict())
