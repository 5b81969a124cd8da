"""The checkpointing lab: measured saved bytes follow N and sqrt(N), recomputation happens, FSDP shards; the panel."""

from __future__ import annotations

import importlib.util
import itertools
import subprocess
import sys
import textwrap
import time
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gpumem_gui.teach import lab

ROOT = Path(__file__).resolve().parents[1]
N_VALUES = (4, 9, 16, 36, 64)


@pytest.fixture(scope="module")
def staged() -> tuple[lab.LabSweep, list[lab.LabSweep]]:
    partials: list[lab.LabSweep] = []
    return lab.run_sweep(16, n_values=N_VALUES, timing=False, partial=partials.append), partials


@pytest.fixture(scope="module")
def sweep(staged: tuple[lab.LabSweep, list[lab.LabSweep]]) -> lab.LabSweep:
    return staged[0]


def test_sqrt_checkpoints_grow_like_sqrt_n_and_no_checkpointing_like_n(sweep: lab.LabSweep) -> None:
    ns, saved = sweep.curve("sqrt", "kept")
    assert tuple(ns.astype(int)) == N_VALUES
    assert abs(lab.fit_exponent(ns, saved) - 0.5) <= 0.15
    assert abs(sweep.exponent("none", "kept") - 1.0) <= 0.1
    assert abs(sweep.exponent("every", "kept") - 1.0) <= 0.1
    # and not by an accident of scale: sqrt(N) checkpoints keep sqrt(N) activations, none keeps three per layer
    for n, s in zip(ns, saved, strict=True):
        act = sweep.at("none").activation_bytes
        assert s == pytest.approx(np.sqrt(n) * act, rel=0.05)
    reference = sweep.sqrt_reference(ns, "kept")
    np.testing.assert_allclose(reference, saved, rtol=0.05)


def test_the_peak_is_what_sqrt_n_saves_less_of(sweep: lab.LabSweep) -> None:
    """Review fact 2: the peak over forward and backward, not the bytes kept at the end of the forward, decides an
    OOM. For this 3-activation layer (Linear -> GELU -> Linear) sqrt(N) keeps its sqrt(N) boundaries and backward
    rebuilds one segment of sqrt(N) layers: about 4·sqrt(N) activations at the peak, against 3N (+ the input) with
    no checkpointing, so at N=16 the ratio is about 3, not the kept bytes' 12."""
    act = sweep.at("none").activation_bytes
    ns, peaks = sweep.curve("sqrt", "peak")
    for n, peak in zip(ns, peaks, strict=True):
        assert peak == pytest.approx(4 * np.sqrt(n) * act, rel=0.05)
    _, none_peaks = sweep.curve("none", "peak")
    np.testing.assert_allclose(none_peaks, (3 * ns + 1) * act, rtol=0.05)
    assert abs(sweep.exponent("sqrt", "peak") - 0.5) <= 0.1
    at16 = {p: sweep.at(p) for p in lab.POLICIES}
    kept_ratio = at16["none"].saved_bytes / at16["sqrt"].saved_bytes
    peak_ratio = at16["none"].peak / at16["sqrt"].peak
    assert kept_ratio == pytest.approx(12, rel=0.01) and peak_ratio == pytest.approx(3, rel=0.05)
    assert at16["sqrt"].peak < at16["every"].peak < at16["selective"].peak < at16["none"].peak
    # every point of the sweep carries its peak, never below what the forward kept
    assert all(m.peak_bytes is not None and m.peak_bytes >= m.saved_bytes for m in sweep.points)


def test_every_layer_saves_less_than_none_and_recomputes(sweep: lab.LabSweep) -> None:
    none, every = sweep.at("none"), sweep.at("every")
    assert every.saved_bytes < none.saved_bytes
    assert none.extra_forwards == 0 and none.recomputed_matmuls == 0 and none.recomputed_pointwise == 0
    assert none.extra_flops == 0
    for policy in ("every", "sqrt", "selective"):
        m = sweep.at(policy)
        assert m.extra_forwards > 0, policy
        assert m.recomputed_matmuls + m.recomputed_pointwise > 0, policy
        assert m.checkpoints > 0, policy
    # each layer is recomputed once; early stop ends a region before its last matmul, whose output is not needed
    assert every.extra_forwards == 16
    assert every.recomputed_matmuls == 16 and every.forward_matmuls == 32
    assert every.extra_flops_fraction == pytest.approx(0.5)
    assert sweep.at("sqrt").checkpoints == 4


