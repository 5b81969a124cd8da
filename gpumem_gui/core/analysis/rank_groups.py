"""Ranks compared as groups: where each rank sits in the parallelism (from its snapshot's metadata or its file's
name), the outliers of a group by the median absolute deviation of the peak, and the imbalance between groups in
words, explained by the category that differs most at the peak.

Outliers follow Iglewicz and Hoaglin: the modified z-score 0.6745 (x - median) / MAD above 3.5 is an outlier. Ranks
that run the same program often peak within a few MB of each other, so their MAD is near 0 and any difference would
score high: the MAD is taken as at least 1 % of the median, which makes 5.2 % above the median the least an outlier
can be. Pipeline stages hold different layers and peak differently by design, so ranks are compared within their
step and pipeline stage, never across stages; the stages themselves are compared by the imbalance.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Protocol

from gpumem_gui.core.analysis.categories import CATEGORY_LABELS
from gpumem_gui.core.snapshot.units import format_bytes

Z_SCALE = 0.6745  # the MAD of a normal distribution is 0.6745 standard deviations
Z_THRESHOLD = 3.5
MAD_FLOOR_SHARE = 0.01
MIN_GROUP_FOR_OUTLIERS = 3  # of two ranks neither is "the odd one"
IMBALANCE_SHARE = 0.05  # a group whose median peak is this much above the others' is told

PIPELINE_STAGE = "pipeline_stage"
# each dimension of the parallelism: the keys of the snapshot's `parallel` metadata that give it (lower case, "-" as
# "_"), the pattern of a file or folder name that gives it (none where a short name would mean something else:
# "ep3" is as often epoch 3), and how a sentence names one of its groups
DIMENSIONS: dict[str, tuple[frozenset[str], re.Pattern[str] | None, str]] = {
    PIPELINE_STAGE: (
        frozenset(
            {
                "pp",
                "pp_rank",
                "pp_stage",
                "stage",
                "pipeline_stage",
                "pipeline_rank",
                "pipeline_parallel_rank",
                "pipeline_model_parallel_rank",
            }
        ),
        re.compile(r"(?<![a-z])(?:pp|pp_stage|stage|pipeline_stage)[-_]?(\d+)", re.IGNORECASE),
        "stage {}",
    ),
    "tensor_parallel_rank": (
        frozenset({"tp", "tp_rank", "tensor_rank", "tensor_parallel_rank", "tensor_model_parallel_rank"}),
        re.compile(r"(?<![a-z])tp[-_]?(\d+)", re.IGNORECASE),
        "tensor-parallel rank {}",
    ),
    "data_parallel_rank": (
        frozenset({"dp", "dp_rank", "data_parallel_rank"}),
        re.compile(r"(?<![a-z])dp[-_]?(\d+)", re.IGNORECASE),
        "data-parallel rank {}",
    ),
    "context_parallel_rank": (
        frozenset({"cp", "cp_rank", "context_parallel_rank"}),
        None,
        "context-parallel rank {}",
    ),
    "expert_parallel_rank": (
        frozenset({"ep", "ep_rank", "expert_parallel_rank", "expert_model_parallel_rank"}),
        None,
        "expert-parallel rank {}",
    ),
}


def _index(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def parallel_coordinates(metadata: Mapping[str, Any], relative_path: str) -> dict[str, int]:
    """The rank's place in each dimension of the parallelism: from the `parallel` dict of its metadata, else from
    its file's name and then its folders' (innermost first)."""
    found: dict[str, int] = {}
    parallel = metadata.get("parallel")
    if isinstance(parallel, Mapping):
        for key, value in parallel.items():
            normal = str(key).lower().replace("-", "_")
            for dimension, (keys, _pattern, _word) in DIMENSIONS.items():
                index = _index(value)
                if normal in keys and index is not None:
                    found.setdefault(dimension, index)
    for part in reversed(PurePath(relative_path).parts):
        for dimension, (_keys, pattern, _word) in DIMENSIONS.items():
            match = pattern.search(part) if pattern is not None else None
            if match and dimension not in found:
                found[dimension] = int(match.group(1))
    return {d: found[d] for d in DIMENSIONS if d in found}


class RankFigures(Protocol):
    """What the grouping reads of a rank's entry (ranks.FileSummary)."""

    @property
    def rank(self) -> int: ...
    @property
    def step(self) -> int | None: ...
    @property
    def file(self) -> str: ...
    @property
    def parallel(self) -> Mapping[str, int]: ...
    @property
    def categories_at_peak(self) -> Mapping[str, int]: ...
    @property
    def peak_reserved_bytes(self) -> int: ...


