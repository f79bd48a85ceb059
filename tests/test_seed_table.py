"""`pnp/play/_genrand_init.h` holds the state CPython's `init_genrand(19650218)` leaves, which
every seeding in the kernels starts from: computed here again from the recurrence, and
checked against CPython itself through a seeding that starts from it."""

from __future__ import annotations

import random
import re
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "pnp/play/_genrand_init.h"


def table() -> list[int]:
    body = TABLE.read_text().split("{", 1)[1].split("}", 1)[0]
    return [int(x, 16) for x in re.findall(r"0x([0-9a-f]{8})U", body)]


def init_genrand(seed: int) -> list[int]:
    mt = [seed]
    for i in range(1, 624):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
    return mt


def init_by_array(start: list[int], key: list[int]) -> list[int]:
    """CPython's `init_by_array`, spelled out, from a given start."""
    mt, i, j = list(start), 1, 0
    for _ in range(max(624, len(key))):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
        i, j = i + 1, j + 1
        if i >= 624:
            mt[0], i = mt[623], 1
        if j >= len(key):
            j = 0
    for _ in range(623):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= 624:
            mt[0], i = mt[623], 1
    mt[0] = 0x80000000
    return mt


def test_the_table_is_init_genrand_19650218():
    assert table() == init_genrand(19650218)


def test_seeding_from_the_table_is_random_Random():
    for n in (0, 1, 2**32 - 1, 2**32, 2**64 - 1, 123456789012345):
        key = [n & 0xFFFFFFFF] + ([n >> 32] if n >> 32 else [])
        assert tuple(init_by_array(table(), key)) == random.Random(n).getstate()[1][:624]