def test_hooks_agree_with_what_stays_alive(sweep: lab.LabSweep) -> None:
    for m in sweep.points:
        if m.policy == "selective":
            # selective checkpointing keeps matmul outputs in its own cache, outside autograd's saved tensors
            assert m.hooked_bytes < m.saved_bytes
        else:
            assert m.hooked_bytes == m.saved_bytes, (m.policy, m.n_layers)
    for m in sweep.at_n:
        assert m.peak_bytes is not None and m.peak_bytes >= m.saved_bytes
    assert sweep.at("sqrt").peak_bytes < sweep.at("every").peak_bytes < sweep.at("none").peak_bytes  # type: ignore[operator]


def test_selective_saves_less_than_none_and_recomputes_less_than_every(sweep: lab.LabSweep) -> None:
    none, every, selective = sweep.at("none"), sweep.at("every"), sweep.at("selective")
    assert selective.saved_bytes < none.saved_bytes
    assert selective.saved_bytes > every.saved_bytes
    assert selective.recomputed_matmuls == 0 and selective.extra_flops == 0
    assert selective.recomputed_pointwise > 0
    assert (
        selective.recomputed_matmuls + selective.recomputed_pointwise
        < every.recomputed_matmuls + every.recomputed_pointwise
    )


def test_the_sweep_shows_short_fp32_chains_first_then_refines(staged: tuple[lab.LabSweep, list[lab.LabSweep]]) -> None:
    final, partials = staged
    first = partials[0]
    assert not first.complete and final.complete
    assert first.n_values == (4, 9, 16)  # only chains up to QUICK_N_MAX: they take a fraction of a second
    assert {m.dtype for m in first.at_n} == {"fp32"} and not first.has("bf16")
    assert all(m.n_layers <= lab.QUICK_N_MAX for m in first.points)
    assert final.n_values == N_VALUES and all(final.has(d) for d in lab.PRECISIONS)
    # each stage adds to the one before, and a figure once shown is the final one
    for before, after in itertools.pairwise([*partials, final]):
        assert set(before.points) <= set(after.points) and set(before.at_n) <= set(after.at_n)
    assert final.timings is None  # timing=False


def test_bf16_activations_take_half(sweep: lab.LabSweep) -> None:
    for policy in lab.POLICIES:
        fp32, bf16 = sweep.at(policy, "fp32"), sweep.at(policy, "bf16")
        assert bf16.saved_bytes / fp32.saved_bytes == pytest.approx(0.5, abs=0.05), policy
        assert bf16.peak_bytes / fp32.peak_bytes == pytest.approx(0.5, abs=0.05), policy  # type: ignore[operator]
        assert bf16.activation_bytes * 2 == fp32.activation_bytes


def test_timings_are_measured_with_the_flops_of_the_same_step() -> None:
    n, width, tokens = 3, 32, 16
    timings = lab.time_policies(lab.POLICIES, n_layers=n, width=width, tokens=tokens, repeats=1)
    assert all(timings.time(p) > 0 for p in lab.POLICIES)
    mm = 2 * tokens * width * width  # one Linear's matmul
    # forward: 2 per layer; backward: a weight gradient per Linear and an input gradient for all but the first
    # (the chain's input needs no gradient); every layer checkpointed re-runs each layer's first matmul
    assert timings.step_flops("none") == (2 * n + 2 * n + 2 * n - 1) * mm
    assert timings.step_flops("every") == timings.step_flops("none") + n * mm
    assert timings.step_flops("selective") == timings.step_flops("none")


def test_fsdp_shards_shrink_with_world_size_and_pad() -> None:
    # width 10: a layer holds 2 * (100 + 10) = 220 parameters, which 3 and 7 do not divide
    sizes = range(1, 9)
    fsdp = lab.measure_fsdp(4, width=10, dtype="fp32", optimizer="AdamW", world_sizes=sizes)
    assert fsdp.n_params == 4 * 220
    assert fsdp.param_bytes == fsdp.grad_bytes == 4 * 220 * 4
    assert dict(fsdp.optimizer_state)["exp_avg"] == fsdp.param_bytes
    one = fsdp.at(1)
    assert (one.param_bytes, one.grad_bytes) == (fsdp.param_bytes, fsdp.grad_bytes)
    for ws in sizes:
        shard = fsdp.at(ws)
        for per_gpu, unsharded in ((shard.param_bytes, fsdp.param_bytes), (shard.grad_bytes, fsdp.grad_bytes)):
            assert per_gpu * ws >= unsharded
            assert per_gpu * ws - unsharded == shard.padding_elements * 4
            assert per_gpu == pytest.approx(unsharded / ws, rel=0.05)
        assert shard.optimizer_bytes == pytest.approx(2 * shard.param_bytes, rel=0.05)  # exp_avg, exp_avg_sq
        assert shard.ranks_param_bytes >= fsdp.param_bytes and shard.ranks_grad_bytes >= fsdp.grad_bytes
        assert shard.ranks_total_bytes >= fsdp.param_bytes + fsdp.grad_bytes
    assert fsdp.at(3).padding_elements == 4 * 2 and fsdp.at(7).padding_elements == 4 * 4
    assert fsdp.at(3).ranks_param_bytes > fsdp.param_bytes
    assert fsdp.at(4).padding_elements == 0 and fsdp.at(4).ranks_param_bytes == fsdp.param_bytes
    totals = [fsdp.at(ws).total_bytes for ws in sizes]
    assert all(a > b for a, b in itertools.pairwise(totals))


