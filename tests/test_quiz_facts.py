"""The facts of issue 21, held in every language: each test reads the quiz texts, and figures come from the raw data."""

from __future__ import annotations

import pickle
import re
import tomllib
from collections.abc import Iterator

import pytest

from gpumem_gui.assets import example_path
from gpumem_gui.teach.quiz import LANGUAGES, Question, Quiz, Text, find_quiz
from tests.kv_pool import kv_pool

MiB = 1 << 20
EXAMPLES_TOML = example_path("fragmented_expandable").parent / "examples.toml"
GPU = find_quiz("gpu-memory")
GC = find_quiz("gradient-checkpointing")


def _question(quiz: Quiz, question_id: str) -> Question:
    return next(q for q in quiz.questions if q.id == question_id)


def _right(quiz: Quiz, question_id: str) -> Text:
    q = _question(quiz, question_id)
    return q.choices[q.answer].explanation


def _all_texts(quiz: Quiz) -> Iterator[tuple[str, Text]]:
    yield "title", quiz.title
    yield "intro", quiz.intro
    for q in quiz.questions:
        yield f"{q.id} prompt", q.prompt
        if q.caption is not None:
            yield f"{q.id} caption", q.caption
        for i, choice in enumerate(q.choices):
            yield f"{q.id} choices[{i}].text", choice.text
            yield f"{q.id} choices[{i}].explanation", choice.explanation


def _says(text: Text, per_language: dict[str, str], where: str) -> None:
    """Each language's text matches its own regex (case-insensitive)."""
    for lang in LANGUAGES:
        assert re.search(per_language[lang], text[lang], re.IGNORECASE), f"{where}.{lang}: {text[lang]!r}"


def _raw(name: str) -> dict:  # type: ignore[type-arg]
    with example_path(name).open("rb") as f:
        snapshot: dict = pickle.load(f)  # type: ignore[type-arg]
    return snapshot


# ---- gpu-memory --------------------------------------------------------------------------------------------------


def test_fact1_empty_cache_says_whole_segments_and_expandable_unmapping() -> None:
    text = _right(GPU, "empty-cache")
    _says(text, {"en": "whole segment", "ro": "segment întreg", "fr": "segment entier"}, "empty-cache")
    _says(
        text,
        {
            "en": r"expandable_segments:True.*unmaps the free pages of segments that still hold live tensors",
            "ro": r"expandable_segments:True.*demapează .*paginile libere ale segmentelor care mai conțin tensori",
            "fr": r"expandable_segments:True.*démappe .*pages libres des segments qui contiennent encore des tenseurs",
        },
        "empty-cache",
    )


def test_fact2_expandable_segments_unmap_between_live_blocks_and_map_again() -> None:
    _says(
        _right(GPU, "expandable-segments"),
        {
            "en": r"unmap free pages, even those lying between live blocks, and map the memory again",
            "ro": r"demapează paginile libere, chiar și pe cele aflate între blocuri ocupate, și mapează din nou",
            "fr": r"démappe les pages libres, même celles situées entre des blocs vivants, et\s+remappe",
        },
        "expandable-segments",
    )


