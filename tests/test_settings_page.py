"""The allocator settings page: each recorded key in words, its default, what what-if would make of it; and the
decimal addresses the block search takes."""

from __future__ import annotations

import numpy as np

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.rules.alloc_conf import parse_alloc_conf
from gpumem_gui.core.snapshot.model import BlockState
from gpumem_gui.document.search import parse_address, search_blocks
from gpumem_gui.document.settings_page import CONF, NOT_RECORDED, SettingRow, settings_page
from tests.conftest import fixture_path, load_raw


def _rows(page_rows: tuple[SettingRow, ...]) -> dict[str, SettingRow]:
    return {row.key: row for row in page_rows}


def test_the_constructor_file_ran_with_expandable_segments() -> None:
    path = fixture_path("constructor_memory_snapshot.pickle")
    recorded = load_raw(path)["allocator_settings"]  # as the standard unpickler reads it
    page = settings_page(load_snapshot(path).allocator_settings)
    rows = _rows(page.rows)
    assert page.recorded and page.notes == () and page.conf == recorded[CONF] == "expandable_segments:True"
    assert set(recorded) <= set(rows)  # every key the file holds has its row
    expandable = rows["expandable_segments"]
    assert (str(expandable.value), str(expandable.default), expandable.set) == ("True", "False", True)
    assert "virtual address range" in str(expandable.meaning)
    assert "What if... can change it" in str(expandable.what_if)
    # the keys at their defaults are not marked as set; the host-memory ones say why a replay keeps them
    assert [k for k, row in rows.items() if row.set] == [CONF, "expandable_segments"]
    assert str(rows["max_split_size"].value) == "unlimited" and recorded["max_split_size"] == -1
    assert str(rows["pinned_use_cuda_host_register"].what_if).startswith("kept as recorded: host memory")


def test_a_file_without_settings_says_so_and_assumes_the_defaults() -> None:
    path = fixture_path("cranberrii_memory_snapshot.pickle")
    assert "allocator_settings" not in load_raw(path)
    page = settings_page(load_snapshot(path).allocator_settings)
    assert not page.recorded and page.notes == (NOT_RECORDED,)
    rows = _rows(page.rows)
    assert str(rows["expandable_segments"].value) == "not recorded; assumed: False"
    assert not any(row.set for row in page.rows)


def test_what_if_overrides_name_the_values_they_change() -> None:
    settings: dict[str, object] = {
        CONF: "max_split_size_mb:256,roundup_power2_divisions:[256:1,512:2,>:4]",
        "max_split_size": 256 << 20,
        # as torch writes the string's table: the first value also covers every interval below 256 MiB
        "roundup_power2_divisions": {str(1 << i): 1 if i <= 8 else 2 if i == 9 else 4 for i in range(16)},
        "expandable_segments": False,
        "a_key_of_tomorrow": 3,
    }  # fmt: skip
    page = settings_page(settings, ["expandable_segments:True", "garbage_collection_threshold:0.6"])
    rows = _rows(page.rows)
    assert str(rows["max_split_size"].value) == "256.0 MiB" and rows["max_split_size"].set
    assert parse_alloc_conf(str(settings[CONF])).roundup_power2_divisions == (1,) * 9 + (2,) + (4,) * 6
    assert str(rows["roundup_power2_divisions"].value) == "1.0 MiB-: 1, 512.0 MiB-: 2, 1.0 GiB-: 4"
    assert str(rows["expandable_segments"].what_if) == "True (changed)" and rows["expandable_segments"].what_if_changes
    assert str(rows["garbage_collection_threshold"].what_if) == "0.6 (changed)"
    assert str(rows["max_split_size"].what_if) == "256.0 MiB (as recorded)"
    assert not rows["max_split_size"].what_if_changes
    assert str(rows[CONF].what_if) == (
        'replayed under "max_split_size_mb:256,roundup_power2_divisions:[256:1,512:2,>:4],'
        'expandable_segments:True,garbage_collection_threshold:0.6"'
    )
    assert str(rows["a_key_of_tomorrow"].meaning).startswith("Not described here")
    bad = settings_page(settings, ["max_split_size_mb:3"])
    assert bad.notes and "too small" in str(bad.notes[-1])


def test_a_block_is_found_by_its_decimal_address() -> None:
    snapshot = load_snapshot(fixture_path("cranberrii_memory_snapshot.pickle"))
    state = snapshot.state.for_device(0)
    b = state.blocks
    i = int(np.argmax(b.size))
    inside = int(b.address[i]) + 12345
    by_hex = search_blocks(state, snapshot.stacks, hex(inside))
    assert by_hex is not None and np.flatnonzero(by_hex).tolist() == [i]
    for text in (str(inside), f"{inside:,}", f"{inside:_}"):
        found = search_blocks(state, snapshot.stacks, text)
        assert found is not None and np.flatnonzero(found).tolist() == [i], text
    assert parse_address("12,34") is None and parse_address("0xZZ") is None
    # a number inside no block is stack text (a function or file with digits in its name): the blocks whose frames
    # hold it, found here by a scan over the raw frames
    text = search_blocks(state, snapshot.stacks, "2")
    holders = [
        j
        for j in range(len(b))
        if b.state[j] != BlockState.INACTIVE
        and b.stack[j] >= 0
        and any("2" in f.name.lower() or "2" in f.filename.lower() for f in snapshot.stacks.stack(int(b.stack[j])))
    ]
    assert text is not None and holders and np.flatnonzero(text).tolist() == holders
