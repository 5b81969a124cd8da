"""NVML device readings: every GPU's memory, utilisation and processes as frozen values, polled in a thread; no Qt."""

from __future__ import annotations

import contextlib
import importlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import psutil  # type: ignore[import-untyped, unused-ignore]

from gpumem_gui.core.snapshot.units import format_bytes
from gpumem_gui.sources.words import QT_TRANSLATE_NOOP, as_is, error_text, joined, say

NA = "n/a"  # how every unknown value (None below) is shown
# why NVML cannot be read, one line each (Sentences: the window says them in its language)
NO_DRIVER = QT_TRANSLATE_NOOP("Nvml", "NVIDIA driver not found: NVML is unavailable (no GPU monitoring)")
DRIVER_NOT_LOADED = QT_TRANSLATE_NOOP(
    "Nvml", "NVIDIA driver is installed but not loaded: NVML is unavailable (no GPU monitoring)"
)
VERSION_MISMATCH = QT_TRANSLATE_NOOP(
    "Nvml", "NVIDIA driver and NVML library versions differ (reboot or reload the driver): no GPU monitoring"
)
NO_BINDINGS = QT_TRANSLATE_NOOP(
    "Nvml", "nvidia-ml-py (module pynvml) is not installed: NVML is unavailable (no GPU monitoring)"
)

MEMORY_UTIL_TIP = QT_TRANSLATE_NOOP(
    "DeviceView",  # the devices page's words: a column's tip
    "Memory utilisation is the fraction of the last sample period (1/6 s to 1 s) during which device memory was read or written: bandwidth busy time, not how full the memory is. Fullness is used / total.",  # noqa: E501 (one literal: lupdate)
)
NOT_STARTED = QT_TRANSLATE_NOOP("Nvml", "NVML could not start ({error}): no GPU monitoring")
NOT_COUNTED = QT_TRANSLATE_NOOP("Nvml", "NVML could not count the GPUs ({error})")
READING_FAILED = QT_TRANSLATE_NOOP("Nvml", "reading failed: {error}")
NOTES_APART = "; "  # between a device's notes on its process lists (a view translates each note)
NOT_LISTED = QT_TRANSLATE_NOOP("Nvml", "{kind} processes n/a ({error})")
NO_LIST_CALL = QT_TRANSLATE_NOOP("Nvml", "{kind} processes n/a (this driver has no call to list them)")
READ_FAILED = QT_TRANSLATE_NOOP("Nvml", "NVML read failed: {error}")
KINDS = {"compute": QT_TRANSLATE_NOOP("Nvml", "compute"), "graphics": QT_TRANSLATE_NOOP("Nvml", "graphics")}
# every message above, each made with say(): the window says it in its language (views/common/sentences.said)
MESSAGES = (
    NO_DRIVER,
    DRIVER_NOT_LOADED,
    VERSION_MISMATCH,
    NO_BINDINGS,
    NOT_STARTED,
    NOT_COUNTED,
    READING_FAILED,
    READ_FAILED,
    NO_LIST_CALL,
    NOT_LISTED,
    *KINDS.values(),
)

ProcessKind = Literal["compute", "graphics", "compute+graphics"]

# newest first; the unversioned names are the oldest entry points in older bindings (in current nvidia-ml-py
# they are aliases of _v3 that raise NVMLLibraryMismatchError when the driver lacks it)
_PROCESS_CALLS: dict[str, tuple[str, ...]] = {
    "compute": (
        "nvmlDeviceGetComputeRunningProcesses_v3",
        "nvmlDeviceGetComputeRunningProcesses_v2",
        "nvmlDeviceGetComputeRunningProcesses",
    ),
    "graphics": (
        "nvmlDeviceGetGraphicsRunningProcesses_v3",
        "nvmlDeviceGetGraphicsRunningProcesses_v2",
        "nvmlDeviceGetGraphicsRunningProcesses",
    ),
}
_NOT_AVAILABLE_U64 = (1 << 64) - 1  # NVML_VALUE_NOT_AVAILABLE, which old bindings hand back unconverted


