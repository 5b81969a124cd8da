"""The facts of the 2026-12-03 teaching review (issue 34), held in every language: each test reads the texts and
checks them against the app's own data, the allocator's constants, or torch run here (the lab's measured figures)."""

from __future__ import annotations

import re
import tomllib
import warnings

import numpy as np
import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.allocator.remedies import GC_SETTINGS
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.rules.allocator_constants import (
    LARGE_BUFFER,
    MIN_LARGE_ALLOC,
    ROUND_LARGE,
    SMALL_BUFFER,
    SMALL_SIZE,
)
from gpumem_gui.core.rules.allocator_rules import allocation_size
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.teach.demos.captions import lab_templates
from gpumem_gui.teach.predict import load_predictions, make_case
from gpumem_gui.teach.quiz import LANGUAGES
from tests.test_quiz_facts import EXAMPLES_TOML, GC, GPU, _question, _right, _says

MiB = 1 << 20
PREDICTIONS = load_predictions()
EXAMPLES = tomllib.loads(EXAMPLES_TOML.read_text(encoding="utf-8"))


def _mib(n: int) -> str:
    return f"{n // MiB}"


# ---- gpu-memory --------------------------------------------------------------------------------------------------


def test_fact4_the_gap_also_closes_when_cached_blocks_are_reused() -> None:
    """In the reserved_vs_allocated demo, allocations after the peak reuse cached blocks: allocated rises while
    reserved stays, so the gap closes without the allocator giving anything back."""
    tl = build_timeline(load_snapshot(EXAMPLES_TOML.parent / EXAMPLES["reserved_vs_allocated"]["file"]), 0)
    allocated, reserved = np.asarray(tl.series.allocated), np.asarray(tl.series.reserved)
    gap = reserved - allocated
    reused = (np.diff(allocated) > 0) & (np.diff(reserved) == 0)
    assert reused.any() and (np.diff(gap)[reused] < 0).all()
    text = _right(GPU, "reserved-vs-allocated")
    _says(
        text,
        {
            "en": r"closes whenever later allocations reuse the cached blocks.*reserved itself falls only when",
            "ro": r"se închide ori de câte ori alocări ulterioare reutilizează blocurile din cache.*memoria rezervată "
            r"însăși scade doar când",
            "fr": r"se referme chaque fois que des allocations ultérieures réutilisent les blocs en cache.*la mémoire "
            r"réservée elle-même ne baisse que",
        },
        "reserved-vs-allocated",
    )
    assert "it shrinks only when the allocator" not in text.en


def test_fact5_gc_runs_only_under_a_fraction_below_one_and_frees_no_split_block() -> None:
    """The replayed GC candidate sets a fraction below 1.0 (PyTorch's newest allocator never collects at 1.0), the
    label shows it, and the reveal says why it fixes neither demo: at each OOM every free block shares its segment
    with a live one, and the collector frees only whole, unsplit blocks."""
    settings = dict(item.split(":") for item in GC_SETTINGS.split(","))
    assert 0 < float(settings["per_process_memory_fraction"]) < 1.0
    for question in ("oom-reserved", "expandable-segments"):
        p = PREDICTIONS.find("gpu-memory", question)
        assert p is not None
        case = make_case(p)
        assert GC_SETTINGS in case.options  # the label is the whole setting, fraction included
        gc = case.remedies[case.options.index(GC_SETTINGS)]
        assert not gc.fits
        blocks = case.state.blocks
        free = blocks.state == BlockState.INACTIVE
        assert free.any() and set(blocks.segment[free].tolist()) <= set(blocks.segment[~free].tolist())
        _says(
            p.reveal,
            {
                "en": r"frees only whole, unsplit free blocks \(and only under a memory fraction below 1\.0\): every "
                r"free block here shares its segment with a live block",
                "ro": r"eliberează doar blocuri libere întregi, neîmpărțite \(și doar cu o fracțiune de memorie sub "
                r"1,0\): aici fiecare bloc liber își împarte segmentul cu un bloc ocupat",
                "fr": r"ne libère que des blocs libres entiers, non découpés \(et seulement avec une fraction de "
                r"mémoire inférieure à 1,0\).: ici, chaque bloc libre partage son segment avec un bloc vivant",
            },
            question,
        )
    _says(
        _right(GPU, "reserved-vs-allocated"),
        {"en": "memory fraction below 1.0", "ro": "fracțiune de memorie sub 1,0", "fr": "inférieure à 1,0"},
        "reserved-vs-allocated",
    )


