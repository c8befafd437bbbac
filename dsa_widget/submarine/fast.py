"""A lean random-playout loop for *Submarine*: the same rules and the same random policy as
:meth:`SubmarineGame.random_playout <dsa_widget.submarine.rules.SubmarineGame.random_playout>`,
on small ints and lists only (for benchmarks and the Monte Carlo bot's rollouts).

:class:`FastState` is a compact copy of a position (:meth:`FastState.from_game`,
:meth:`FastState.from_state_dict`, or :func:`deal` for a fresh game, which draws the setup from
the seed exactly as :class:`~dsa_widget.submarine.rules.SubmarineGame` does).
:func:`playout` plays it to the end with random legal actions.  From the same position (a turn
boundary, or the middle of a turn: it first finishes the turn in progress) and with the same
``random.Random`` it makes *the same random calls* as the engine's ``random_playout``, so both
play the same game action for action (``tests/submarine/test_fast.py`` and
``tests/submarine/test_playouts.py`` check the traces, scores and winners on hundreds of games
for every option set, and replay the traces through the checked ``apply``).

>>> import random
>>> from dsa_widget.submarine.rules import SubmarineGame
>>> g = SubmarineGame(4, seed=3)
>>> s = FastState.from_game(g)
>>> trace: list[str] = []
>>> playout(s, random.Random(5), trace=trace)
>>> h = g.clone()
>>> h.random_playout(random.Random(5))
>>> s.scores == h.scores, s.winners == h.winners, s.condition == h.result[0]
(True, True, True)
>>> d = deal(4, seed=3)
>>> d.tiles == s.__class__.from_game(SubmarineGame(4, seed=3)).tiles
True
>>> playout_games(4, games=3, seed=1) == 3
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .options import resolve_options, table
from .rules import COLOURS, NSPACES, NTILES, parse_space, parse_tile, space_name, tile_name

__all__ = ["FastState", "deal", "playout", "playout_games"]

_START, _END = 0, 7
_COL = {c: i for i, c in enumerate(COLOURS)}
_FILL = [(c - 1) * 4 + (d - 1) for d in range(1, 5) for c in range(1, 7) for _ in range(d)]
_MOVES: list[tuple[int, ...]] = [
    tuple(t for t in range(NSPACES) if t != s and abs(t % 4 - s % 4) <= 1) for s in range(NSPACES)
]
#: tile id -> its colour (shells included)
_TCOL: list[int] = [t % 5 for t in range(NTILES)] + list(range(5))
#: greedy's default knobs (dsa_widget.submarine.bots.basic.GreedyBot.KNOBS), for guided playouts
G_DUP, G_CARD, G_PAY, G_JOKER = 0.3, 0.15, 0.25, 0.55
_PHASES = ("place", "sail", "mode", "step", "wait", "over")
_ACT_NAMES = ("idle", "collecting", "done")


def _pos(text: str) -> int:
    return _START if text == "start" else _END if text == "end" else int(text)


def _pos_name(p: int) -> str:
    return "start" if p == _START else "end" if p == _END else str(p)


class FastState:
    """One position on plain ints and lists (piles bottom first, hands as five colour counts,
    ``act`` one entry per bathyscaphe: -1 not activated, 0 idle, 1 collecting, 2 done).
    :func:`playout` changes it in place; :meth:`copy` first to keep it."""

    __slots__ = (
        "n",
        "nb",
        "opts",
        "tiles",
        "bj",
        "ship",
        "bath",
        "owned",
        "slots",
        "jokers",
        "hand",
        "pile",
        "live",
        "out",
        "phase",
        "active",
        "placed",
        "turn",
        "play_turns",
        "mid",
        "act",
        "mode",
        "did",
        "swaps",
        "condition",
        "winners",
    )

    def __init__(self) -> None:
        self.n = 0
        self.nb = 0
        self.opts: dict[str, Any] = {}
        self.tiles: list[list[int]] = []
        self.bj: list[bool] = []
        self.ship: list[int] = []
        self.bath: list[list[int]] = []
        self.owned: list[list[bool]] = []
        self.slots: list[list[int]] = []
        self.jokers: list[list[int]] = []
        self.hand: list[list[int]] = []
        self.pile: list[list[int]] = []
        self.live: list[int] = []
        self.out: list[int] = []
        self.phase = "place"
        self.active = 0
        self.placed = 0
        self.turn = 0
        self.play_turns = 0
        self.mid = False  # inside a turn (some of its actions done)
        self.act: list[int] = []
        self.mode = ""
        self.did = 0
        self.swaps = 0  # board jokers collected with a held joker in this turn
        self.condition: str | None = None
        self.winners: tuple[int, ...] = ()

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(len(s) for s in self.slots)

    @property
    def is_over(self) -> bool:
        return self.condition is not None

    def copy(self) -> FastState:
        s = FastState()
        s.n, s.nb, s.opts = self.n, self.nb, self.opts
        s.tiles = [list(x) for x in self.tiles]
        s.bj = list(self.bj)
        s.ship = list(self.ship)
        s.bath = [list(x) for x in self.bath]
        s.owned = [list(x) for x in self.owned]
        s.slots = [list(x) for x in self.slots]
        s.jokers = [list(x) for x in self.jokers]
        s.hand = [list(x) for x in self.hand]
        s.pile = [list(x) for x in self.pile]
        s.live = list(self.live)
        s.out = list(self.out)
        s.phase, s.active, s.placed, s.turn = self.phase, self.active, self.placed, self.turn
        s.play_turns, s.mid, s.act, s.mode, s.did = (
            self.play_turns,
            self.mid,
            list(self.act),
            self.mode,
            self.did,
        )
        s.swaps = self.swaps
        s.condition, s.winners = self.condition, self.winners
        return s

    def redeal(self, seat: int, rng: random.Random) -> None:
        """Deal every card ``seat`` cannot see again at random, in place (as
        :meth:`SubmarineView.sample <dsa_widget.submarine.view.SubmarineView.sample>` does): the
        other hands, every pile (its own too) and the undealt rest keep their sizes; its own
        hand, the board and the cards out of play stay."""
        per_colour = 12 if self.opts["deck"] == "60" else 15
        own = self.hand[seat]
        pool = [k for k in range(5) for _ in range(per_colour - self.out[k] - own[k])]
        rng.shuffle(pool)
        i = 0
        for q in range(self.n):
            if q != seat:
                h = self.hand[q]
                m = sum(h)
                h[:] = [0] * 5
                for k in pool[i : i + m]:
                    h[k] += 1
                i += m
        for q in range(self.n):
            m = len(self.pile[q])
            self.pile[q] = pool[i : i + m]
            i += m
        self.live = [sum(h[k] for h in self.hand) + sum(pl.count(k) for pl in self.pile) for k in range(5)]

    @classmethod
    def from_game(cls, game: Any) -> FastState:
        """The position of a :class:`~dsa_widget.submarine.rules.SubmarineGame` (the truth)."""
        return cls.from_state_dict(game.state_dict())

    @classmethod
    def from_state_dict(cls, d: Mapping[str, Any]) -> FastState:
        """The position of a state dict (``SubmarineGame.state_dict()``)."""
        s = cls()
        s.n = n = len(d["players"])
        s.opts = dict(d["options"])  # a state dict's options are complete
        s.nb = table(s.opts, "bathyscaphes_per_player", n)
        s.tiles = [[parse_tile(x) for x in d["tiles"][space_name(i)]] for i in range(NSPACES)]
        s.bj = [False] * (NTILES + 5)
        for x in d["board_jokers"]:
            s.bj[parse_tile(x)] = True
        s.ship = [_pos(x) for x in d["ships"]]
        s.bath = [[-1 if x is None else parse_space(x) for x in b] for b in d["bathyscaphes"]]
        s.slots = [[parse_tile(x) for x in sl] for sl in d["slots"]]
        s.owned = [[False] * 12 for _ in range(n)]
        for p, sl in enumerate(s.slots):
            for t in sl:
                s.owned[p][t // 5] = True
        s.jokers = [[parse_tile(x) for x in j] for j in d["held_jokers"]]
        s.hand = [[0] * 5 for _ in range(n)]
        for p, h in enumerate(d["hands"]):
            for c in h:
                s.hand[p][_COL[c]] += 1
        s.pile = [[_COL[c] for c in reversed(pl)] for pl in d["piles"]]
        s.live = [sum(h[k] for h in s.hand) + sum(pl.count(k) for pl in s.pile) for k in range(5)]
        s.out = [d["out_of_play"][c] for c in COLOURS]
        s.phase = d["phase"]
        s.active = d["active"]
        s.placed = d["placed"]
        s.turn = d["turn_number"]
        s.play_turns = d["play_turns"]
        s.mid = bool(d["current_turn"])
        step = d["step"]
        s.act = [-1] * s.nb
        for b, v in step["activated"].items():
            s.act[int(b)] = _ACT_NAMES.index(v)
        s.mode = step["mode"]
        s.did = step["did"]
        s.swaps = step.get("swaps", 0)
        r = d["result"]
        if r is not None:
            s.condition, s.winners = r["condition"], tuple(r["winners"])
        return s


def deal(players: int = 4, *, seed: int = 0, options: Mapping[str, Any] | None = None) -> FastState:
    """A fresh game's position, the setup drawn from ``seed`` as ``SubmarineGame(players,
    seed=seed, options=options)`` draws it (no player names, no checks beyond the options')."""
    opts = resolve_options(options)
    n = players
    rng = random.Random(seed)
    per_colour = 12 if opts["deck"] == "60" else 15
    ncards = table(opts, "cards_per_player", n)
    s = FastState()
    s.n, s.opts = n, opts
    s.nb = table(opts, "bathyscaphes_per_player", n)
    order = list(range(NTILES))
    rng.shuffle(order)
    s.tiles = [[] for _ in range(NSPACES)]
    for sp, t in zip(_FILL, order, strict=True):
        s.tiles[sp].append(t)
    s.bj = [False] * (NTILES + 5)
    deck = [k for k in range(5) for _ in range(per_colour)]
    rng.shuffle(deck)
    s.pile = [list(reversed(deck[i * ncards : (i + 1) * ncards])) for i in range(n)]
    undealt = deck[n * ncards :]
    s.live = [per_colour - undealt.count(k) for k in range(5)]
    s.hand = [[0] * 5 for _ in range(n)]
    for p in range(n):
        for _ in range(3):
            if s.pile[p]:
                s.hand[p][s.pile[p].pop()] += 1
    s.out = [0] * 5
    s.ship = [_START] * n
    s.bath = [[-1] * s.nb for _ in range(n)]
    s.owned = [[False] * 12 for _ in range(n)]
    s.slots = [[] for _ in range(n)]
    s.jokers = [[NTILES + i] for i in range(n)]
    sp0 = opts["start_player"]
    s.active = rng.randrange(n) if sp0 == "random" else sp0
    s.act = [-1] * s.nb
    return s


def playout_games(
    players: int = 4, *, games: int = 100, seed: int = 0, options: Mapping[str, Any] | None = None
) -> int:
    """Play ``games`` complete random games (game ``i``: setup seed ``seed + i``, choices from
    ``random.Random(seed + i)``, as :func:`dsa_widget.submarine.playouts.random_game`); return the
    number finished (the benchmark's loop)."""
    done = 0
    for i in range(games):
        s = deal(players, seed=seed + i, options=options)
        playout(s, random.Random(seed + i))
        done += s.condition is not None
    return done


def playout(
    state: FastState,
    rng: random.Random,
    *,
    trace: list[str] | None = None,
    max_turns: int = 100_000,
    first: str | None = None,
    guided: bool = False,
) -> None:
    """Play ``state`` to the end with random legal actions (the policy of ``random_playout``),
    in place, or until ``max_turns`` turns; ``trace`` (a list) receives every action as the
    engine spells it.  ``first``: a legal action (as ``legal_actions()`` spells it, unchecked)
    to apply before the random ones (a bot's candidate).

    ``guided``: every seat plays by ``greedy``'s rules of thumb instead
    (:class:`~dsa_widget.submarine.bots.basic.GreedyBot`, its default knobs, on the position's
    own facts): sail to the column with the best collection, collect while a collection is
    worth its price (a new type 1, a duplicate 0.3; a card 0.15 plus 0.25 a payment, a joker
    0.55), move each bathyscaphe to the space with the best prospects, tuck a card of a colour
    no new treasure is left in.  ``rng`` only breaks ties then (and plays the independent
    step, which stays random)."""
    s = state
    if s.condition is not None:
        return
    n = s.n
    opts = s.opts
    rand = rng.random
    uniform = opts["activation_mode"] == "uniform"
    move_all = opts["uniform_move_all"]
    end_always = opts["end_always_allowed"]
    on_arrival = opts["exchange_on_arrival"]
    collectable = opts["board_jokers"] == "collectable"
    per_bathy = opts["payment_basis"] == "per_bathyscaphe"
    top = opts["payment_destination"] == "top"
    shortfall = opts["payment_shortfall"]
    forbid = shortfall == "forbid"
    use_hand = shortfall == "use_hand"
    dead_end = opts["dead_position_end"]
    limit = opts["turn_limit"]
    tie_rule = opts["tie_rule"]
    swap_cap = opts["joker_swaps_per_turn"]
    tiles, bj, ship, bath, owned, slots = s.tiles, s.bj, s.ship, s.bath, s.owned, s.slots
    jokers, hands, piles, live, out = s.jokers, s.hand, s.pile, s.live, s.out
    nb = s.nb
    tcol = _TCOL
    moves_of = _MOVES
    tr = trace is not None

    def finish(cond: str, winners: tuple[int, ...] | None = None) -> None:
        if s.mid:
            s.turn += 1
            s.mid = False
        if winners is None:
            sc = [len(x) for x in slots]
            m = max(sc)
            best = [p for p in range(n) if sc[p] == m]
            if len(best) > 1 and tie_rule != "shared":
                if tie_rule == "most_held_jokers":
                    key = [len(j) for j in jokers]
                else:
                    key = [sum(hands[p]) + len(piles[p]) for p in range(n)]
                k = max(key[p] for p in best)
                best = [p for p in best if key[p] == k]
            winners = tuple(best)
        s.condition = cond
        s.winners = winners
        s.phase = "over"
        s.act = [-1] * nb
        s.mode = ""

    def end_turn(p: int) -> None:
        hand, pile = hands[p], piles[p]
        need = 3 - hand[0] - hand[1] - hand[2] - hand[3] - hand[4]
        while need > 0 and pile:
            hand[pile.pop()] += 1
            need -= 1
        s.act = [-1] * nb
        s.mode = ""
        s.mid = False
        s.swaps = 0
        if ship[0] == _END and ship.count(_END) == n:
            for i in range(n):
                ship[i] = _START
        s.turn += 1
        s.play_turns += 1
        nxt = p + 1 if p + 1 < n else 0
        s.active = nxt
        s.phase = "wait" if ship[nxt] == _END else "sail"
        if not (live[0] or live[1] or live[2] or live[3] or live[4]):
            finish("E3")
        elif dead_end and not any(jokers) and dead():
            finish("E4")
        elif limit is not None and s.play_turns >= limit:
            finish("E5")

    def dead() -> bool:
        for sp in tiles:
            for t in sp:
                if (collectable or not bj[t]) and live[tcol[t]]:
                    return False
        return True

    def owed(p: int, sp: int) -> list[int]:
        c0 = sp - sp % 4
        res: list[int] = []
        for i in range(1, n):
            q = (p + i) % n
            k = 0
            for b in bath[q]:
                if c0 <= b <= sp:
                    k += 1
            if k:
                res.extend([q] * (k if per_bathy else 1))
        return res

    def owed_count(p: int, sp: int) -> int:
        c0 = sp - sp % 4
        res = 0
        for q in range(n):
            if q == p:
                continue
            k = 0
            for b in bath[q]:
                if c0 <= b <= sp:
                    k += 1
            if k:
                res += k if per_bathy else 1
        return res

    def can_pay(p: int, sp: int, colour: int) -> bool:
        hand = hands[p]
        if not hand[colour]:
            return False
        if not forbid and not use_hand:
            return True
        have = len(piles[p])
        if use_hand:
            have += sum(hand) - 1
        return have >= owed_count(p, sp)

    def collect_spaces(p: int) -> list[int]:
        b_of = bath[p]
        act = s.act
        if s.mode == "independent":
            return sorted({b_of[b] for b in range(nb) if 0 <= act[b] < 2})
        return sorted({b_of[b] for b in range(nb) if act[b] >= 0})

    def can_collect(p: int) -> bool:
        has_j = bool(jokers[p])
        if not has_j and not any(hands[p]):
            return False
        b_of = bath[p]
        act = s.act
        top_state = 2 if s.mode == "independent" else 3
        swap = s.swaps < swap_cap
        for b in range(nb):  # the order does not matter here: any collection will do
            if not 0 <= act[b] < top_state:
                continue
            sp = b_of[b]
            for t in tiles[sp]:
                if bj[t] and not collectable:
                    continue
                if (has_j and (swap or not bj[t])) or can_pay(p, sp, tcol[t]):
                    return True
        return False

    def collections_at(p: int, sp: int) -> list[tuple[int, int, int]]:
        res: list[tuple[int, int, int]] = []
        js = jokers[p]
        swap = s.swaps < swap_cap
        for t in tiles[sp]:
            if bj[t] and not collectable:
                continue
            if can_pay(p, sp, tcol[t]):
                res.append((sp, t, -1))
            if bj[t] and not swap:
                continue
            for j in js:
                res.append((sp, t, j))
        return res

    # ------------------------------------------------ the guided policy (greedy's rules of thumb)

    def gain(p: int, t: int) -> float:
        return 1.0 if t < NTILES and not owned[p][t // 5] else G_DUP

    def best_collection(p: int, spaces: list[int]) -> tuple[float, int, int, int]:
        """greedy's best collection from ``spaces`` (value, space, tile, joker or -1)."""
        best = (-1e9, -1, -1, -1)
        js = jokers[p]
        swap = s.swaps < swap_cap
        for sp in spaces:
            price = G_CARD + G_PAY * owed_count(p, sp)
            for t in tiles[sp]:
                if bj[t] and not collectable:
                    continue
                g = gain(p, t)
                if g - price > best[0] and can_pay(p, sp, tcol[t]):
                    best = (g - price, sp, t, -1)
                if js and g - G_JOKER > best[0] and (swap or not bj[t]):
                    best = (g - G_JOKER, sp, t, js[0])
        return best

    def potential(p: int, sp: int) -> float:
        hand = hands[p]
        best = 0.0
        for t in tiles[sp]:
            if bj[t] and not collectable:
                continue
            g = gain(p, t)
            if not hand[tcol[t]]:
                g *= 0.6
            if g > best:
                best = g
        return best - G_PAY * owed_count(p, sp) + 0.02 * len(tiles[sp]) + 0.001 * rand()

    def guided_sail(p: int, cols: list[int]) -> int:
        pos = ship[p]
        best, choice = -1e9, _END
        for c in cols:
            if c == _END:
                v = -0.5
            else:
                here = best_collection(p, sorted({b for b in bath[p] if b // 4 + 1 == c}))[0]
                v = max(here, 0.0) - 0.03 * (c - pos)
            if v > best:
                best, choice = v, c
        return choice

    def guided_place(p: int) -> int:
        best, choice = -1e9, 1
        for c in range(1, 7):
            mine = sum(1 for b in bath[p] if b >= 0 and b // 4 + 1 == c)
            v = max(potential(p, (c - 1) * 4), potential(p, (c - 1) * 4 + 1)) - 0.4 * mine
            if v > best:
                best, choice = v, c
        return choice

    def guided_exchange(p: int) -> int:
        """A colour in hand that no new treasure on the board needs, or -1 (pass)."""
        hand = hands[p]
        wanted = [False] * 5
        for sp in tiles:
            for t in sp:
                if (collectable or not bj[t]) and t < NTILES and not owned[p][t // 5]:
                    wanted[t % 5] = True
        for k in range(5):
            if hand[k] and not wanted[k]:
                return k
        return -1

    def after_step(p: int) -> None:
        mode = s.mode
        act = s.act
        if mode == "move":
            if 0 not in act:
                end_turn(p)
        elif mode == "collect":
            if not can_collect(p):
                end_turn(p)
        elif 0 not in act and not can_collect(p):
            end_turn(p)

    def move(p: int, b0: int) -> None:
        b_of = bath[p]
        sp = b_of[b0]
        targets = moves_of[sp]
        t = max(targets, key=lambda x: potential(p, x)) if guided else targets[int(rand() * len(targets))]
        if tr:
            trace.append(f"move {space_name(sp)} {space_name(t)}")  # type: ignore[union-attr]
        s.mid = True
        act = s.act
        for b in range(nb):
            if act[b] == 0 and b_of[b] == sp:
                b_of[b] = t
                act[b] = 2
                break
        s.did += 1
        after_step(p)

    def collect(p: int, sp: int, t: int, joker: int) -> None:
        act = s.act
        b_of = bath[p]
        if s.mode == "independent":
            here = [b for b in range(nb) if 0 <= act[b] < 2 and b_of[b] == sp]
            use = next((b for b in here if act[b] == 1), here[0])
            act[use] = 1
        s.did += 1
        space = tiles[sp]
        space.remove(t)
        if joker >= 0 and bj[t]:
            s.swaps += 1
        bj[t] = False
        if joker >= 0:
            jokers[p].remove(joker)
            space.append(joker)
            bj[joker] = True
        else:
            k = tcol[t]
            hand = hands[p]
            hand[k] -= 1
            out[k] += 1
            live[k] -= 1
            pile = piles[p]
            for q in owed(p, sp):
                if pile:
                    card = pile.pop()
                elif use_hand and sum(hand):
                    card = next(i for i in range(5) if hand[i])
                    hand[card] -= 1
                else:
                    break
                if top:
                    piles[q].append(card)
                else:
                    piles[q].insert(0, card)
        if t < NTILES and not owned[p][t // 5]:
            owned[p][t // 5] = True
            slots[p].append(t)
        else:
            jokers[p].append(t)
        if len(slots[p]) == 12:
            finish("E1", (p,))
            return
        c0 = sp - sp % 4
        for x in range(c0, c0 + 4):
            for y in tiles[x]:
                if not bj[y]:
                    break
            else:
                continue
            break
        else:
            finish("E2")
            return
        if not any(live):
            finish("E3")

    def collections(p: int, at: int) -> None:
        while True:
            spaces = [at] if at >= 0 else collect_spaces(p)
            if guided and s.mode == "collect":
                v, sp, t, j = best_collection(p, spaces)
                if v <= 0.0:
                    return
            else:
                options = [x for sp in spaces for x in collections_at(p, sp)]
                if not options:
                    return
                sp, t, j = options[int(rand() * len(options))]
            if tr:
                pay = "card" if j < 0 else f"joker {tile_name(j)}"
                trace.append(f"collect {space_name(sp)} {tile_name(t)} {pay}")  # type: ignore[union-attr]
            s.mid = True
            turn = s.turn
            collect(p, sp, t, j)
            if s.condition is not None:
                return
            after_step(p)
            if s.turn != turn:
                return
            if not (guided and s.mode == "collect") and rand() < 0.5:
                return

    def wait(p: int) -> None:
        hand = hands[p]
        pile = piles[p]
        k = guided_exchange(p) if guided and pile else -1
        if k >= 0 or (not guided and pile and any(hand) and rand() < 0.5):
            if k < 0:
                ks = [k for k in range(5) if hand[k]]
                k = ks[int(rand() * len(ks))]
            if tr:
                trace.append(f"exchange {COLOURS[k]}")  # type: ignore[union-attr]
            hand[k] -= 1
            pile.insert(0, k)
            hand[pile.pop()] += 1
        elif tr:
            trace.append("pass")  # type: ignore[union-attr]
        end_turn(p)

    def end_step(p: int) -> None:
        if s.condition is None and s.phase == "step":
            if tr:
                trace.append("end")  # type: ignore[union-attr]
            end_turn(p)

    def uniform_step(p: int, first: bool) -> None:
        """The uniform step after ``mode`` (``first``: right after the sail, no action yet)."""
        if s.mode == "collect":
            collections(p, -1)
        else:
            i = 0 if first else s.did
            for b in range(nb):
                if s.act[b] != 0 or s.phase != "step":
                    continue
                if i and not move_all and rand() < 0.5:
                    break
                move(p, b)
                i += 1
        end_step(p)

    def independent_step(p: int) -> None:
        used = s.did
        for b in range(nb):
            if s.condition is not None or s.phase != "step":
                break
            if s.act[b] != 0:
                continue
            sp = bath[p][b]
            if rand() < 0.5 or not collections_at(p, sp):
                if used and rand() < 0.3:
                    continue
                move(p, b)
            else:
                collections(p, sp)
            used += 1
        end_step(p)

    def apply_first(p: int, action: str) -> None:
        parts = action.split()
        kind = parts[0]
        s.mid = True
        if kind == "place":
            b_of = bath[p]
            b_of[b_of.index(-1)] = (int(parts[1]) - 1) * 4
            s.placed += 1
            s.turn += 1
            s.mid = False
            s.active = p + 1 if p + 1 < n else 0
            if s.placed == n * nb:
                s.phase = "sail"
        elif kind == "sail":
            t = _END if parts[1] == "end" else int(parts[1])
            ship[p] = t
            if t == _END:
                if on_arrival:
                    s.phase = "wait"
                else:
                    end_turn(p)
                return
            act = s.act = [-1] * nb
            for b in range(nb):
                if bath[p][b] // 4 + 1 == t:
                    act[b] = 0
            s.did = 0
            s.swaps = 0
            s.phase = "mode" if uniform else "step"
            s.mode = "" if uniform else "independent"
        elif kind == "mode":
            s.mode = parts[1]
            s.phase = "step"
        elif kind == "move":
            sp, t = parse_space(parts[1]), parse_space(parts[2])
            b_of = bath[p]
            act = s.act
            for b in range(nb):
                if act[b] == 0 and b_of[b] == sp:
                    b_of[b] = t
                    act[b] = 2
                    break
            s.did += 1
            after_step(p)
        elif kind == "collect":
            joker = parse_tile(parts[4]) if parts[3] == "joker" else -1
            collect(p, parse_space(parts[1]), parse_tile(parts[2]), joker)
            if s.condition is None:
                after_step(p)
        elif kind == "exchange":
            k = _COL[parts[1]]
            hand, pile = hands[p], piles[p]
            hand[k] -= 1
            pile.insert(0, k)
            hand[pile.pop()] += 1
            end_turn(p)
        else:  # end, pass
            end_turn(p)

    def declare(p: int) -> None:
        if guided:
            spaces = sorted({bath[p][b] for b in range(nb) if s.act[b] >= 0})
            collect_now = best_collection(p, spaces)[0] > 0.0
        else:
            collect_now = can_collect(p) and rand() < 0.5
        s.mode = "collect" if collect_now else "move"
        s.phase = "step"
        s.mid = True
        if tr:
            trace.append(f"mode {s.mode}")  # type: ignore[union-attr]
        uniform_step(p, True)

    if first is not None:
        if tr:
            trace.append(first)  # type: ignore[union-attr]
        apply_first(s.active, first)

    # a playout may start in the middle of a turn: finish it first
    if s.phase == "mode":
        declare(s.active)
    elif s.phase == "step":
        if uniform:
            uniform_step(s.active, False)
        else:
            independent_step(s.active)

    while s.condition is None and s.turn < max_turns:
        p = s.active
        ph = s.phase
        if ph == "place":
            c = guided_place(p) if guided else rng.randrange(6) + 1
            if tr:
                trace.append(f"place {c}")  # type: ignore[union-attr]
            b_of = bath[p]
            b_of[b_of.index(-1)] = (c - 1) * 4
            s.placed += 1
            s.turn += 1
            s.active = p + 1 if p + 1 < n else 0
            if s.placed == n * nb:
                s.phase = "sail"
            continue
        if ph == "wait":
            wait(p)
            continue
        pos = ship[p]
        cols = sorted({b // 4 + 1 for b in bath[p] if b // 4 + 1 > pos})
        if end_always or not cols:
            cols.append(_END)
        t = guided_sail(p, cols) if guided else cols[int(rand() * len(cols))]
        if tr:
            trace.append(f"sail {_pos_name(t)}")  # type: ignore[union-attr]
        ship[p] = t
        s.mid = True
        if t == _END:
            if on_arrival:
                s.phase = "wait"
                wait(p)
            else:
                end_turn(p)
            continue
        act = s.act = [-1] * nb
        for b in range(nb):
            if bath[p][b] // 4 + 1 == t:
                act[b] = 0
        s.did = 0
        s.swaps = 0
        if uniform:
            declare(p)
        else:
            s.phase = "step"
            s.mode = "independent"
            independent_step(p)