def _actions(name: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for trace in _raw(name)["device_traces"]:
        for entry in trace:
            counts[entry["action"]] = counts.get(entry["action"], 0) + 1
    return counts


def test_issue34_expandable_demo_fits_by_growing_not_by_unmapping() -> None:
    """The bundled expandable run maps pages and unmaps none (issue 34, review fact 1): the texts say its batches fit
    because the segment grows at its end, and that unmapping needs memory pressure this demo never reaches."""
    actions = _actions("fragmented_expandable")
    assert actions.get("segment_map", 0) >= 40 and actions.get("segment_unmap", 0) == 0
    _says(
        _right(GPU, "expandable-segments"),
        {
            "en": r"every batch of the demo fits: its one segment grows at its end.*unmaps none.*never gets there",
            "ro": r"încap toate loturile din\s+demonstrație: singurul ei segment crește la capăt.*nu demapează niciuna",
            "fr": r"chaque lot de la démonstration\s: son unique segment grandit par sa fin.*n'en démappe aucune",
        },
        "expandable-segments",
    )
    description = tomllib.loads(EXAMPLES_TOML.read_text(encoding="utf-8"))["fragmented_expandable"]["description"]
    assert "grows page by page at the end" in description and "never unmaps" in description
    assert "unmapped and mapped again where they are needed, so every batch fits" not in description


def test_fact3_fragmentation_says_no_room_for_a_new_segment_with_the_demos_figure() -> None:
    # the figure the texts quote is the OOM event's device_free in the demo, read from the raw pickle
    (oom,) = [e for e in _raw("fragmented_oom")["device_traces"][0] if e["action"] == "oom"]
    free = f"{oom['device_free'] / MiB:.0f}"
    assert free == "760"
    _says(
        _right(GPU, "fragmentation"),
        {
            "en": rf"no room left for a new segment \(the demo's device has {free} MiB free",
            "ro": rf"nu mai are loc pentru un segment nou \(.*{free}\s+MiB liberi",
            "fr": rf"n'a plus de place pour un nouveau segment \(.*{free}\s+Mio libres",
        },
        "fragmentation",
    )


def test_fact4_reserved_drops_four_ways_and_nvidia_smi_counts_more() -> None:
    text = _right(GPU, "reserved-vs-allocated")
    for lang in LANGUAGES:
        for name in ("empty_cache", "garbage_collection_threshold", "set_per_process_memory_fraction", "NCCL"):
            assert name in text[lang], (lang, name)
    _says(text, {"en": "expandable segments", "ro": "segmente extensibile", "fr": "segments extensibles"}, "q8")
    _says(text, {"en": "CUDA context", "ro": "contextul CUDA", "fr": "contexte CUDA"}, "q8")
    assert "only through" not in text.en and "plus the CUDA context" not in text.en


def test_fact9_paged_attention_names_the_preallocated_pool_and_the_demos_saving() -> None:
    # the saving is computed from the two raw pickles: the contiguous buffers allocated by serving/kv_cache.py, and
    # the pages the same requests take from the paged run's pool (counted in its block tables)
    contiguous = sum(
        b["size"]
        for seg in _raw("kv_cache_contiguous")["segments"]
        for b in seg["blocks"]
        if b["state"] == "active_allocated" and b["frames"] and b["frames"][0]["filename"] == "serving/kv_cache.py"
    )
    pool, same, more, pool_pages = kv_pool()
    assert pool == 25 * contiguous // 24 and more  # the pool is the contiguous peak; the pages saved serve more
    saving = 1 - sum(same) * (pool // pool_pages) / contiguous
    figure = f"{100 * saving:.1f}"
    assert figure == "41.9"
    text = _right(GPU, "paged-attention")
    comma = figure.replace(".", ",")  # Romanian and French write a decimal comma
    _says(
        text,
        {"en": f"{figure}% less", "ro": f"{comma}% mai puțin", "fr": f"{comma} %"},
        "paged-attention",
    )
    for lang in LANGUAGES:
        assert "gpu_memory_utilization" in text[lang], lang
    assert "most of it is never used" not in text.en
    _says(
        text,
        {"en": "reserved memory does not fall", "ro": "memoria rezervată nu scade", "fr": "mémoire réservée ne baisse"},
        "paged-attention",
    )


def test_paged_attention_prompt_agrees_in_gender_in_french() -> None:
    assert "réduit-elle" in _question(GPU, "paged-attention").prompt.fr


def test_fact10_max_split_size_means_blocks_larger_than_it() -> None:
    _says(
        _right(GPU, "oom-reserved"),
        {
            "en": r"max_split_size_mb \(cached blocks larger than that size are never split",
            "ro": r"max_split_size_mb \(blocurile din cache mai mari decât această dimensiune",
            "fr": r"max_split_size_mb \(les blocs en cache plus grands que cette taille",
        },
        "oom-reserved",
    )


# ---- gradient-checkpointing (and the checkpointing question of gpu-memory) ---------------------------------------


@pytest.mark.parametrize("quiz", [GPU, GC], ids=lambda q: q.id)
def test_fact5_no_fixed_overhead_figure_and_no_lab_timings(quiz: Quiz) -> None:
    for where, text in _all_texts(quiz):
        for lang in LANGUAGES:
            assert not re.search(r"33\s?%", text[lang]), (where, lang)
            assert not re.search(r"\d\s?ms\b", text[lang]), (where, lang)
            assert not re.search(r"(roughly|about) one extra forward", text[lang]), (where, lang)


def test_fact5_overhead_says_up_to_one_extra_forward_and_early_stop() -> None:
    q = _question(GC, "overhead")
    fixed = q.choices[1].explanation
    _says(
        fixed,
        {"en": "up to one extra forward", "ro": "cel mult încă o trecere înainte", "fr": "au plus une passe avant"},
        "overhead",
    )
    _says(fixed, {"en": "stops recomputing early", "ro": "oprește devreme", "fr": "arrête tôt"}, "overhead")
    for lang in LANGUAGES:
        assert "set_checkpoint_early_stop" in q.choices[q.answer].explanation[lang], lang


def test_fact6_selective_policy_names_mm_and_addmm() -> None:
    text = _right(GC, "selective")
    for lang in LANGUAGES:
        assert "torch.ops.aten.mm.default" in text[lang], lang
        assert "torch.ops.aten.addmm.default" in text[lang], lang
        assert "nn.Linear" in text[lang], lang


def test_fact7_use_reentrant_false_lists_only_documented_differences() -> None:
    text = _right(GC, "pytorch-api")
    for lang in LANGUAGES:
        for documented in ("torch.autograd.grad", "Tensor.backward(inputs=...)", "use_reentrant=True"):
            assert documented in text[lang], (lang, documented)
    _says(
        text,
        {"en": "keyword arguments", "ro": "argumente cu nume", "fr": "arguments nommés"},
        "pytorch-api",
    )
    _says(text, {"en": "nested structures", "ro": "structuri imbricate", "fr": "structures imbriquées"}, "pytorch-api")
    _says(text, {"en": "detached tensors", "ro": "tensori detașați", "fr": "tenseurs détachés"}, "pytorch-api")
    # nesting checkpoints is not among the documented differences
    nested_checkpoints = {"en": "nested checkpoints", "ro": "checkpoint-uri imbricate", "fr": "checkpoints imbriqués"}
    for lang, nested in nested_checkpoints.items():
        assert nested not in text[lang], lang


def test_fact8_bf16_says_pure_bf16_against_autocast() -> None:
    q = _question(GC, "fsdp-mixed-precision")
    for text in (q.choices[q.answer].explanation, q.caption):
        assert text is not None
        _says(text, {"en": "pure-bf16", "ro": "pur bf16", "fr": "entièrement en bf16"}, "fsdp-mixed-precision")
        _says(text, {"en": "autocast", "ro": "autocast", "fr": "autocast"}, "fsdp-mixed-precision")
    for lang in LANGUAGES:
        assert "model.to(torch.bfloat16)" in q.choices[q.answer].explanation[lang], lang
    assert "bf16 activations take half the bytes" not in (q.caption.en if q.caption else "")
