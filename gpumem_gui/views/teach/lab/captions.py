"""The lab's texts: each focus's caption in every quiz language, the note under the table, the timed steps' line."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.teach import lab
from gpumem_gui.teach.demos.captions import lab_templates
from gpumem_gui.teach.demos.wording import Figure, Localized, say
from gpumem_gui.teach.lab import api as lab_api
from gpumem_gui.views.common.language import count, num, pct


def note_text() -> str:
    """What the lab measures and what it does not, under its table."""
    return QCoreApplication.translate(
        "lab",
        "Measured on this CPU with PyTorch, not computed: bytes are the storages created in the forward and still "
        "alive when it returns (parameters excluded), checked against the tensors packed through "
        "saved_tensors_hooks (selective checkpointing keeps its matmul outputs in its own cache, which those "
        "hooks do not see). Recompute counts the ops run in backward under grad mode, as checkpoint does. "
        "No times at this size: layers this small take microseconds, so a clock would measure Python overhead and "
        "the machine's load, not FLOPs; the recompute tab times one step at a size where the matmuls dominate.",
    )


def stage_text(name: str, ns: tuple[int, ...]) -> str:
    """What a running sweep measures now (a stage of teach's run_sweep), with its chain lengths."""
    lengths = ", ".join(num(n) for n in ns)
    if name == "warm_up":
        return QCoreApplication.translate(
            "lab", "importing torch and warming it up (the first run only: seconds, longer on a busy machine)"
        )
    if name == "quick":
        return QCoreApplication.translate("lab", "measuring the first figures: N = {ns}, every policy").format(
            ns=lengths
        )
    if name == "precisions":
        return QCoreApplication.translate("lab", "measuring pure bf16 and autocast bf16 at N = {ns}").format(ns=lengths)
    if name == "longer":
        return QCoreApplication.translate("lab", "measuring a longer chain: N = {ns}").format(ns=lengths)
    if name == "timing":
        return QCoreApplication.translate("lab", "timing one step per policy at N = {ns}").format(ns=lengths)
    return name


def timing_text(sweep: lab.LabSweep | None) -> str:
    """One timed step per policy where matmuls dominate, next to the time its matmul FLOPs predict."""
    t = None if sweep is None else sweep.timings
    if t is None:
        return QCoreApplication.translate(
            "lab",
            "Times: one step per policy is timed at the end, at {width} wide x {tokens} tokens, where matmuls "
            "dominate.",
        ).format(width=num(lab.TIMING_SIZE["width"]), tokens=num(lab.TIMING_SIZE["tokens"]))
    base, flops = t.time("none"), t.step_flops("none")
    part = QCoreApplication.translate("lab", "{policy} {ms} ms ({time}; matmul FLOPs {flops})")
    parts = [
        part.format(
            policy=QCoreApplication.translate("lab", lab.POLICY_LABELS[p]),
            ms=num(t.time(p) * 1e3),
            time=_signed_pct(t.time(p) / base - 1),
            flops=_signed_pct(t.step_flops(p) / flops - 1),
        )
        for p in lab.POLICIES
    ]
    return QCoreApplication.translate(
        "lab",
        "One fp32 forward + backward, best of {repeats}, at {layers} layers x {width} wide x {tokens} tokens on "
        "{threads} CPU {threads:thread|threads}, where matmuls dominate: {parts}. Time beyond the FLOPs is the "
        "recomputed pointwise work (GELU) and checkpointing's own overhead. A clock on a shared CPU varies from run "
        "to run (run again to see by how much); the counted matmuls do not. At the lab's own size a clock would "
        "measure Python overhead, so no times are shown there.",
    ).format(
        repeats=count(t.repeats),
        layers=count(t.n_layers),
        width=count(t.width),
        tokens=count(t.tokens),
        threads=count(t.threads),
        parts=", ".join(parts),
    )


def _signed_pct(fraction: float) -> str:
    return ("+" if fraction >= 0 else "−") + pct(abs(fraction))


# -- the focus captions, in every quiz language (templates: map_caption of quizzes/gradient_checkpointing.toml)


def _size(n: int) -> Figure:
    return Figure(format_bytes(n))


def _percent(fraction: float) -> Figure:
    return Figure(f"{fraction:.0%}")


def _ratio(value: float, decimals: int) -> Figure:
    return Figure(f"{value:.{decimals}f}")


def waiting(key: str, **values: object) -> Localized:
    """A line shown while the figures are not there: measuring, measuring_bf16, measuring_fsdp or no_torch."""
    return say(lab_templates(), key, **values)


def saved_bytes(sweep: lab.LabSweep) -> Localized:
    """The bytes kept at the end of the forward and, apart, the peak over forward and backward, per policy."""
    sizes = {p: _size(sweep.at(p).saved_bytes) for p in lab.POLICIES}
    peaks = {f"{p}_peak": _size(sweep.at(p).peak) for p in lab.POLICIES}
    activation = _size(sweep.at("none").activation_bytes)
    return say(lab_templates(), "saved_bytes", n=sweep.n_layers, activation=activation, **sizes, **peaks)


def sqrt(sweep: lab.LabSweep) -> Localized:
    """sqrt(N)'s kept bytes against none's, then its peak against none's and every layer's: the peak, which decides
    an OOM, is the boundaries plus one recomputed segment, so its ratio is far smaller than the kept bytes' one."""
    n, m, none, every = sweep.n_layers, sweep.at("sqrt"), sweep.at("none"), sweep.at("every")
    return say(
        lab_templates(),
        "sqrt",
        checkpoints=m.checkpoints,
        segment=lab.sqrt_segment(n),
        kept=_size(m.saved_bytes),
        kept_ratio=_ratio(none.saved_bytes / m.saved_bytes, 1),
        n=n,
        peak=_size(m.peak),
        none_peak=_size(none.peak),
        every_peak=_size(every.peak),
        ratio=_ratio(none.peak / m.peak, 1),
        exponent=_ratio(sweep.exponent("sqrt", "peak"), 2),
        none_exponent=_ratio(sweep.exponent("none", "peak"), 2),
    )


def recompute(sweep: lab.LabSweep) -> Localized:
    e, s = sweep.at("every"), sweep.at("sqrt")
    return say(
        lab_templates(),
        "recompute",
        n=sweep.n_layers,
        forwards=e.extra_forwards,
        recomputed=e.recomputed_matmuls,
        matmuls=e.forward_matmuls,
        percent=_percent(e.extra_flops_fraction),
        sqrt_recomputed=s.recomputed_matmuls,
        sqrt_matmuls=s.forward_matmuls,
        sqrt_percent=_percent(s.extra_flops_fraction),
    )


def selective(sweep: lab.LabSweep) -> Localized:
    m, e, none = sweep.at("selective"), sweep.at("every"), sweep.at("none")
    return say(
        lab_templates(),
        "selective",
        kept=_size(m.saved_bytes),
        n=sweep.n_layers,
        none=_size(none.saved_bytes),
        every=_size(e.saved_bytes),
        pointwise=m.recomputed_pointwise,
        matmuls=m.recomputed_matmuls,
        trap_matmuls=sweep.trap.recomputed_matmuls,
        every_matmuls=e.recomputed_matmuls,
    )


def bf16(sweep: lab.LabSweep) -> Localized:
    if not all(sweep.has(d) for d in lab.PRECISIONS):
        return waiting("measuring_bf16")
    fp32, pure, auto = (sweep.at("none", d) for d in lab.PRECISIONS)
    fp32_every, auto_every = (sweep.at("every", d) for d in ("fp32", "autocast"))
    return say(
        lab_templates(),
        "bf16",
        n=sweep.n_layers,
        fp32=_size(fp32.saved_bytes),
        bf16=_size(pure.saved_bytes),
        bf16_ratio=_ratio(pure.saved_bytes / fp32.saved_bytes, 2),
        autocast=_size(auto.saved_bytes),
        autocast_ratio=_ratio(auto.saved_bytes / fp32.saved_bytes, 2),
        autocast_every=_size(auto_every.saved_bytes),
        fp32_every=_size(fp32_every.saved_bytes),
    )


def fsdp(breakdown: lab.FsdpBreakdown, world: int) -> Localized:
    """Per GPU at `world` GPUs against one GPU; the measuring line while that world size is not measured yet."""
    try:
        shard = breakdown.at(world)
    except KeyError:
        return waiting("measuring_fsdp", world=world)
    return say(
        lab_templates(),
        "fsdp",
        strategy=breakdown.strategy,
        world=world,
        dtype=breakdown.dtype,
        optimizer=breakdown.optimizer,
        params=_size(shard.param_bytes),
        grads=_size(shard.grad_bytes),
        state=_size(shard.optimizer_bytes),
        total=_size(shard.total_bytes),
        single=_size(breakdown.total_bytes),
        fraction=_ratio(breakdown.total_bytes / shard.total_bytes, 2),
        unit=_size(shard.gathered_unit_bytes),
    )


SWEEP_CAPTIONS = {
    "saved_bytes": saved_bytes,
    "sqrt": sqrt,
    "recompute": recompute,
    "selective": selective,
    "bf16": bf16,
}


# the api focus's caption: written here in every language; moving it to the quiz file's map_caption needs an "api"
# entry in teach/demos/captions.py's LAB_SPEC


def api_waiting() -> Localized:
    return {
        "en": "trying each case under use_reentrant=True and use_reentrant=False on one block: the table fills in "
        "a few seconds",
        "ro": "se încearcă fiecare caz cu use_reentrant=True și use_reentrant=False pe un bloc: tabelul se "
        "completează în câteva secunde",
        "fr": "essai de chaque cas avec use_reentrant=True et use_reentrant=False sur un bloc\u202f: le tableau se "
        "remplit en quelques secondes",
    }


# the api caption's templates, filled by the one formatter (teach/demos/wording.py): counts grouped and with their
# plural forms, sizes and their units as each language writes them
API_TEMPLATES: dict[str, dict[str, str]] = {
    "cases": {
        "en": "Measured on one block: use_reentrant=True gets {reentrant} of {total} {total:case|cases} right, "
        "use_reentrant=False {plain} of {total} (hover a cell for torch's answer).",
        "ro": "Măsurat pe un bloc: use_reentrant=True rezolvă corect {reentrant} din {total} "
        "{total:caz|cazuri|de cazuri}, use_reentrant=False {plain} din {total} (țineți cursorul pe o celulă pentru "
        "răspunsul lui torch).",
        "fr": "Mesuré sur un bloc\u202f: use_reentrant=True réussit {reentrant} {total:cas|cas} sur {total}, "
        "use_reentrant=False {plain} sur {total} (survolez une cellule pour la réponse de torch).",
    },
    "policy": {
        "en": " Your policy saves {outputs} {outputs:op output|op outputs} ({held} held) and recomputes {recomputed} "
        "of {matmuls} {matmuls:matmul|matmuls}",
        "ro": " Politica dumneavoastră salvează {outputs} "
        "{outputs:ieșire de operație|ieșiri de operații|de ieșiri de operații} ({held} păstrați) și recalculează "
        "{recomputed} din {matmuls} {matmuls:înmulțire de matrice|înmulțiri de matrice|de înmulțiri de matrice}",
        "fr": " Votre politique sauvegarde {outputs} {outputs:sortie d'opération|sorties d'opérations} ({held} "
        "{outputs:gardé|gardés}) et recalcule {recomputed} {recomputed:produit matriciel|produits matriciels} "
        "sur {matmuls}",
    },
    "trap": {
        "en": ": nn.Linear with a bias runs aten.addmm, so naming only aten.mm saves nothing from it.",
        "ro": ": nn.Linear cu bias rulează aten.addmm, așa că o politică ce numește doar aten.mm nu salvează nimic "
        "din el.",
        "fr": "\u202f: nn.Linear avec biais exécute aten.addmm, donc ne nommer qu'aten.mm n'en sauvegarde rien.",
    },
    "end": {"en": ".", "ro": ".", "fr": "."},
}


def api_caption(table: lab_api.ApiTable, m: lab_api.SelectionMeasurement | None) -> Localized:
    """Cases each variant gets right, and what the edited selective policy saved; `m` None: not measured yet."""
    ok = {r: sum(table.outcome(c, r).outcome == "works" for c, _ in lab_api.API_CASES) for r in (True, False)}
    text = say(API_TEMPLATES, "cases", reentrant=ok[True], plain=ok[False], total=len(lab_api.API_CASES))
    if m is None:
        return text
    trap = "mm.default" in m.names and "addmm.default" not in m.names
    policy = say(
        API_TEMPLATES,
        "policy",
        outputs=m.saved_outputs,
        held=Figure(format_bytes(m.saved_bytes)),
        recomputed=m.recomputed_matmuls,
        matmuls=m.forward_matmuls,
    )
    end = say(API_TEMPLATES, "trap" if trap else "end")
    return {lang: text[lang] + policy[lang] + end[lang] for lang in text}
