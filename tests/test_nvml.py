"""NVML readings: the real bindings without a driver, a fake driver with several GPUs (polling: test_nvml_polling)."""

from __future__ import annotations

import ctypes
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import psutil
import pynvml
import pytest

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.sources import nvml as nv
from gpumem_gui.sources.nvml import GpuDevice, GpuProcess, NvmlReading, NvmlSource

GiB = 1 << 30
MiB = 1 << 20


def _driver_present() -> bool:
    try:
        ctypes.CDLL("libnvidia-ml.so.1")
    except OSError:
        return False
    return True


def _vanished_pid() -> int:
    """A pid no process has: above every live one and below the kernel's limit."""
    pid = max(psutil.pids()) + 7919
    while psutil.pid_exists(pid):
        pid += 1
    return pid


# -- a fake driver ------------------------------------------------------------------------------------------------


def _raise(code: int) -> None:
    raise pynvml.NVMLError(code)  # the real bindings' constructor picks the subclass, as for a real driver


@dataclass
class FakeGpu:
    name: Any
    uuid: str
    total: int
    used: int  # as memory info v2 reports it: without `reserved`
    reserved: int
    v2: bool = True
    util: tuple[int, int] | None = (50, 20)
    temperature: int | None = 40
    compute: list[tuple[int, int | None]] = field(default_factory=list)
    graphics: list[tuple[int, int | None]] = field(default_factory=list)
    lost: bool = False
    processes_supported: bool = True


@dataclass(frozen=True)
class FakeHandle:
    index: int


class FakeNvml:
    """A pynvml stand-in over a pretend driver: the real exception classes and constants, answers and refusals as
    a driver gives them. `process_versions` says which process-listing suffixes the driver has."""

    def __init__(
        self,
        gpus: list[FakeGpu],
        *,
        init_error: int | None = None,
        process_versions: tuple[str, ...] = ("_v3", "_v2", ""),
        v2_symbol: bool = True,
    ) -> None:
        for name in dir(pynvml):
            if name.startswith(("NVMLError", "NVML_")) or name in ("nvmlMemory_v2", "NVMLLibraryMismatchError"):
                setattr(self, name, getattr(pynvml, name))
        self.gpus = gpus
        self.init_error = init_error
        self.process_versions = process_versions
        self.v2_symbol = v2_symbol
        self.calls: Counter[str] = Counter()
        self.live = 0  # nvmlInit calls not yet matched by nvmlShutdown

    def _gpu(self, handle: FakeHandle) -> FakeGpu:
        return self.gpus[handle.index]

    def nvmlInit(self) -> None:
        self.calls["init"] += 1
        if self.init_error is not None:
            _raise(self.init_error)
        self.live += 1

    def nvmlShutdown(self) -> None:
        self.calls["shutdown"] += 1
        self.live -= 1

    def nvmlSystemGetDriverVersion(self) -> str:
        return "550.54.15"

    def nvmlDeviceGetCount(self) -> int:
        if self.live <= 0:
            _raise(pynvml.NVML_ERROR_UNINITIALIZED)
        return len(self.gpus)

    def nvmlDeviceGetHandleByIndex(self, index: int) -> FakeHandle:
        if self.gpus[index].lost:
            _raise(pynvml.NVML_ERROR_GPU_IS_LOST)
        return FakeHandle(index)

    def nvmlDeviceGetName(self, handle: FakeHandle) -> Any:
        return self._gpu(handle).name

    def nvmlDeviceGetUUID(self, handle: FakeHandle) -> str:
        return self._gpu(handle).uuid

    def nvmlDeviceGetMemoryInfo(self, handle: FakeHandle, version: int | None = None) -> Any:
        g = self._gpu(handle)
        if version:
            self.calls[f"memory_v2:{handle.index}"] += 1
            if not self.v2_symbol:
                _raise(pynvml.NVML_ERROR_FUNCTION_NOT_FOUND)
            if not g.v2:
                _raise(pynvml.NVML_ERROR_NOT_SUPPORTED)
            free = g.total - g.reserved - g.used
            return SimpleNamespace(version=version, total=g.total, reserved=g.reserved, free=free, used=g.used)
        self.calls[f"memory_v1:{handle.index}"] += 1
        return SimpleNamespace(total=g.total, free=g.total - g.reserved - g.used, used=g.used + g.reserved)

    def nvmlDeviceGetUtilizationRates(self, handle: FakeHandle) -> Any:
        util = self._gpu(handle).util
        if util is None:
            _raise(pynvml.NVML_ERROR_NOT_SUPPORTED)
        return SimpleNamespace(gpu=util[0], memory=util[1])

    def nvmlDeviceGetTemperature(self, handle: FakeHandle, sensor: int) -> int:
        assert sensor == pynvml.NVML_TEMPERATURE_GPU
        t = self._gpu(handle).temperature
        if t is None:
            _raise(pynvml.NVML_ERROR_NOT_SUPPORTED)
        return t

    def _processes(self, kind: str, suffix: str, handle: FakeHandle) -> list[Any]:
        self.calls[f"{kind}{suffix}"] += 1
        if suffix not in self.process_versions:
            if suffix == "":  # what current bindings do when their unversioned alias finds no _v3
                raise pynvml.NVMLLibraryMismatchError("Unversioned function called and the pyNVML version ...")
            _raise(pynvml.NVML_ERROR_FUNCTION_NOT_FOUND)
        g = self._gpu(handle)
        if not g.processes_supported:
            _raise(pynvml.NVML_ERROR_NOT_SUPPORTED)
        return [
            SimpleNamespace(pid=pid, usedGpuMemory=used, gpuInstanceId=0xFFFFFFFF, computeInstanceId=0xFFFFFFFF)
            for pid, used in getattr(g, kind)
        ]

    def nvmlDeviceGetComputeRunningProcesses_v3(self, handle: FakeHandle) -> list[Any]:
        return self._processes("compute", "_v3", handle)

    def nvmlDeviceGetComputeRunningProcesses_v2(self, handle: FakeHandle) -> list[Any]:
        return self._processes("compute", "_v2", handle)

    def nvmlDeviceGetComputeRunningProcesses(self, handle: FakeHandle) -> list[Any]:
        return self._processes("compute", "", handle)

    def nvmlDeviceGetGraphicsRunningProcesses_v3(self, handle: FakeHandle) -> list[Any]:
        return self._processes("graphics", "_v3", handle)

    def nvmlDeviceGetGraphicsRunningProcesses_v2(self, handle: FakeHandle) -> list[Any]:
        return self._processes("graphics", "_v2", handle)

    def nvmlDeviceGetGraphicsRunningProcesses(self, handle: FakeHandle) -> list[Any]:
        return self._processes("graphics", "", handle)


