"""A compiled random-playout kernel for *Submarine*: complete random games (setup included) on one
flat array of integers.

The functions here use nothing but integers and 1-D indexing, so the same source runs

* compiled by numba (``numba.njit(cache=True, nogil=True)``, compiled on first use and cached in
  ``__pycache__``) when numba is importable (the ``fast`` extra), on a numpy ``int64`` array; or
* as plain Python, on a list, when numba is absent or the environment variable
  ``DSA_WIDGET_NO_NUMBA`` is set (to anything but ``""`` or ``"0"``).  numpy is not needed then.

Both give the same games for the same seed: no arithmetic here leaves 64 signed bits.
:data:`COMPILED` says which one this process runs.

The random numbers are Marsaglia's xorshift128 (four 32-bit words, seeded from the game's seed
through an integer hash); a choice among ``k`` is ``(r * k) >> 32`` of a 32-bit draw ``r``, a
coin ("``rand() < 0.5``" in :mod:`~dsa_widget.submarine.fast`) is a choice among 2.  The policy is
the one of :meth:`~dsa_widget.submarine.rules.SubmarineGame.random_playout` (the same decisions in
the same order), but the kernel's own generator draws them, so a kernel game is *not* the game
``random_game(players, seed)`` plays; it is checked instead by replaying its trace through the
checked :meth:`~dsa_widget.submarine.rules.SubmarineGame.apply` from the kernel's setup
(:func:`kernel_game` returns both; ``tests/submarine/test_kernel.py`` does it for hundreds of games).

Options: every option set of SUBMARINE.md §9 except ``activation_mode="independent"`` (which
raises :class:`ValueError`, see :func:`check_options`).

>>> k = kernel_game(4, seed=7)
>>> g = SubmarineGame.from_state_dict(k.setup)
>>> for a in k.trace:
...     g.apply(a)
>>> (g.scores, g.winners, g.result[0], g.turn_number) == (k.scores, k.winners, k.condition, k.turns)
True
>>> kernel_games(3, games=5, seed=1)
5
>>> kernel_games(4, games=1, options={"activation_mode": "independent"})
Traceback (most recent call last):
...
ValueError: the Submarine kernel does not support activation_mode='independent' (only 'uniform')
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from dataclasses import dataclass
from typing import Any

from ..core.jit import COMPILED as _COMPILED
from ..core.jit import jit as _jit
from ..core.jit import np as _np
from ..core.xorshift import below as _below
from ..core.xorshift import seed as _seed
from ..core.xorshift import shuffle as _shuffle
from .options import resolve_options, table
from .rules import COLOURS, SubmarineGame, space_name, tile_name

__all__ = ["COMPILED", "KernelGame", "check_options", "kernel_game", "kernel_games", "warm_up"]

Buf = MutableSequence[int]


#: True when the kernel runs compiled by numba in this process (numba loaded by core.jit)
COMPILED: bool = _COMPILED


# --------------------------------------------------------------------------- layout

NT = 60  # treasure tiles; shells (held jokers at the start) are NT + seat
NSP = 24
P_START, P_END = 0, 7
#: phases
PH_PLACE, PH_SAIL, PH_STEP, PH_WAIT, PH_OVER = range(5)
#: step modes
MD_NONE, MD_MOVE, MD_COLLECT = range(3)
#: scalars: the game, then the configuration
(N, NB, ACTIVE, PHASE, TURN, PTURNS, MID, MODE, DID, COND, PLACED, TLEN, WIN, START) = range(14)
(NCARDS, PERCOL, STARTP, LIMIT, TIE, END_ALWAYS, ON_ARRIVAL, MOVE_ALL, PER_BATHY, TOP, SHORT) = range(14, 25)
(COLLECTABLE, DEAD_END, TCAP, MAXT) = range(25, 29)
#: board jokers collected with a held joker this turn, and the option's cap on them
(SWAPS, SWAPCAP) = range(29, 31)
NSC = 32
PCAP = 80  # cards in a pile
JCAP = 72  # held jokers
TSCAP = 72  # tiles on a space
RNG = NSC
SHIP = RNG + 4
BATH = SHIP + 5  # BATH + 5 * p + b
ACT = BATH + 25
OWNED = ACT + 5  # OWNED + 12 * p + type
NSLOT = OWNED + 60
JOKN = NSLOT + 5
JOK = JOKN + 5  # JOK + JCAP * p + i
HAND = JOK + 5 * JCAP  # HAND + 5 * p + colour
PILEN = HAND + 25
PILE = PILEN + 5  # PILE + PCAP * p + i, i = 0 the bottom
TILEN = PILE + 5 * PCAP
TILES = TILEN + NSP  # TILES + TSCAP * space + i
BJ = TILES + NSP * TSCAP
LIVE = BJ + NT + 5
OUT = LIVE + 5
UNDEALT = OUT + 5
SCR = UNDEALT + 5  # scratch: the deck
SIZE = SCR + 80
#: trace codes: kind << 24 | a << 16 | b << 8 | c
K_PLACE, K_SAIL, K_MODE, K_MOVE, K_COLLECT, K_EXCHANGE, K_PASS, K_END = range(1, 9)


@_jit
def _emit(s: Buf, tr: Buf, code: int) -> None:
    i = s[TLEN]
    if i < s[TCAP]:
        tr[i] = code
    s[TLEN] = i + 1


# --------------------------------------------------------------------------- setup


@_jit
def _deal(s: Buf) -> None:
    """A fresh game from the configuration scalars and the generator (SUBMARINE.md §2)."""
    for i in range(ACTIVE, NCARDS):  # the game's scalars (not the player counts, not the options)
        s[i] = 0
    for i in range(SHIP, SIZE):
        s[i] = 0
    n = s[N]
    s[TURN] = 0
    s[SWAPS] = 0
    s[PHASE] = PH_PLACE
    for p in range(5):
        for b in range(5):
            s[BATH + 5 * p + b] = -1
        s[ACT + p] = -1
    # the tiles: a shuffle of 0..59 onto the spaces, depth d holding d tiles per column
    for i in range(NT):
        s[SCR + i] = i
    _shuffle(s, RNG, SCR, NT)
    i = 0
    for d in range(1, 5):
        for c in range(1, 7):
            sp = (c - 1) * 4 + d - 1
            for _ in range(d):
                s[TILES + TSCAP * sp + s[TILEN + sp]] = s[SCR + i]
                s[TILEN + sp] += 1
                i += 1
    # the deck
    pc = s[PERCOL]
    total = 5 * pc
    for i in range(total):
        s[SCR + i] = i // pc
    _shuffle(s, RNG, SCR, total)
    nc = s[NCARDS]
    for k in range(5):
        s[LIVE + k] = 0
    for p in range(n):
        a = min(p * nc, total)
        e = min((p + 1) * nc, total)
        m = e - a
        for i in range(m):
            card = s[SCR + e - 1 - i]
            s[PILE + PCAP * p + i] = card
            s[LIVE + card] += 1
        s[PILEN + p] = m
    for k in range(5):
        s[UNDEALT + k] = pc - s[LIVE + k]
    for p in range(n):
        for _ in range(3):
            if s[PILEN + p] > 0:
                s[PILEN + p] -= 1
                s[HAND + 5 * p + s[PILE + PCAP * p + s[PILEN + p]]] += 1
        s[JOKN + p] = 1
        s[JOK + JCAP * p] = NT + p
    if s[STARTP] < 0:
        s[ACTIVE] = _below(s, RNG, n)
    else:
        s[ACTIVE] = s[STARTP]
    s[START] = s[ACTIVE]


# --------------------------------------------------------------------------- the rules


@_jit
def _finish(s: Buf, cond: int, winner: int) -> None:
    n = s[N]
    if s[MID]:
        s[TURN] += 1
        s[MID] = 0
    if winner >= 0:
        mask = 1 << winner
    else:
        m = 0
        for p in range(n):
            m = max(m, s[NSLOT + p])
        mask = 0
        for p in range(n):
            if s[NSLOT + p] == m:
                mask |= 1 << p
        if mask & (mask - 1) and s[TIE] != 0:
            best = -1
            for p in range(n):
                if mask >> p & 1:
                    if s[TIE] == 1:
                        key = s[JOKN + p]
                    else:
                        key = s[PILEN + p]
                        for k in range(5):
                            key += s[HAND + 5 * p + k]
                    best = max(best, key)
            m2 = 0
            for p in range(n):
                if mask >> p & 1:
                    if s[TIE] == 1:
                        key = s[JOKN + p]
                    else:
                        key = s[PILEN + p]
                        for k in range(5):
                            key += s[HAND + 5 * p + k]
                    if key == best:
                        m2 |= 1 << p
            mask = m2
    s[COND] = cond
    s[WIN] = mask
    s[PHASE] = PH_OVER
    for b in range(5):
        s[ACT + b] = -1
    s[MODE] = MD_NONE


@_jit
def _no_live(s: Buf) -> bool:
    for k in range(5):  # noqa: SIM110 (numba compiles no generators)
        if s[LIVE + k]:
            return False
    return True


@_jit
def _dead(s: Buf) -> bool:
    coll = s[COLLECTABLE]
    for sp in range(NSP):
        for i in range(s[TILEN + sp]):
            t = s[TILES + TSCAP * sp + i]
            if (coll or not s[BJ + t]) and s[LIVE + t % 5]:
                return False
    return True


@_jit
def _end_turn(s: Buf, p: int) -> None:
    n = s[N]
    h = HAND + 5 * p
    need = 3 - s[h] - s[h + 1] - s[h + 2] - s[h + 3] - s[h + 4]
    while need > 0 and s[PILEN + p] > 0:
        s[PILEN + p] -= 1
        s[h + s[PILE + PCAP * p + s[PILEN + p]]] += 1
        need -= 1
    for b in range(5):
        s[ACT + b] = -1
    s[MODE] = MD_NONE
    s[MID] = 0
    s[SWAPS] = 0
    all_end = True
    for q in range(n):
        if s[SHIP + q] != P_END:
            all_end = False
    if all_end:
        for q in range(n):
            s[SHIP + q] = P_START
    s[TURN] += 1
    s[PTURNS] += 1
    nxt = p + 1 if p + 1 < n else 0
    s[ACTIVE] = nxt
    s[PHASE] = PH_WAIT if s[SHIP + nxt] == P_END else PH_SAIL
    no_jokers = True
    for q in range(n):
        if s[JOKN + q]:
            no_jokers = False
    if _no_live(s):
        _finish(s, 3, -1)
    elif s[DEAD_END] and no_jokers and _dead(s):
        _finish(s, 4, -1)
    elif s[LIMIT] > 0 and s[PTURNS] >= s[LIMIT]:
        _finish(s, 5, -1)


@_jit
def _owed_count(s: Buf, p: int, sp: int) -> int:
    c0 = sp - sp % 4
    res = 0
    for q in range(s[N]):
        if q == p:
            continue
        k = 0
        for b in range(s[NB]):
            x = s[BATH + 5 * q + b]
            if c0 <= x <= sp:
                k += 1
        if k:
            res += k if s[PER_BATHY] else 1
    return res


@_jit
def _can_pay(s: Buf, p: int, sp: int, colour: int) -> bool:
    h = HAND + 5 * p
    if not s[h + colour]:
        return False
    short = s[SHORT]  # 0 forbid, 1 pay what you can, 2 use the hand
    if short == 1:
        return True
    have = s[PILEN + p]
    if short == 2:
        have += s[h] + s[h + 1] + s[h + 2] + s[h + 3] + s[h + 4] - 1
    return have >= _owed_count(s, p, sp)


@_jit
def _can_collect(s: Buf, p: int) -> bool:
    has_j = s[JOKN + p] > 0
    h = HAND + 5 * p
    if not has_j and s[h] + s[h + 1] + s[h + 2] + s[h + 3] + s[h + 4] == 0:
        return False
    coll = s[COLLECTABLE]
    swap = s[SWAPS] < s[SWAPCAP]
    for b in range(s[NB]):
        if s[ACT + b] < 0:
            continue
        sp = s[BATH + 5 * p + b]
        for i in range(s[TILEN + sp]):
            t = s[TILES + TSCAP * sp + i]
            if s[BJ + t] and not coll:
                continue
            if (has_j and (swap or not s[BJ + t])) or _can_pay(s, p, sp, t % 5):
                return True
    return False


@_jit
def _active_at(s: Buf, p: int, sp: int) -> bool:
    for b in range(s[NB]):  # noqa: SIM110 (numba compiles no generators)
        if s[ACT + b] >= 0 and s[BATH + 5 * p + b] == sp:
            return True
    return False


@_jit
def _after_step(s: Buf, p: int) -> None:
    if s[MODE] == MD_MOVE:
        for b in range(s[NB]):
            if s[ACT + b] == 0:
                return
        _end_turn(s, p)
    elif not _can_collect(s, p):
        _end_turn(s, p)


@_jit
def _move(s: Buf, tr: Buf, p: int, b0: int) -> None:
    sp = s[BATH + 5 * p + b0]
    cnt = 0
    for t in range(NSP):
        if t != sp and abs(t % 4 - sp % 4) <= 1:
            cnt += 1
    k = _below(s, RNG, cnt)
    target = -1
    for t in range(NSP):
        if t != sp and abs(t % 4 - sp % 4) <= 1:
            if k == 0:
                target = t
                break
            k -= 1
    _emit(s, tr, K_MOVE << 24 | sp << 16 | target << 8)
    s[MID] = 1
    for b in range(s[NB]):
        if s[ACT + b] == 0 and s[BATH + 5 * p + b] == sp:
            s[BATH + 5 * p + b] = target
            s[ACT + b] = 2
            break
    s[DID] += 1
    _after_step(s, p)


@_jit
def _pay(s: Buf, p: int, sp: int) -> None:
    n = s[N]
    c0 = sp - sp % 4
    h = HAND + 5 * p
    for i in range(1, n):
        q = (p + i) % n
        k = 0
        for b in range(s[NB]):
            x = s[BATH + 5 * q + b]
            if c0 <= x <= sp:
                k += 1
        if k and not s[PER_BATHY]:
            k = 1
        for _ in range(k):
            if s[PILEN + p] > 0:
                s[PILEN + p] -= 1
                card = s[PILE + PCAP * p + s[PILEN + p]]
            elif s[SHORT] == 2 and s[h] + s[h + 1] + s[h + 2] + s[h + 3] + s[h + 4] > 0:
                card = 0
                while not s[h + card]:
                    card += 1
                s[h + card] -= 1
            else:
                return
            m = s[PILEN + q]
            if s[TOP]:
                s[PILE + PCAP * q + m] = card
            else:
                for j in range(m, 0, -1):
                    s[PILE + PCAP * q + j] = s[PILE + PCAP * q + j - 1]
                s[PILE + PCAP * q] = card
            s[PILEN + q] = m + 1


@_jit
def _collect(s: Buf, p: int, sp: int, t: int, joker: int) -> None:
    s[DID] += 1
    base = TILES + TSCAP * sp
    m = s[TILEN + sp]
    j = 0
    while s[base + j] != t:
        j += 1
    for i in range(j, m - 1):
        s[base + i] = s[base + i + 1]
    m -= 1
    if joker >= 0 and s[BJ + t]:
        s[SWAPS] += 1
    s[BJ + t] = 0
    if joker >= 0:
        jb = JOK + JCAP * p
        jm = s[JOKN + p]
        j = 0
        while s[jb + j] != joker:
            j += 1
        for i in range(j, jm - 1):
            s[jb + i] = s[jb + i + 1]
        s[JOKN + p] = jm - 1
        s[base + m] = joker
        m += 1
        s[BJ + joker] = 1
    else:
        k = t % 5
        s[HAND + 5 * p + k] -= 1
        s[OUT + k] += 1
        s[LIVE + k] -= 1
        _pay(s, p, sp)
    s[TILEN + sp] = m
    if t < NT and not s[OWNED + 12 * p + t // 5]:
        s[OWNED + 12 * p + t // 5] = 1
        s[NSLOT + p] += 1
    else:
        s[JOK + JCAP * p + s[JOKN + p]] = t
        s[JOKN + p] += 1
    if s[NSLOT + p] == 12:
        _finish(s, 1, p)
        return
    c0 = sp - sp % 4
    real = False
    for x in range(c0, c0 + 4):
        for i in range(s[TILEN + x]):
            if not s[BJ + s[TILES + TSCAP * x + i]]:
                real = True
                break
        if real:
            break
    if not real:
        _finish(s, 2, -1)
        return
    if _no_live(s):
        _finish(s, 3, -1)


@_jit
def _count_collections(s: Buf, p: int, pick: int) -> int:
    """The number of collections open to ``p`` (pick < 0); else the code ``sp << 16 | t << 8 | joker + 1``
    of the ``pick``-th, in the engine's order."""
    cnt = 0
    coll = s[COLLECTABLE]
    jm = s[JOKN + p]
    swap = s[SWAPS] < s[SWAPCAP]
    for sp in range(NSP):
        if not _active_at(s, p, sp):
            continue
        for i in range(s[TILEN + sp]):
            t = s[TILES + TSCAP * sp + i]
            if s[BJ + t] and not coll:
                continue
            if _can_pay(s, p, sp, t % 5):
                if cnt == pick:
                    return sp << 16 | t << 8
                cnt += 1
            if s[BJ + t] and not swap:
                continue
            if pick >= 0 and cnt + jm > pick:
                return sp << 16 | t << 8 | s[JOK + JCAP * p + pick - cnt] + 1
            cnt += jm
    return cnt