def test_fact6_gpu_memory_utilization_caps_all_of_vllms_memory() -> None:
    _says(
        _right(GPU, "paged-attention"),
        {
            "en": r"gpu_memory_utilization \(0\.9 by default\) caps all of vLLM's memory on the GPU, and the pool gets "
            r"what remains after the weights",
            "ro": r"gpu_memory_utilization \(implicit 0,9\) plafonează toată memoria lui vLLM.*ce rămâne după ponderi",
            "fr": r"gpu_memory_utilization \(0,9 par défaut\) plafonne toute la mémoire de vLLM.*ce qui reste après",
        },
        "paged-attention",
    )
    paged = EXAMPLES["kv_cache_paged"]["description"]
    assert "caps all of its GPU memory" in paged and "as gpu_memory_utilization sizes it" not in paged


def test_fact11_two_pools_per_device_and_the_allocators_segment_sizes() -> None:
    """The segment sizes the text quotes are the allocator's (the project's constants, as in CUDACachingAllocator)."""
    assert (
        1 * MiB, 2 * MiB, 10 * MiB, 20 * MiB, 2 * MiB,
    ) == (SMALL_SIZE, SMALL_BUFFER, MIN_LARGE_ALLOC, LARGE_BUFFER, ROUND_LARGE)  # fmt: skip
    assert allocation_size(SMALL_SIZE) == SMALL_BUFFER and allocation_size(MIN_LARGE_ALLOC - 1) == LARGE_BUFFER
    assert allocation_size(MIN_LARGE_ALLOC + 1) == MIN_LARGE_ALLOC + ROUND_LARGE
    small, large, low, high, step = (
        _mib(v) for v in (SMALL_SIZE, SMALL_BUFFER, LARGE_BUFFER, MIN_LARGE_ALLOC, ROUND_LARGE)
    )
    text = _right(GPU, "caching-allocator")
    _says(
        text,
        {
            "en": rf"two pools per device \(blocks up to {small} MiB.*reused only on it.*from {large} MiB segments, "
            rf"requests of {small} to {high} MiB from {low} MiB segments.*multiple of {step} MiB",
            "ro": rf"două pool-uri pe dispozitiv \(blocuri de până la\s+{small}\s+MiB.*reutilizat doar pe acesta.*"
            rf"segmente de {large}\s+MiB, cele de {small} până la {high}\s+MiB din segmente de {low}\s+MiB.*"
            rf"multiplu de {step}\s+MiB",
            "fr": rf"deux pools par appareil \(blocs jusqu'à {small}\s+Mio.*réutilisé que sur lui.*segments de "
            rf"{large}\s+Mio, celles de {small} à {high}\s+Mio dans des segments de {low}\s+Mio.*"
            rf"multiple de {step}\s+Mio",
        },
        "caching-allocator",
    )
    assert "per-stream pools" not in text.en


def test_fact12_torch_empty_never_initialises() -> None:
    text = _question(GPU, "caching-allocator").choices[0].explanation  # the distractor "to keep tensors alive"
    _says(
        text,
        {
            "en": "torch.empty never initialises memory",
            "ro": "torch.empty nu inițializează niciodată memoria",
            "fr": "torch.empty n'initialise jamais la mémoire",
        },
        "caching-allocator c0",
    )
    for lang in LANGUAGES:
        assert "fill_uninitialized_memory" in text[lang], lang
    assert "which is why torch.empty" not in text.en


def test_fact13_the_oom_message_prints_the_allocation_size_and_each_process() -> None:
    """'Tried to allocate' prints the allocation size: a 2 MiB request makes a 20 MiB segment (allocation_size)."""
    request = 2 * MiB
    printed = _mib(allocation_size(request))
    assert printed == "20"
    text = _question(GPU, "oom-reserved").choices[0].explanation
    _says(
        text,
        {
            "en": rf"a\s+{_mib(request)} MiB request prints {printed} MiB\).*each process uses \(from NVML\)",
            "ro": rf"o cerere de {_mib(request)}\s+MiB apare ca {printed}\s+MiB\).*fiecare proces \(din NVML\)",
            "fr": rf"une demande de\s+{_mib(request)}\s+Mio affiche {printed}\s+Mio\).*"
            rf"chaque processus\s+\(d'après NVML\)",
        },
        "oom-reserved c0",
    )
    _says(
        _question(GPU, "reserved-vs-allocated").choices[1].explanation,
        {"en": "OOM message's per-process lines", "ro": "mesajului de OOM", "fr": "message d'OOM"},
        "reserved-vs-allocated c1",
    )