def three_gpus(me: int, gone: int) -> list[FakeGpu]:
    return [
        FakeGpu(
            "NVIDIA H100 80GB HBM3",
            "GPU-aaaaaaaa-0000-1111-2222-333333333333",
            80 * GiB,
            30 * GiB,
            512 * MiB,
            util=(97, 41),
            temperature=61,
            compute=[(me, 20 * GiB), (gone, 9 * GiB)],
        ),
        # an older board: no memory info v2, no utilisation counters, a graphics context beside the compute one
        FakeGpu(
            b"Tesla V100-SXM2-16GB",
            "GPU-bbbbbbbb-0000-1111-2222-333333333333",
            16 * GiB,
            2 * GiB,
            300 * MiB,
            v2=False,
            util=None,
            temperature=None,
            compute=[(me, 2 * GiB)],
            graphics=[(me, 2 * GiB), (gone, None)],
        ),
        FakeGpu("NVIDIA A100-SXM4-40GB", "GPU-cccccccc-0000-1111-2222-333333333333", 40 * GiB, 0, 400 * MiB),
    ]


# -- NvmlSource ---------------------------------------------------------------------------------------------------


def test_nvml_missing_is_reported() -> None:
    """The real bindings on a machine without a driver: no devices, one line, no exception."""
    if _driver_present():
        pytest.skip("an NVIDIA driver is present here")
    source = NvmlSource()
    reading = source.read()
    assert reading.devices == ()
    assert reading.error == nv.NO_DRIVER
    assert "\n" not in reading.error and "NVML" in reading.error
    assert not reading.available and reading.driver_version is None
    assert source.read().error == nv.NO_DRIVER  # asked again within retry_s: the same answer, still no exception
    assert source.read().pid_memory() == {}  # what the attach dialog and a live session read: nothing
    source.close()


@pytest.mark.gpu
def test_real_driver_reads_every_gpu() -> None:
    if not _driver_present():
        pytest.skip("no NVIDIA driver here")
    source = NvmlSource()
    try:
        reading = source.read()
    finally:
        source.close()
    assert reading.error is None, reading.error
    assert reading.devices and reading.driver_version
    for d in reading.devices:
        assert d.name and d.uuid and d.total and d.memory_version in (1, 2)


def test_init_failures_are_one_line_each() -> None:
    for code, message in (
        (pynvml.NVML_ERROR_LIBRARY_NOT_FOUND, nv.NO_DRIVER),
        (pynvml.NVML_ERROR_DRIVER_NOT_LOADED, nv.DRIVER_NOT_LOADED),
        (pynvml.NVML_ERROR_LIB_RM_VERSION_MISMATCH, nv.VERSION_MISMATCH),
    ):
        reading = NvmlSource(FakeNvml([], init_error=code)).read()
        assert reading == NvmlReading((), message, None, reading.taken_at, reading.read_s)
    other = NvmlSource(FakeNvml([], init_error=pynvml.NVML_ERROR_NO_PERMISSION)).read()
    assert other.error == "NVML could not start (Insufficient Permissions): no GPU monitoring"