@_jit
def _collections(s: Buf, tr: Buf, p: int) -> None:
    while True:
        cnt = _count_collections(s, p, -1)
        if cnt == 0:
            return
        code = _count_collections(s, p, _below(s, RNG, cnt))
        _emit(s, tr, K_COLLECT << 24 | code)
        s[MID] = 1
        turn = s[TURN]
        _collect(s, p, code >> 16, code >> 8 & 255, (code & 255) - 1)
        if s[COND]:
            return
        _after_step(s, p)
        if s[TURN] != turn:
            return
        if _below(s, RNG, 2) == 0:
            return


@_jit
def _wait(s: Buf, tr: Buf, p: int) -> None:
    h = HAND + 5 * p
    cols = 0
    for k in range(5):
        if s[h + k]:
            cols += 1
    if s[PILEN + p] > 0 and cols > 0 and _below(s, RNG, 2) == 0:
        i = _below(s, RNG, cols)
        k = 0
        while True:
            if s[h + k]:
                if i == 0:
                    break
                i -= 1
            k += 1
        _emit(s, tr, K_EXCHANGE << 24 | k << 16)
        s[h + k] -= 1
        base = PILE + PCAP * p
        m = s[PILEN + p]
        for j in range(m, 0, -1):
            s[base + j] = s[base + j - 1]
        s[base] = k
        s[h + s[base + m]] += 1  # the top card (m + 1 cards now)
    else:
        _emit(s, tr, K_PASS << 24)
    _end_turn(s, p)