def test_fact10_two_sqrt_n_is_the_peak_and_sqrt_n_is_kept() -> None:
    _says(
        _right(GPU, "activation-checkpointing"),
        {
            "en": r"the peak of saved activations falls to about 2·sqrt\(N\).*about sqrt\(N\) are kept at the end",
            "ro": r"vârful activărilor\s+păstrate scade la aproximativ echivalentul a 2·sqrt\(N\)",
            "fr": r"le pic des activations gardées tombe à environ celles de 2·sqrt\(N\)",
        },
        "activation-checkpointing",
    )


def test_fact16_nvidia_smi_shows_more_than_reserved_in_the_example_too() -> None:
    description = EXAMPLES["reserved_vs_allocated"]["description"]
    assert "nvidia-smi shows more than the reserved figure" in description and "CUDA context" in description


# ---- gradient-checkpointing --------------------------------------------------------------------------------------


def test_fact2_the_sqrt_caption_names_both_figures_and_the_plot_shows_the_peak() -> None:
    sqrt = lab_templates()["sqrt"]
    _says(
        sqrt,
        {
            "en": r"Kept at the end of the forward: \{kept\}, \{kept_ratio\}x less.*Peak over forward and backward, "
            r"which decides an OOM: \{peak\}.*\{ratio\}x less",
            "ro": r"Păstrat la sfârșitul trecerii înainte: \{kept\}.*Vârful din trecerile înainte și înapoi, care "
            r"decide un OOM: \{peak\}",
            "fr": r"Gardé à la fin de la passe avant\s: \{kept\}.*Pic sur les passes avant et arrière, qui décide "
            r"d'un OOM\s: \{peak\}",
        },
        "map_caption.sqrt",
    )
    caption = _question(GC, "sqrt-schedule").caption
    assert caption is not None
    _says(caption, {"en": "^Peak bytes", "ro": "^Vârful octeților", "fr": "^Pic d'octets"}, "sqrt-schedule caption")


def test_fact17_q5_says_its_show_me_is_the_api_table() -> None:
    q = _question(GC, "pytorch-api")
    assert q.focus == "api" and q.caption is not None
    _says(q.caption, {"en": "checkpoint API table", "ro": "Tabelul API checkpoint", "fr": "tableau de l'API"}, "q5")
    assert "counts the forwards" not in q.caption.en


def test_fact15_fsdp_names_the_gathered_unit_beside_the_sharded_state() -> None:
    for key in ("fsdp",):
        for lang in LANGUAGES:
            assert "{unit}" in lab_templates()[key][lang], lang
    p = PREDICTIONS.find("gradient-checkpointing", "fsdp-mixed-precision")
    assert p is not None
    _says(
        p.reveal,
        {
            "en": r"of sharded state kept between steps.*also holds the unit it all-gathers \(\{unit\}\)",
            "ro": r"de stare partiționată păstrată între pași.*unitatea reunită prin all-gather \(\{unit\}\)",
            "fr": r"d'état partitionné conservé entre les pas.*l'unité qu'il rassemble par all-gather \(\{unit\}\)",
        },
        "fsdp reveal",
    )


# ---- torch itself: what the texts say about autocast, reentrant checkpoint and nn.Linear ------------------------

torch_needed = pytest.mark.skipif(
    __import__("importlib").util.find_spec("torch") is None, reason="torch is not installed"
)