def test_fsdp_dtype_and_optimizer_change_the_measured_state() -> None:
    adam = lab.measure_fsdp(2, width=32, dtype="fp32", optimizer="Adam", world_sizes=(1, 4))
    sgd = lab.measure_fsdp(2, width=32, dtype="fp32", optimizer="SGD momentum", world_sizes=(1, 4))
    bf16 = lab.measure_fsdp(2, width=32, dtype="bf16", optimizer="Adam", world_sizes=(1, 4))
    assert [name for name, _ in sgd.optimizer_state] == ["momentum_buffer"]
    assert sgd.optimizer_bytes == sgd.param_bytes
    assert adam.optimizer_bytes > 2 * adam.param_bytes  # exp_avg, exp_avg_sq and a step per parameter
    assert bf16.param_bytes * 2 == adam.param_bytes
    assert bf16.at(4).param_bytes * 2 == adam.at(4).param_bytes


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="policy"):
        lab.measure_policy("sometimes", 2)
    with pytest.raises(ValueError, match="dtype"):
        lab.measure_policy("none", 2, dtype="fp8")
    with pytest.raises(ValueError, match="optimizer"):
        lab.measure_fsdp(1, optimizer="Lion")
    with pytest.raises(ValueError, match="layer"):
        lab.measure_policy("none", 0)


def test_the_install_message_names_a_real_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    assert lab.torch_available() is None  # torch is a test dependency: here it is installed
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    message = lab.torch_available()
    assert message == lab.TORCH_MISSING
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert "pip install 'gpumem-gui[torch]'" in message
    assert any(dep.startswith("torch") for dep in extras["torch"])