def test_missing_bindings_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_module(name: str) -> Any:
        raise ModuleNotFoundError(f"No module named {name!r}")

    monkeypatch.setattr(nv.importlib, "import_module", no_module)
    assert NvmlSource().read().error == nv.NO_BINDINGS


def test_init_is_lazy_once_and_retried_after_a_failure() -> None:
    fake = FakeNvml(three_gpus(os.getpid(), _vanished_pid()), init_error=pynvml.NVML_ERROR_DRIVER_NOT_LOADED)
    source = NvmlSource(fake, retry_s=3600)
    assert fake.calls["init"] == 0
    assert source.read().error == nv.DRIVER_NOT_LOADED
    fake.init_error = None  # the driver gets loaded
    assert source.read().error == nv.DRIVER_NOT_LOADED  # not asked again before retry_s
    assert fake.calls["init"] == 1
    source.retry_s = 0
    assert source.read().error is None
    assert len(source.read().devices) == 3
    assert fake.calls["init"] == 2 and source.info == "NVML, driver 550.54.15"
    source.close()
    source.close()
    assert fake.calls["shutdown"] == 1 and fake.live == 0


def test_fields_of_every_gpu() -> None:
    me, gone = os.getpid(), _vanished_pid()
    fake = FakeNvml(three_gpus(me, gone))
    source = NvmlSource(fake)
    reading = source.read()
    assert reading.error is None and reading.driver_version == "550.54.15"
    assert reading.read_s >= 0 and abs(reading.taken_at - time.time()) < 60
    h100, v100, a100 = reading.devices
    assert (h100.index, h100.name, h100.uuid) == (
        0,
        "NVIDIA H100 80GB HBM3",
        "GPU-aaaaaaaa-0000-1111-2222-333333333333",
    )
    assert (h100.total, h100.used, h100.reserved) == (80 * GiB, 30 * GiB, 512 * MiB)
    assert h100.free == 80 * GiB - 30 * GiB - 512 * MiB
    assert (h100.gpu_util, h100.mem_util, h100.temperature, h100.memory_version) == (97, 41, 61, 2)
    assert h100.used_fraction == pytest.approx(30 / 80)
    # v2 not supported on this board: v1 answers, reserved is unknown and included in used
    assert v100.name == "Tesla V100-SXM2-16GB"  # bytes from older bindings are decoded
    assert (v100.memory_version, v100.reserved, v100.used) == (1, None, 2 * GiB + 300 * MiB)
    assert v100.free == 16 * GiB - 2 * GiB - 300 * MiB
    # NotSupported costs exactly those fields
    assert (v100.gpu_util, v100.mem_util, v100.temperature) == (None, None, None)
    assert v100.total == 16 * GiB and v100.error is None
    assert a100.processes == () and a100.processes_note is None and a100.used == 0


def test_v2_memory_is_not_asked_again_where_unsupported() -> None:
    fake = FakeNvml(three_gpus(os.getpid(), _vanished_pid()))
    source = NvmlSource(fake)
    for _ in range(3):
        source.read()
    assert fake.calls["memory_v2:1"] == 1 and fake.calls["memory_v1:1"] == 3
    assert fake.calls["memory_v2:0"] == 3 and fake.calls["memory_v1:0"] == 0


def test_v1_memory_where_the_driver_lacks_v2() -> None:
    fake = FakeNvml(three_gpus(os.getpid(), _vanished_pid()), v2_symbol=False)
    source = NvmlSource(fake)
    for _ in range(2):
        devices = source.read().devices
    assert [d.memory_version for d in devices] == [1, 1, 1]
    assert [d.reserved for d in devices] == [None, None, None]
    assert devices[0].used == 30 * GiB + 512 * MiB
    assert sum(fake.calls[f"memory_v2:{i}"] for i in range(3)) == 1  # a missing symbol is missing for every GPU


def test_processes_merge_and_describe() -> None:
    me, gone = os.getpid(), _vanished_pid()
    h100, v100, _ = NvmlSource(FakeNvml(three_gpus(me, gone))).read().devices
    own = psutil.Process(me)
    mine = GpuProcess(me, 20 * GiB, "compute", own.username(), " ".join(own.cmdline()))
    assert h100.processes == (mine, GpuProcess(gone, 9 * GiB, "compute", None, None))
    # in both lists: one process (its memory counted once); the vanished one has no user, command or memory
    assert v100.processes == (
        GpuProcess(me, 2 * GiB, "compute+graphics", mine.user, mine.command),
        GpuProcess(gone, None, "graphics", None, None),
    )