@torch_needed
def test_fact3_autocast_holds_more_than_fp32_in_the_lab_and_the_texts_say_when() -> None:
    from gpumem_gui.teach.lab import DEFAULT_N, DEFAULT_TOKENS, DEFAULT_WIDTH, measure_policy  # noqa: PLC0415

    fp32, auto = (measure_policy("none", DEFAULT_N, dtype=d) for d in ("fp32", "autocast"))
    every32, every_auto = (measure_policy("every", DEFAULT_N, dtype=d) for d in ("fp32", "autocast"))
    more = round(100 * (auto.saved_bytes / fp32.saved_bytes - 1))
    assert more == 15 and (fp32.saved_bytes, auto.saved_bytes) == (1536 * 1024, 1760 * 1024)
    assert every_auto.saved_bytes < every32.saved_bytes  # checkpointed, the weight copies are recomputed
    assert DEFAULT_TOKENS * DEFAULT_WIDTH < DEFAULT_WIDTH**2  # "tokens x width small next to width²"
    q = _question(GC, "fsdp-mixed-precision")
    _says(
        q.choices[q.answer].explanation,
        {
            "en": rf"\({DEFAULT_TOKENS} tokens x {DEFAULT_WIDTH} wide\) holds {more}% more under autocast than in "
            r"fp32 without checkpointing.*stay fp32",
            "ro": rf"\({DEFAULT_TOKENS} de tokeni x {DEFAULT_WIDTH} de lățime\) ține cu {more}% mai mult sub "
            r"autocast.*rămân fp32",
            "fr": rf"\({DEFAULT_TOKENS} jetons x {DEFAULT_WIDTH} de large\) garde {more} % de plus sous autocast.*"
            r"restent en fp32",
        },
        "fsdp-mixed-precision",
    )
    assert q.caption is not None
    _says(
        q.caption,
        {"en": "holds more than fp32", "ro": "ține mai mult decât fp32", "fr": "garde plus que le fp32"},
        "fsdp-mixed-precision caption",
    )
    for lang in LANGUAGES:
        assert "{autocast_every}" in lab_templates()["bf16"][lang] and "{fp32_every}" in lab_templates()["bf16"][lang]
    assert "autocast saves less" not in q.caption.en


@torch_needed
def test_fact9_left_out_use_reentrant_warns_and_runs_reentrant() -> None:
    """torch here: without the argument, checkpoint warns and behaves as use_reentrant=True (it refuses a keyword
    argument, which only the reentrant variant does)."""
    import torch  # noqa: PLC0415
    from torch.utils.checkpoint import checkpoint  # noqa: PLC0415

    x = torch.randn(2, 2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="keyword"):
            checkpoint(lambda h, *, s: h * s, x, s=2.0)
    assert any("use_reentrant" in str(w.message) for w in caught)
    _says(
        _right(GC, "pytorch-api"),
        {
            "en": r"draws a warning .*silently uses use_reentrant=True",
            "ro": r"emite un avertisment .*fără să spună, use_reentrant=True",
            "fr": r"émet un avertissement .*sans le dire, use_reentrant=True",
        },
        "pytorch-api",
    )


@torch_needed
def test_fact14_linear_runs_mm_and_add_on_a_non_contiguous_3d_input() -> None:
    import torch  # noqa: PLC0415
    from torch.utils._python_dispatch import TorchDispatchMode  # noqa: PLC0415

    class Ops(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[str] = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
            self.seen.append(func.overloadpacket.__name__)
            return func(*args, **(kwargs or {}))

    linear = torch.nn.Linear(8, 8)
    for x, expected in (
        (torch.randn(4, 8), "addmm"),
        (torch.randn(2, 4, 8), "addmm"),
        (torch.randn(2, 8, 4).transpose(1, 2), "mm"),
    ):
        with Ops() as ops:
            linear(x)
        assert expected in ops.seen and (expected == "mm") == ("addmm" not in ops.seen), (x.shape, ops.seen)
    for text in (_right(GC, "selective"), lab_templates()["selective"]):
        _says(
            text,
            {"en": r"non-contiguous 3-D input.*runs mm \+ add", "ro": r"3-D necontiguă.*mm \+ add",
             "fr": r"3-D non contiguë.*mm \+ add"},
            "selective",
        )  # fmt: skip


def test_fact8_the_texts_and_the_api_table_agree_on_detached_outputs() -> None:
    """The texts list detached tensors among what reentrant lacks; the API table's case is an only-detached output,
    which reentrant fails (tests/test_lab_api.py runs it)."""
    from gpumem_gui.teach.lab import api  # noqa: PLC0415

    assert dict(api.API_CASES)["detached"] == "the region's only output is detached inside it"
    _says(
        _right(GC, "pytorch-api"), {"en": "detached tensors", "ro": "tensori detașați", "fr": "tenseurs détachés"}, "q5"
    )
    assert not re.search(r"returns a tensor detached", dict(api.API_CASES)["detached"])