@dataclass(frozen=True)
class GpuProcess:
    """One process with a context on one GPU. None = unknown (vanished, no permission, or the driver can't say)."""

    pid: int  # a host-namespace pid: inside a container without --pid=host it names another (or no) process
    used_bytes: int | None  # None under Windows WDDM and some MIG setups
    kind: ProcessKind
    user: str | None
    command: str | None


@dataclass(frozen=True)
class GpuDevice:
    """One GPU as NVML sees it; every field the driver would not give is None."""

    index: int  # NVML (PCI bus) order, which is CUDA's order only with CUDA_DEVICE_ORDER=PCI_BUS_ID
    name: str | None
    uuid: str | None
    total: int | None
    used: int | None  # v2: excludes `reserved`; v1: includes it
    free: int | None
    reserved: int | None  # driver/firmware memory; memory info v2 only
    gpu_util: int | None  # percent of the sample period a kernel was running
    mem_util: int | None  # percent of the sample period memory was read or written (see MEMORY_UTIL_TIP)
    temperature: int | None  # degrees C
    processes: tuple[GpuProcess, ...] = ()
    memory_version: int | None = None  # 2 or 1: which memory info call answered; None: neither
    processes_note: str | None = None  # why `processes` is empty although it may not be (the listing failed)
    error: str | None = None  # the device could not be opened at all

    @property
    def used_fraction(self) -> float | None:
        if self.used is None or not self.total:
            return None
        return self.used / self.total


@dataclass(frozen=True)
class NvmlReading:
    """All GPUs at one moment, or the one line saying why there are none."""

    devices: tuple[GpuDevice, ...]
    error: str | None = None
    driver_version: str | None = None
    taken_at: float = 0.0  # time.time() when the read began
    read_s: float = 0.0  # how long the read took

    @property
    def available(self) -> bool:
        return self.error is None

    def pid_memory(self) -> dict[int, int]:
        """pid -> GPU memory summed over every GPU; a process whose memory NVML can't report counts 0 bytes."""
        total: dict[int, int] = {}
        for device in self.devices:
            for p in device.processes:
                total[p.pid] = total.get(p.pid, 0) + (p.used_bytes or 0)
        return total


def describe_process(pid: int) -> tuple[str | None, str | None]:
    """(user, command line) of a local process; None for what has vanished or may not be read."""
    try:
        proc = psutil.Process(pid)
    except psutil.Error:
        return None, None
    user = _ask(proc.username)
    argv = _ask(proc.cmdline)
    # kernel threads and zombies have no argv; their name is still worth showing
    command = " ".join(argv) if argv else _ask(proc.name)
    return user, command


def _ask(getter: Callable[[], Any]) -> Any:
    try:
        return getter()
    except (psutil.Error, OSError):
        return None


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _count(value: Any) -> int | None:
    if value is None:
        return None
    n = int(value)
    return None if n == _NOT_AVAILABLE_U64 else n