@_jit
def _declare(s: Buf, tr: Buf, p: int) -> None:
    collect_now = _can_collect(s, p) and _below(s, RNG, 2) == 0
    s[MODE] = MD_COLLECT if collect_now else MD_MOVE
    s[PHASE] = PH_STEP
    s[MID] = 1
    _emit(s, tr, K_MODE << 24 | (1 if collect_now else 0) << 16)
    if collect_now:
        _collections(s, tr, p)
    else:
        i = 0
        for b in range(s[NB]):
            if s[ACT + b] != 0 or s[PHASE] != PH_STEP:
                continue
            if i and not s[MOVE_ALL] and _below(s, RNG, 2) == 0:
                break
            _move(s, tr, p, b)
            i += 1
    if s[COND] == 0 and s[PHASE] == PH_STEP:
        _emit(s, tr, K_END << 24)
        _end_turn(s, p)


@_jit
def _play(s: Buf, tr: Buf) -> None:
    n = s[N]
    nb = s[NB]
    while s[COND] == 0 and s[TURN] < s[MAXT]:
        p = s[ACTIVE]
        ph = s[PHASE]
        if ph == PH_PLACE:
            c = _below(s, RNG, 6) + 1
            _emit(s, tr, K_PLACE << 24 | c << 16)
            for b in range(nb):
                if s[BATH + 5 * p + b] < 0:
                    s[BATH + 5 * p + b] = (c - 1) * 4
                    break
            s[PLACED] += 1
            s[TURN] += 1
            s[ACTIVE] = p + 1 if p + 1 < n else 0
            if s[PLACED] == n * nb:
                s[PHASE] = PH_SAIL
            continue
        if ph == PH_WAIT:
            _wait(s, tr, p)
            continue
        pos = s[SHIP + p]
        cnt = 0
        for c in range(pos + 1, 7):
            for b in range(nb):
                if s[BATH + 5 * p + b] // 4 + 1 == c:
                    cnt += 1
                    break
        to_end = s[END_ALWAYS] or cnt == 0
        k = _below(s, RNG, cnt + 1 if to_end else cnt)
        t = P_END
        for c in range(pos + 1, 7):
            for b in range(nb):
                if s[BATH + 5 * p + b] // 4 + 1 == c:
                    if k == 0:
                        t = c
                    k -= 1
                    break
            if t != P_END:
                break
        _emit(s, tr, K_SAIL << 24 | t << 16)
        s[SHIP + p] = t
        s[MID] = 1
        if t == P_END:
            if s[ON_ARRIVAL]:
                s[PHASE] = PH_WAIT
                _wait(s, tr, p)
            else:
                _end_turn(s, p)
            continue
        for b in range(5):
            s[ACT + b] = -1
        for b in range(nb):
            if s[BATH + 5 * p + b] // 4 + 1 == t:
                s[ACT + b] = 0
        s[DID] = 0
        s[SWAPS] = 0
        _declare(s, tr, p)