def test_a_pid_in_several_mig_instances_adds_up_and_wddm_memory_is_unknown() -> None:
    gpu = FakeGpu("g", "GPU-d", 80 * GiB, GiB, 0, compute=[(10, GiB), (10, 2 * GiB), (11, None)])
    device = NvmlSource(FakeNvml([gpu]), describe=lambda pid: ("u", f"cmd {pid}")).read().devices[0]
    assert device.processes == (
        GpuProcess(10, 3 * GiB, "compute", "u", "cmd 10"),
        GpuProcess(11, None, "compute", "u", "cmd 11"),
    )


def test_process_calls_fall_back_and_remember() -> None:
    me = os.getpid()
    for versions, used in ((("_v2", ""), "_v2"), (("",), "")):
        fake = FakeNvml(three_gpus(me, _vanished_pid()), process_versions=versions)
        source = NvmlSource(fake)
        for _ in range(4):
            devices = source.read().devices
        assert devices[0].processes[0].pid == me and devices[0].processes_note is None
        assert fake.calls["compute_v3"] == 1  # tried once, then never again
        assert fake.calls[f"compute{used}"] == 4 * 3
        assert fake.calls[f"graphics{used}"] == 4 * 3


def test_no_process_call_at_all_gives_na() -> None:
    fake = FakeNvml(three_gpus(os.getpid(), _vanished_pid()), process_versions=())
    source = NvmlSource(fake)
    source.read()
    device = source.read().devices[0]
    assert device.processes == ()
    assert device.processes_note is not None and device.processes_note.count(nv.NA) == 2
    assert fake.calls["compute_v3"] == 1 and fake.calls["compute"] == 1  # each tried once, then given up


def test_unsupported_process_listing_and_a_lost_gpu() -> None:
    gpus = three_gpus(os.getpid(), _vanished_pid())
    gpus[0].processes_supported = False
    gpus[2].lost = True
    h100, v100, lost = NvmlSource(FakeNvml(gpus)).read().devices
    assert h100.processes == () and h100.processes_note is not None and "Not Supported" in h100.processes_note
    assert h100.total == 80 * GiB and v100.processes
    assert lost == GpuDevice(2, None, None, None, None, None, None, None, None, None, error="GPU is lost")


def test_read_never_raises() -> None:
    class Broken(FakeNvml):
        def nvmlDeviceGetUUID(self, handle: FakeHandle) -> str:
            raise ValueError("a bug in the bindings")

    reading = NvmlSource(Broken(three_gpus(os.getpid(), _vanished_pid()))).read()
    assert reading.devices == () and reading.error == "NVML read failed: ValueError: a bug in the bindings"


def test_nvml_shut_down_under_us_starts_again() -> None:
    fake = FakeNvml(three_gpus(os.getpid(), _vanished_pid()))
    source = NvmlSource(fake)
    source.read()
    fake.live = 0
    assert source.read().error == "NVML could not count the GPUs (Uninitialized)"
    assert len(source.read().devices) == 3 and fake.calls["init"] == 2


def test_describe_process_without_permission(monkeypatch: pytest.MonkeyPatch) -> None:
    class Denied:
        def __init__(self, pid: int) -> None:
            self.pid = pid

        def username(self) -> str:
            return "root"

        def cmdline(self) -> list[str]:
            raise psutil.AccessDenied(self.pid)

        def name(self) -> str:
            raise psutil.AccessDenied(self.pid)

    monkeypatch.setattr(nv.psutil, "Process", Denied)
    assert nv.describe_process(1) == ("root", None)
    assert nv.describe_process(_vanished_pid()) == ("root", None)


def test_describe_a_real_and_a_vanished_process() -> None:
    me = psutil.Process()
    assert nv.describe_process(os.getpid()) == (me.username(), " ".join(me.cmdline()))
    assert nv.describe_process(_vanished_pid()) == (None, None)


def test_pid_memory_sums_over_gpus() -> None:
    me, gone = os.getpid(), _vanished_pid()
    fake = FakeNvml(three_gpus(me, gone))
    source = NvmlSource(fake)
    assert source.read().pid_memory() == {me: 22 * GiB, gone: 9 * GiB}  # a live session's nvml_used
    assert fake.live == 1
    source.close()


def test_format_reading() -> None:
    me, gone = os.getpid(), _vanished_pid()
    text = nv.format_reading(NvmlSource(FakeNvml(three_gpus(me, gone))).read())
    lines = text.splitlines()
    assert lines[0] == "driver 550.54.15, 3 GPU(s)"
    assert lines[1].startswith("GPU 0: NVIDIA H100 80GB HBM3") and f"reserved {format_bytes(512 * MiB)}" in lines[1]
    assert f"{gone:>8}" in text and "reserved n/a; util n/a, memory busy n/a" in text
    assert nv.format_reading(NvmlReading((), nv.NO_DRIVER)) == nv.NO_DRIVER