def _add(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else a + b


class NvmlSource:
    """Reads NVML on demand. Initialises lazily and at most once; the first failure becomes the reading's
    one-line `error` (retried every `retry_s`, so a driver loaded later is found). Never raises from read().

    `nvml` is the bindings module (default: `pynvml`, imported on first read) so tests can pass a fake driver.
    read() and close() may be called from different threads."""

    def __init__(
        self,
        nvml: Any = None,
        *,
        retry_s: float = 30.0,
        describe: Callable[[int], tuple[str | None, str | None]] = describe_process,
    ) -> None:
        self._nvml = nvml
        self.retry_s = retry_s
        self._describe = describe
        self._lock = threading.Lock()
        self._started = False
        self._failure: str | None = None
        self._failed_at = 0.0
        self._driver_version: str | None = None
        self._no_v2: set[int] = set()  # devices (by index) whose memory info v2 is not supported
        self._v2_missing = False  # the driver lacks memory info v2 altogether
        self._process_call: dict[str, int] = {}  # kind -> index in _PROCESS_CALLS of the call known to work

    @property
    def info(self) -> str:
        if self._failure is not None:
            return self._failure
        return f"NVML, driver {self._driver_version}" if self._driver_version else "NVML"

    def read(self) -> NvmlReading:
        taken_at, started = time.time(), time.perf_counter()
        with self._lock:
            try:
                devices, error = self._read_locked()
            except Exception as e:  # a broken binding must cost one line in the view, never the poller thread
                devices, error = (), say(READ_FAILED, error=as_is(f"{type(e).__name__}: {e}"))
            return NvmlReading(devices, error, self._driver_version, taken_at, time.perf_counter() - started)

    def close(self) -> None:
        with self._lock:
            if self._started:
                self._started = False
                # shutting down a driver that went away is not worth an error
                with contextlib.suppress(Exception):
                    self._nvml.nvmlShutdown()

    # -- internals (called with the lock held) ----------------------------------------------------------------

    def _start(self) -> str | None:
        if self._started:
            return None
        if self._failure is not None and time.monotonic() - self._failed_at < self.retry_s:
            return self._failure
        if self._nvml is None:
            try:
                self._nvml = importlib.import_module("pynvml")
            except ImportError:
                return self._fail(NO_BINDINGS)
        nvml = self._nvml
        try:
            nvml.nvmlInit()
        except nvml.NVMLError as e:
            return self._fail(self._init_message(e))
        self._started, self._failure = True, None
        self._driver_version = _text(self._field(nvml.nvmlSystemGetDriverVersion))
        return None

    def _fail(self, message: str) -> str:
        self._failure, self._failed_at = message, time.monotonic()
        return message

    def _init_message(self, e: Exception) -> str:
        if self._is(e, "NVMLError_LibraryNotFound"):
            return NO_DRIVER
        if self._is(e, "NVMLError_DriverNotLoaded"):
            return DRIVER_NOT_LOADED
        if self._is(e, "NVMLError_LibRmVersionMismatch"):
            return VERSION_MISMATCH
        return say(NOT_STARTED, error=error_text(e))

    def _soft_errors(self) -> tuple[type[BaseException], ...]:
        """NVML's errors, and the bindings' own one for an unversioned call the driver lacks."""
        mismatch = getattr(self._nvml, "NVMLLibraryMismatchError", None)
        return (self._nvml.NVMLError,) + ((mismatch,) if isinstance(mismatch, type) else ())

    def _is(self, e: BaseException, class_name: str) -> bool:
        cls = getattr(self._nvml, class_name, None)
        return isinstance(cls, type) and isinstance(e, cls)

    def _read_locked(self) -> tuple[tuple[GpuDevice, ...], str | None]:
        failure = self._start()
        if failure is not None:
            return (), failure
        nvml = self._nvml
        try:
            count = int(nvml.nvmlDeviceGetCount())
        except nvml.NVMLError as e:
            if self._is(e, "NVMLError_Uninitialized"):
                self._started = False  # someone shut NVML down under us: start again next time
            return (), say(NOT_COUNTED, error=error_text(e))
        return tuple(self._device(i) for i in range(count)), None

    def _field(self, fn: Callable[..., Any] | None, *args: Any) -> Any:
        """One NVML value, or None where this device, driver or user can't have it."""
        if fn is None:
            return None
        try:
            return fn(*args)
        except self._soft_errors():
            return None

    def _device(self, index: int) -> GpuDevice:
        nvml = self._nvml
        try:
            handle = nvml.nvmlDeviceGetHandleByIndex(index)
        except nvml.NVMLError as e:  # a lost GPU, or one this user may not open
            return GpuDevice(index, None, None, None, None, None, None, None, None, None, error=error_text(e))
        get = self._field
        name = _text(get(nvml.nvmlDeviceGetName, handle))
        uuid = _text(get(nvml.nvmlDeviceGetUUID, handle))
        total, used, free, reserved, version = self._memory(index, handle)
        util = get(nvml.nvmlDeviceGetUtilizationRates, handle)
        gpu_util = _count(getattr(util, "gpu", None))
        mem_util = _count(getattr(util, "memory", None))
        sensor = getattr(nvml, "NVML_TEMPERATURE_GPU", 0)
        temperature = _count(get(getattr(nvml, "nvmlDeviceGetTemperature", None), handle, sensor))
        processes, note = self._processes(handle)
        return GpuDevice(
            index, name, uuid, total, used, free, reserved, gpu_util, mem_util, temperature, processes, version, note
        )

    def _memory(self, index: int, handle: Any) -> tuple[int | None, int | None, int | None, int | None, int | None]:
        nvml = self._nvml
        v2_version = getattr(nvml, "nvmlMemory_v2", None)
        if v2_version is not None and not self._v2_missing and index not in self._no_v2:
            try:
                m = nvml.nvmlDeviceGetMemoryInfo(handle, version=v2_version)
                return _count(m.total), _count(m.used), _count(m.free), _count(m.reserved), 2
            except nvml.NVMLError as e:
                if self._is(e, "NVMLError_FunctionNotFound"):
                    self._v2_missing = True
                elif self._is(e, "NVMLError_NotSupported") or self._is(e, "NVMLError_ArgumentVersionMismatch"):
                    self._no_v2.add(index)
                # anything else (a timeout, say) may pass: v1 this time, v2 again next time
            except TypeError:  # bindings older than the `version` argument
                self._v2_missing = True
        m = self._field(nvml.nvmlDeviceGetMemoryInfo, handle)
        if m is None:
            return None, None, None, None, None
        return _count(m.total), _count(m.used), _count(m.free), None, 1

    def _list(self, kind: str, handle: Any) -> tuple[list[Any] | None, str | None]:
        """One process list through the newest call this driver has, remembered once one answers."""
        nvml = self._nvml
        names = _PROCESS_CALLS[kind]
        start = self._process_call.get(kind, 0)
        for i in range(start, len(names)):
            fn = getattr(nvml, names[i], None)
            if fn is None:
                continue
            try:
                entries = list(fn(handle))
            except self._soft_errors() as e:
                if not isinstance(e, nvml.NVMLError) or self._is(e, "NVMLError_FunctionNotFound"):
                    continue  # the bindings or the driver lack this version: try the older one
                return None, say(
                    NOT_LISTED, kind=KINDS[kind], error=error_text(e)
                )  # not supported or not permitted on this device
            self._process_call[kind] = i
            return entries, None
        self._process_call[kind] = len(names)
        return None, say(NO_LIST_CALL, kind=KINDS[kind])

    def _processes(self, handle: Any) -> tuple[tuple[GpuProcess, ...], str | None]:
        kinds: dict[int, list[ProcessKind]] = {}
        used: dict[int, int | None] = {}
        notes = []
        kind: ProcessKind
        for kind in ("compute", "graphics"):
            entries, note = self._list(kind, handle)
            if note:
                notes.append(note)
            this_kind: dict[int, int | None] = {}
            for entry in entries or ():
                pid = int(entry.pid)
                # a pid appears once per MIG instance it runs in: those are separate memory, so they add up
                this_kind[pid] = _add(this_kind.get(pid), _count(getattr(entry, "usedGpuMemory", None)))
            for pid, nbytes in this_kind.items():
                kinds.setdefault(pid, []).append(kind)
                # a process in both lists is one process reported twice, not twice the memory
                old = used.get(pid)
                used[pid] = nbytes if old is None else (old if nbytes is None else max(old, nbytes))
        result = []
        for pid, its_kinds in kinds.items():
            user, command = self._describe(pid)
            both: ProcessKind = "compute+graphics"
            result.append(GpuProcess(pid, used[pid], both if len(its_kinds) == 2 else its_kinds[0], user, command))
        result.sort(key=lambda p: (-(p.used_bytes or 0), p.pid))
        return tuple(result), (joined(notes, NOTES_APART) if notes else None)


class NvmlPoller:
    """Reads a source every `interval_s` and keeps only the newest reading.

    `run()` is the blocking loop: the device view runs it as a task of the one task mechanism (a script runs it in a
    thread of its own). `on_reading` runs in the polling thread when a reading arrives and
    none is waiting; the consumer calls take() (in its own thread) to get it. Until it does, newer readings replace
    the waiting one and no further notification is sent, so a stalled consumer never gets a backlog."""

    def __init__(
        self,
        source: Any,
        interval_s: float = 1.0,
        on_reading: Callable[[], None] | None = None,
        *,
        own_source: bool = False,
    ) -> None:
        if interval_s <= 0:
            raise ValueError(f"the polling interval must be positive, not {interval_s}")
        self.source = source
        self._interval = float(interval_s)
        self._on_reading = on_reading
        self._own_source = own_source
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = False
        self._started = False
        self._ended = threading.Event()  # run() has returned (and closed its own source)
        self._latest: NvmlReading | None = None
        self._pending = False
        self.reads = 0
        self._thread: threading.Thread | None = None

    @property
    def interval_s(self) -> float:
        return self._interval

    @interval_s.setter
    def interval_s(self, value: float) -> None:
        if value <= 0:
            raise ValueError(f"the polling interval must be positive, not {value}")
        self._interval = float(value)
        self._wake.set()  # a shorter interval applies to the wait in progress

    def is_alive(self) -> bool:
        """True while the loop runs (in whichever thread called run())."""
        return self._started and not self._ended.is_set()

    def take(self) -> NvmlReading | None:
        """The newest reading not yet taken, else None."""
        with self._lock:
            reading, self._latest, self._pending = self._latest, None, False
            return reading

    def request_stop(self) -> None:
        """Ask the loop to end, without waiting (safe from any thread)."""
        self._stopping = True
        self._wake.set()

    def stop(self, timeout_s: float = 2.0) -> bool:
        """Ask the loop to end and wait up to `timeout_s` (a hung driver call can outlast it: the loop closes its
        source itself when the call returns). True when the loop has ended or never ran."""
        self.request_stop()
        if not self._started:
            return True  # a run() that begins later sees the request and ends at once
        if self._thread is threading.current_thread():
            return False
        return self._ended.wait(timeout_s)

    def run(self, on_reading: Callable[[], None] | None = None) -> None:
        """Poll until stop(); `on_reading` (default: the constructor's) is told of each reading as above."""
        notify_cb = on_reading or self._on_reading
        self._started = True
        self._thread = threading.current_thread()  # stop() from inside a notification must not wait for itself
        try:
            while not self._stopping:
                began = time.monotonic()
                try:
                    reading = self.source.read()
                except Exception as e:  # only a foreign source can raise here; NvmlSource.read never does
                    text = " ".join(str(e).split())  # one line: the view's banner is one line high
                    reading = NvmlReading(
                        (), say(READING_FAILED, error=as_is(f"{type(e).__name__}: {text}")), taken_at=time.time()
                    )
                self.reads += 1
                with self._lock:
                    self._latest = reading
                    notify = not self._pending
                    self._pending = True
                if notify and notify_cb is not None and not self._stopping:
                    try:
                        notify_cb()
                    except RuntimeError:  # the receiving Qt object is gone: nobody is listening any more
                        return
                self._sleep_until_next(began)
        finally:
            if self._own_source:
                self.source.close()
            self._ended.set()

    def _sleep_until_next(self, began: float) -> None:
        # fixed rate from the start of each read, re-reckoned when the interval changes mid-wait
        while not self._stopping:
            remaining = began + self._interval - time.monotonic()
            if remaining <= 0:
                return
            self._wake.wait(remaining)
            self._wake.clear()


def format_reading(reading: NvmlReading) -> str:
    """Plain text for the command line: a line per GPU and an indented line per process."""

    def b(value: int | None) -> str:
        return NA if value is None else format_bytes(value)

    def pct(value: int | None) -> str:
        return NA if value is None else f"{value}%"

    if reading.error:
        return reading.error
    lines = [f"driver {reading.driver_version or NA}, {len(reading.devices)} GPU(s)"]
    for d in reading.devices:
        if d.error:
            lines.append(f"GPU {d.index}: {NA} ({d.error})")
            continue
        lines.append(
            f"GPU {d.index}: {d.name or NA}  {d.uuid or NA}  used {b(d.used)} / {b(d.total)}, free {b(d.free)}, "
            f"reserved {b(d.reserved)}; util {pct(d.gpu_util)}, memory busy {pct(d.mem_util)}"
        )
        for p in d.processes:
            lines.append(f"    {p.pid:>8}  {b(p.used_bytes):>10}  {p.kind:<16} {p.user or NA:<12} {p.command or NA}")
        if d.processes_note:
            lines.append(f"    {d.processes_note}")
    return "\n".join(lines)
