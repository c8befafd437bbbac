"""The random numbers of the compiled kernels: xorshift128 on 32-bit words, kept in four slots
of a kernel's own integer buffer (``s[at]`` … ``s[at + 3]``), so a kernel's whole state stays
one flat array.

Every function goes through :func:`dsa_widget.core.jit.jit`: compiled by numba when it is in
use, plain Python otherwise, the same numbers either way (no value leaves 64 signed bits).
The Crew's and Submarine's kernels both draw from here.

>>> from array import array
>>> s = array("q", [0] * 6)      # a kernel's buffer (numba reads it without copying a list)
>>> seed(s, 2, 12345)
>>> a = [below(s, 2, 10) for _ in range(5)]
>>> seed(s, 2, 12345)
>>> a == [below(s, 2, 10) for _ in range(5)], all(0 <= x < 10 for x in a)
(True, True)
>>> d = array("q", [0] * 4 + [10, 11, 12, 13, 14, 15])
>>> shuffle(d, 0, 4, 6)           # the generator in d[0:4] shuffles d[4:10] in place
>>> sorted(d[4:]) == [10, 11, 12, 13, 14, 15]
True
"""

from __future__ import annotations

from collections.abc import MutableSequence

from .jit import jit

__all__ = ["below", "mix", "next_word", "seed", "shuffle"]

M32 = 0xFFFFFFFF


@jit
def mix(x: int) -> int:
    """A 32-bit integer hash (for seeding)."""
    x = (((x >> 16) ^ x) * 0x45D9F3B) & M32
    x = (((x >> 16) ^ x) * 0x45D9F3B) & M32
    return (x >> 16) ^ x


@jit
def seed(s: MutableSequence[int], at: int, value: int) -> None:
    """Seed the generator in ``s[at:at + 4]`` from ``value`` (0 <= value < 2**63)."""
    lo = value & M32
    hi = (value >> 32) & M32
    z = 0
    for i in range(4):
        v = mix(lo ^ mix((hi + 0x9E3779B9 * (i + 1)) & M32))
        s[at + i] = v
        z |= v
    if z == 0:
        s[at] = 1


@jit
def next_word(s: MutableSequence[int], at: int) -> int:
    """The next 32-bit word of the generator in ``s[at:at + 4]``."""
    x = s[at]
    t = (x ^ (x << 11)) & M32
    w = s[at + 3]
    s[at] = s[at + 1]
    s[at + 1] = s[at + 2]
    s[at + 2] = w
    w = w ^ (w >> 19) ^ t ^ (t >> 8)
    s[at + 3] = w
    return w


@jit
def below(s: MutableSequence[int], at: int, k: int) -> int:
    """A number in 0..k-1 (k >= 1) from the next word."""
    return (next_word(s, at) * k) >> 32


@jit
def shuffle(s: MutableSequence[int], at: int, start: int, k: int) -> None:
    """Shuffle ``s[start:start + k]`` in place (Fisher-Yates, from the last slot down) with the
    generator in ``s[at:at + 4]``: a deck, a task order, a board's tiles."""
    for i in range(k - 1, 0, -1):
        j = below(s, at, i + 1)
        x = s[start + i]
        s[start + i] = s[start + j]
        s[start + j] = x