def test_the_module_imports_without_torch() -> None:
    script = textwrap.dedent(
        """
        import sys
        class NoTorch:
            def find_spec(self, name, path=None, target=None):
                if name == "torch" or name.startswith("torch."):
                    raise ImportError("torch is hidden")
                return None
        sys.meta_path.insert(0, NoTorch())
        from gpumem_gui.teach import lab, quiz
        print(lab.torch_available())
        print(sorted(quiz.LAB_FOCUSES) == sorted(lab.FOCUSES))
        print("torch" in sys.modules)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [lab.TORCH_MISSING, "True", "False"]


def test_the_lab_names_its_focuses_once() -> None:
    from gpumem_gui.teach import quiz  # noqa: PLC0415

    assert len(set(lab.FOCUSES)) == len(lab.FOCUSES)
    assert frozenset(lab.FOCUSES) == quiz.LAB_FOCUSES  # the quiz validates against the lab's own tuple
    used = {q.focus for loaded in quiz.load_quizzes() for q in loaded.questions if q.focus is not None}
    assert used <= set(lab.FOCUSES)


# the panel


@pytest.fixture
def panel(qtbot: Any) -> Any:
    from gpumem_gui.views.teach.lab.panel import CheckpointLabPanel  # noqa: PLC0415

    p = CheckpointLabPanel()
    p.n_values = (4, 9, 16)  # a short sweep: the curves' law is tested above
    p.timing = False  # timed steps are tested above
    p.auto_run = False  # each test starts the measurement it needs
    qtbot.addWidget(p)
    p.resize(1300, 850)
    p.show()
    return p


def test_panel_measures_and_shows_the_figures(qtbot: Any, panel: Any, tmp_path: Path) -> None:
    from gpumem_gui.core.snapshot.units import format_bytes  # noqa: PLC0415

    panel.n_spin.setValue(9)
    panel.run()
    assert panel.busy()
    qtbot.waitUntil(lambda: not panel.busy(), timeout=120_000)
    sweep, fsdp = panel.sweep, panel.fsdp
    assert sweep is not None and fsdp is not None, panel.status.text()
    assert sweep.n_layers == 9 and sweep.n_values == (4, 9, 16)
    for row, policy in enumerate(lab.POLICIES):
        m = sweep.at(policy)
        assert panel.table.item(row, 1).text().startswith(format_bytes(m.saved_bytes))
        assert panel.table.item(row, 5).text() == str(m.extra_forwards)
        xs, ys = panel.saved_plot.curves[policy].getData()
        np.testing.assert_array_equal(xs, sweep.curve(policy)[0])
        np.testing.assert_allclose(
            ys * panel.saved_plot.divisor, [m.peak_bytes for m in sweep.points if m.policy == policy]
        )
        xs, ys = panel.saved_plot.kept_curves[policy].getData()
        np.testing.assert_allclose(ys * panel.saved_plot.divisor, sweep.curve(policy, "kept")[1])
    assert len(panel.recompute_plot.bar_items()) == 2  # matmul FLOPs and pointwise ops: counted, not timed
    assert len(panel.bf16_plot.bar_items()) == 3  # fp32, pure bf16, autocast bf16
    assert {b.objectName() for b in panel.bf16_plot.bar_items()} == set(lab.PRECISION_LABELS.values())
    page = panel.fsdp_page
    assert page.table.item(1, 1).text() == format_bytes(fsdp.at(page.world_spin.value()).grad_bytes)
    # review fact 15: besides the sharded state, the unit's unsharded gradient, FSDP2's sharding and AdamW's steps
    note = page.note.text()
    assert "until reduce-scatter" in note and "FSDP2's fully_shard splits each parameter on dim 0" in note
    assert "step counters" in note
    assert "measured" in panel.status.text()
    picture = tmp_path / "lab.png"
    assert panel.grab().save(str(picture)) and picture.stat().st_size > 10_000


def test_set_focus_brings_the_measured_part_to_the_front(qtbot: Any, panel: Any) -> None:
    from gpumem_gui.core.snapshot.units import format_bytes  # noqa: PLC0415
    from gpumem_gui.views.teach.lab.panel import TAB_BF16, TAB_FSDP, TAB_RECOMPUTE  # noqa: PLC0415

    panel.set_focus("sqrt")  # nothing measured yet: the focus starts a run and waits for it
    assert panel.busy() and "measuring" in panel.caption.text()
    qtbot.waitUntil(lambda: not panel.busy(), timeout=120_000)
    sweep, fsdp = panel.sweep, panel.fsdp
    assert sweep is not None and fsdp is not None
    n = sweep.n_layers
    curves = panel.saved_plot.curves

    sqrt = sweep.at("sqrt")
    np.testing.assert_array_equal(panel.focus_points, [[n, sqrt.peak_bytes]])
    assert curves["sqrt"].opts["pen"].width() > curves["none"].opts["pen"].width()
    assert format_bytes(sqrt.saved_bytes) in panel.caption.text() and "N^0.5" in panel.caption.text()
    assert format_bytes(sqrt.peak) in panel.caption.text() and "which decides an OOM" in panel.caption.text()
    assert panel.table.item(lab.POLICIES.index("sqrt"), 1).background().style() != 0

    panel.set_focus("saved_bytes")
    assert curves["sqrt"].opts["pen"].width() == curves["none"].opts["pen"].width()
    np.testing.assert_array_equal(panel.focus_points[:, 1], [sweep.at(p).peak_bytes for p in lab.POLICIES])

    panel.set_focus("recompute")
    assert panel.tabs.currentIndex() == TAB_RECOMPUTE
    assert f"{sweep.at('every').extra_forwards} layer forwards" in panel.caption.text()
    assert 100 * sweep.at("sqrt").extra_flops_fraction in panel.focus_points[:, 1]

    panel.set_focus("selective")
    assert panel.tabs.currentIndex() == TAB_RECOMPUTE
    assert curves["selective"].opts["pen"].width() > curves["every"].opts["pen"].width()
    selective = sweep.at("selective")
    assert f"{selective.recomputed_pointwise} pointwise ops" in panel.caption.text()
    assert 100 * selective.extra_flops_fraction in panel.focus_points[:, 1]

    panel.set_focus("bf16")
    assert panel.tabs.currentIndex() == TAB_BF16
    np.testing.assert_allclose(panel.focus_points[:, 1], [sweep.at(p, "bf16").saved_bytes for p in lab.POLICIES])
    assert "x0.50" in panel.caption.text()

    panel.set_focus("fsdp")
    assert panel.tabs.currentIndex() == TAB_FSDP
    shard = fsdp.at(panel.fsdp_page.world_spin.value())
    np.testing.assert_array_equal(
        panel.focus_points[:, 1], [shard.param_bytes, shard.grad_bytes, shard.optimizer_bytes, shard.total_bytes]
    )
    assert format_bytes(shard.total_bytes) in panel.caption.text()

    panel.fsdp_page.world_spin.setValue(3)  # a new world size is measured, and the focus follows it
    qtbot.waitUntil(lambda: not panel.busy(), timeout=60_000)
    assert panel.fsdp.at(3).param_bytes == panel.focus_points[0, 1]
    assert "on 3 GPUs" in panel.caption.text()

    for name in lab.FOCUSES:  # every focus a quiz may name is one the panel shows, with its figures
        panel.set_focus(name)
        assert panel.caption.text() and "measuring" not in panel.caption.text(), name
        assert len(panel.focus_points), name

    with pytest.raises(ValueError, match="unknown focus"):
        panel.set_focus("everything")


def test_panel_without_torch_says_how_to_install(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpumem_gui.views.teach.lab.panel import CheckpointLabPanel  # noqa: PLC0415

    monkeypatch.setattr(lab, "torch_available", lambda: lab.TORCH_MISSING)
    p = CheckpointLabPanel()
    qtbot.addWidget(p)
    assert p.stack.currentWidget() is p.missing
    assert p.missing.text() == lab.TORCH_MISSING
    assert not p.run_button.isEnabled()
    p.run()
    p.set_focus("sqrt")
    assert not p.busy()
    assert p.caption.text() == lab.TORCH_MISSING


def _endless_sweep(n_layers: int, *, progress: Any, **_: Any) -> None:
    """A sweep that never ends by itself: it stops only where its progress callback raises."""
    while True:
        progress(0.5)
        time.sleep(0.005)


def _endless_fsdp(n_layers: int, *, check: Any, **_: Any) -> None:
    while True:
        check()
        time.sleep(0.005)


@pytest.fixture
def fake_torch_panel(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A panel whose measurements are stand-ins that run until cancelled: no torch, no waiting on real work."""
    from gpumem_gui.views.teach.lab.panel import CheckpointLabPanel  # noqa: PLC0415

    monkeypatch.setattr(lab, "torch_available", lambda: None)
    monkeypatch.setattr(lab, "run_sweep", _endless_sweep)
    monkeypatch.setattr(lab, "measure_fsdp", _endless_fsdp)
    p = CheckpointLabPanel()
    qtbot.addWidget(p)
    yield p
    p.shutdown()
    assert p.tasks.wait(10_000)


def test_shutdown_cancels_the_running_measurement_and_the_queued_one(qtbot: Any, fake_torch_panel: Any) -> None:
    p = fake_torch_panel
    p.run()
    assert p.busy() and p.running is not None and p.running.name == "checkpointing lab" and "fsdp" in p.pending
    qtbot.waitUntil(lambda: p.progress.value() == 50, timeout=10_000)  # progress arrives through the task
    p.shutdown()
    assert not p.busy() and not p.pending and p.progress.isHidden()
    assert p.tasks.wait(10_000)  # the worker saw the cancellation at its next step and ended
    assert p.running is None and p.sweep is None and p.fsdp is None
    assert "failed" not in p.status.text()
    p.run()  # the panel still works after a shutdown
    assert p.busy() and p.running is not None


def test_closing_the_panel_cancels_its_tasks(qtbot: Any, fake_torch_panel: Any) -> None:
    p = fake_torch_panel
    p.set_focus("fsdp")
    assert p.busy()
    p.close()
    assert not p.busy()
    assert p.tasks.wait(10_000)


def test_a_failed_measurement_is_one_line_and_the_next_one_runs(
    qtbot: Any, fake_torch_panel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("out of\n  memory")

    monkeypatch.setattr(lab, "run_sweep", broken)
    p = fake_torch_panel
    p.run()
    qtbot.waitUntil(lambda: p.running is not None and p.running.name == "FSDP calculator", timeout=10_000)
    assert p.status.text() == "measurement failed: RuntimeError: out of memory"
    assert p.progress.isHidden() and p.sweep is None


def test_deleting_the_panel_cancels_its_tasks(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6 import QtCore  # noqa: PLC0415

    from gpumem_gui.views.teach.lab.panel import CheckpointLabPanel  # noqa: PLC0415

    monkeypatch.setattr(lab, "torch_available", lambda: None)
    monkeypatch.setattr(lab, "run_sweep", _endless_sweep)
    monkeypatch.setattr(lab, "measure_fsdp", _endless_fsdp)
    p = CheckpointLabPanel()
    tasks = p.tasks
    p.run()
    assert tasks.busy()
    p.deleteLater()  # as a window does when the lab's tab closes, without a word to the panel
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    assert not tasks.busy()  # cancelled with the panel; the worker ends at its next step
    assert tasks.wait(10_000)