@dataclass(frozen=True)
class Deviation:
    """One value of a group against the group's median and MAD."""

    value: int
    median: int
    mad: int
    score: float  # the modified z-score, with the MAD floored


def robust_scores(values: Sequence[int]) -> list[Deviation]:
    """Each value's modified z-score against the values' median and MAD (the MAD at least 1 % of the median, and
    at least one byte)."""
    median = statistics.median(values)
    mad = statistics.median(abs(v - median) for v in values)
    scale = max(mad, MAD_FLOOR_SHARE * median, 1)
    return [Deviation(int(v), round(median), round(mad), Z_SCALE * (v - median) / scale) for v in values]


def outlier_group(entry: RankFigures) -> tuple[int | None, int | None]:
    """The ranks an entry is compared with: those of its step and pipeline stage."""
    return entry.step, entry.parallel.get(PIPELINE_STAGE)


@dataclass(frozen=True)
class Imbalance:
    """One group of a dimension whose ranks peak above the rest at one step, and the category that differs most."""

    dimension: str
    group: int
    step: int | None
    ranks: list[int]
    median_peak_reserved_bytes: int
    others_median_peak_reserved_bytes: int
    excess: float  # median / others' median - 1
    category: str | None  # the category whose median at the peak exceeds the others' most; None: none exceeds
    category_excess_bytes: int

    @property
    def text(self) -> str:
        where = DIMENSIONS[self.dimension][2].format(self.group)
        step = "" if self.step is None else f"step {self.step}: "
        line = (
            f"{step}{where}'s ranks peak {self.excess * 100:.0f}% above the others"
            f" ({format_bytes(self.median_peak_reserved_bytes)} against"
            f" {format_bytes(self.others_median_peak_reserved_bytes)}, the medians)"
        )
        if self.category is not None:
            line += f": their {CATEGORY_LABELS.get(self.category, self.category)}"
            line += f" (+{format_bytes(self.category_excess_bytes)})"
        return line

    def as_json(self) -> dict[str, Any]:
        return {
            "dimension": self.dimension,
            "group": self.group,
            "step": self.step,
            "ranks": self.ranks,
            "median_peak_reserved_bytes": self.median_peak_reserved_bytes,
            "others_median_peak_reserved_bytes": self.others_median_peak_reserved_bytes,
            "excess": round(self.excess, 4),
            "category": self.category,
            "category_excess_bytes": self.category_excess_bytes,
            "text": self.text,
        }


def _median(values: Sequence[int]) -> int:
    return round(statistics.median(values)) if values else 0


def _explaining_category(group: Sequence[RankFigures], others: Sequence[RankFigures]) -> tuple[str | None, int]:
    """The category whose median bytes at the peak in `group` exceed those in `others` most (None if none does)."""
    names = sorted({c for e in (*group, *others) for c in e.categories_at_peak})
    best, best_bytes = None, 0
    for name in names:
        more = _median([e.categories_at_peak.get(name, 0) for e in group])
        more -= _median([e.categories_at_peak.get(name, 0) for e in others])
        if more > best_bytes:
            best, best_bytes = name, more
    return best, best_bytes


def find_imbalance(entries: Sequence[RankFigures]) -> list[Imbalance]:
    """For each step and each dimension that splits its ranks into two groups or more, the group whose median peak
    reserved is highest against the median of the other groups' ranks, when it is IMBALANCE_SHARE above it."""
    by_step: dict[int | None, list[RankFigures]] = {}
    for e in entries:
        by_step.setdefault(e.step, []).append(e)
    found = []
    for step, at_step in by_step.items():
        for dimension in DIMENSIONS:
            placed = [e for e in at_step if dimension in e.parallel]
            groups: dict[int, list[RankFigures]] = {}
            for e in placed:
                groups.setdefault(e.parallel[dimension], []).append(e)
            if len(groups) < 2:
                continue
            candidates = []
            for index, group in groups.items():
                others = [e for e in placed if e.parallel[dimension] != index]
                mine = _median([e.peak_reserved_bytes for e in group])
                theirs = _median([e.peak_reserved_bytes for e in others])
                if theirs > 0:
                    candidates.append((mine / theirs - 1, index, group, others, mine, theirs))
            if not candidates:
                continue
            excess, index, group, others, mine, theirs = max(candidates, key=lambda c: (c[0], -c[1]))
            if excess < IMBALANCE_SHARE:
                continue
            category, category_bytes = _explaining_category(group, others)
            ranks = sorted({e.rank for e in group})
            found.append(Imbalance(dimension, index, step, ranks, mine, theirs, excess, category, category_bytes))
    return sorted(found, key=lambda i: (-1 if i.step is None else i.step, list(DIMENSIONS).index(i.dimension)))