#: what :func:`_run` does
RUN_GAMES, RUN_DEAL, RUN_PLAY = range(3)


@_jit
def _run(s: Buf, tr: Buf, games: int, seed: int, what: int) -> int:
    """The kernel's one entry point (one compilation): ``RUN_GAMES`` plays ``games`` complete games
    (game ``i`` from seed ``seed + i``) and returns the number finished; ``RUN_DEAL`` seeds the
    generator and deals one game; ``RUN_PLAY`` plays the dealt game to its end."""
    if what == RUN_DEAL:
        _seed(s, RNG, seed)
        _deal(s)
        return 0
    if what == RUN_PLAY:
        _play(s, tr)
        return 1 if s[COND] else 0
    done = 0
    for i in range(games):
        _seed(s, RNG, seed + i)
        _deal(s)
        _play(s, tr)
        if s[COND]:
            done += 1
    return done


# --------------------------------------------------------------------------- Python side

_TIE = {"shared": 0, "most_held_jokers": 1, "most_cards": 2}
_SHORT = {"forbid": 0, "pay_what_you_can": 1, "use_hand": 2}


def check_options(options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The complete option set (checked as the engine checks it); :class:`ValueError` for a set
    the kernel does not play (``activation_mode="independent"``)."""
    opts = resolve_options(options)
    if opts["activation_mode"] != "uniform":
        mode = opts["activation_mode"]
        raise ValueError(f"the Submarine kernel does not support activation_mode={mode!r} (only 'uniform')")
    return opts


def _buffers(players: int, options: Mapping[str, Any] | None, tcap: int) -> tuple[Buf, Buf]:
    if not 2 <= players <= 5:
        raise ValueError(f"players must be 2..5, not {players!r}")
    o = check_options(options)
    s: Buf = _np.zeros(SIZE, _np.int64) if COMPILED else [0] * SIZE
    tr: Buf = _np.zeros(max(tcap, 1), _np.int64) if COMPILED else [0] * max(tcap, 1)
    s[N] = players
    s[NB] = table(o, "bathyscaphes_per_player", players)
    s[NCARDS] = table(o, "cards_per_player", players)
    s[PERCOL] = 12 if o["deck"] == "60" else 15
    s[STARTP] = -1 if o["start_player"] == "random" else o["start_player"]
    s[LIMIT] = o["turn_limit"] or 0
    s[TIE] = _TIE[o["tie_rule"]]
    s[END_ALWAYS] = int(o["end_always_allowed"])
    s[ON_ARRIVAL] = int(o["exchange_on_arrival"])
    s[MOVE_ALL] = int(o["uniform_move_all"])
    s[PER_BATHY] = int(o["payment_basis"] == "per_bathyscaphe")
    s[TOP] = int(o["payment_destination"] == "top")
    s[SHORT] = _SHORT[o["payment_shortfall"]]
    s[COLLECTABLE] = int(o["board_jokers"] == "collectable")
    s[DEAD_END] = int(o["dead_position_end"])
    s[SWAPCAP] = o["joker_swaps_per_turn"]
    s[TCAP] = tcap
    s[MAXT] = 10_000_000
    if s[STARTP] >= players:
        raise ValueError(f"start_player {s[STARTP]} is not a seat of {players} players")
    return s, tr


def kernel_games(
    players: int = 4, *, games: int = 100, seed: int = 0, options: Mapping[str, Any] | None = None
) -> int:
    """Play ``games`` complete random games in the kernel (game ``i`` from seed ``seed + i``, setup
    included); return the number finished (the benchmark's loop)."""
    s, tr = _buffers(players, options, 0)
    return int(_run(s, tr, games, seed, RUN_GAMES))


def warm_up() -> None:
    """Compile (or load from the cache) the kernel: one tiny run."""
    kernel_games(2, games=1)


@dataclass(frozen=True)
class KernelGame:
    """One kernel game: its setup (a ``SubmarineGame.state_dict()``), the actions, the end."""

    setup: dict[str, Any]
    trace: list[str]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    condition: str
    turns: int


def _name(code: int) -> str:
    kind, a, b, c = code >> 24, code >> 16 & 255, code >> 8 & 255, code & 255
    if kind == K_PLACE:
        return f"place {a}"
    if kind == K_SAIL:
        return "sail end" if a == P_END else f"sail {a}"
    if kind == K_MODE:
        return "mode collect" if a else "mode move"
    if kind == K_MOVE:
        return f"move {space_name(a)} {space_name(b)}"
    if kind == K_COLLECT:
        pay = "card" if c == 0 else f"joker {tile_name(c - 1)}"
        return f"collect {space_name(a)} {tile_name(b)} {pay}"
    if kind == K_EXCHANGE:
        return f"exchange {COLOURS[a]}"
    return "pass" if kind == K_PASS else "end"


def kernel_game(
    players: int = 4, *, seed: int = 0, options: Mapping[str, Any] | None = None, max_actions: int = 200_000
) -> KernelGame:
    """One complete kernel game with its trace (for checking it against the engine)."""
    s, tr = _buffers(players, options, max_actions)
    _run(s, tr, 0, seed, RUN_DEAL)
    base = SubmarineGame(players, seed=0, options=options).state_dict()
    n = players
    base["tiles"] = {
        space_name(sp): [tile_name(int(s[TILES + TSCAP * sp + i])) for i in range(int(s[TILEN + sp]))]
        for sp in range(NSP)
    }
    base["hands"] = [
        [COLOURS[k] for k in range(5) for _ in range(int(s[HAND + 5 * p + k]))] for p in range(n)
    ]
    base["piles"] = [
        [COLOURS[int(s[PILE + PCAP * p + i])] for i in range(int(s[PILEN + p]) - 1, -1, -1)] for p in range(n)
    ]
    base["undealt"] = [COLOURS[k] for k in range(5) for _ in range(int(s[UNDEALT + k]))]
    base["active"] = base["start_player"] = int(s[ACTIVE])
    _run(s, tr, 0, 0, RUN_PLAY)
    if s[TLEN] > max_actions:
        raise RuntimeError(f"the trace outgrew max_actions={max_actions}")
    if not s[COND]:
        raise RuntimeError("the kernel game did not finish")
    return KernelGame(
        setup=base,
        trace=[_name(int(tr[i])) for i in range(int(s[TLEN]))],
        scores=tuple(int(s[NSLOT + p]) for p in range(n)),
        winners=tuple(p for p in range(n) if int(s[WIN]) >> p & 1),
        condition=f"E{int(s[COND])}",
        turns=int(s[TURN]),
    )
