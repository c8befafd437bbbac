"""Deep Sea Adventure's table read as a newcomer would (issue 29), in a real JupyterLab at
1366×768: the air figure is the game's, the hints panel keeps its height from turn to turn, Roll
stays in sight in a what-if, the divers leave the spaces' numbers readable, a short custom path
does not clip the submarine, and a game that ends early says why."""

from __future__ import annotations

import json
import os
from pathlib import Path

from playwright.sync_api import expect

SCREENS = Path(os.environ.get("DSA_SCREENSHOTS", "/tmp/dsa-screens"))

BOARD = (
    "from dsa_widget import DeepSea\n"
    "w = DeepSea(players=['Ann', 'Bob', 'Cy'], seed=7)\n"
    "for d in [(2, 3), (1, 2), (3, 3)]:\n"
    "    w.roll(d); w.apply('take')\n"
    "w"
)

INTERSECTIONS = """root => {
  const box = (e) => e.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = [];
  for (const d of root.querySelectorAll('.dsa-diver')) {
    const pos = d.dataset.pos;
    if (pos === '0') continue;
    const num = root.querySelector(`.dsa-space[data-space="${pos}"] .dsa-space-num`);
    const body = d.querySelector('.dsa-halo') || d.querySelector('.dsa-diver-body');
    if (hit(box(body), box(num))) out.push(pos);
  }
  return out;
}"""


def _legal(nb) -> list[str]:
    return json.loads(nb.execute("import json; print(json.dumps(list(w.game.legal_choices())))").stdout)


def _height(root, sel: str) -> float:
    return root.locator(sel).first.evaluate("e => e.getBoundingClientRect().height")


def test_air_hints_roll_and_numbers_at_1366_by_768(lab, page, console):
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 768})
    nb = lab.open("ux.ipynb", [BOARD])
    nb.run_all()
    root = page.locator(".dsa-root").first
    expect(root).to_have_attribute("data-view", "live")
    # Ann to move, carrying one chip: her breath is still to come.  The gauge's figure is the
    # game's air (as w.game.air and the what-if table say), the breath drawn as a slice
    assert nb.eval("w.game.current_player") == "0"
    air = int(nb.eval("w.game.air"))
    gauge = root.locator(".dsa-air")
    expect(gauge).to_have_attribute("data-air", str(air))
    expect(gauge).to_have_attribute("data-breath", "1")
    expect(gauge.locator("text")).to_have_text(f"air {air} / 25 (−1)")
    # the divers stand clear of the numbers of the spaces they are on (measured still: a swim
    # under way or the current diver's spinning ring would move their boxes)
    page.emulate_media(reduced_motion="reduce")
    page.evaluate(
        "() => document.getAnimations().forEach(a => { try { a.finish(); } catch (e) { /* endless */ } })"
    )
    assert root.evaluate(INTERSECTIONS) == []
    page.emulate_media(reduced_motion="no-preference")
    # the hints panel keeps its height, turn after turn, and the log under it does not move
    expect(root.locator(".dsa-hint-list")).to_be_visible()
    heights, log_tops = set(), set()
    for choice in ("continue", "roll", "none", "roll"):
        legal = _legal(nb)
        if choice not in legal:
            choice = legal[0]
        seq = int(root.get_attribute("data-seq"))
        nb.execute(f"w.roll((1, 2)) if {choice!r} == 'roll' else w.apply({choice!r})")
        expect(root).not_to_have_attribute("data-seq", str(seq))
        expect(root).to_have_attribute("data-overlay-seq", root.get_attribute("data-seq"))
        heights.add(round(_height(root, ".dsa-hints")))
        log_tops.add(round(root.locator(".dsa-log-details").evaluate("e => e.getBoundingClientRect().top")))
    assert len(heights) == 1 and len(log_tops) == 1, (heights, log_tops)
    # ... and what does not fit scrolls (JupyterLab's own `dl { overflow: hidden }` must not
    # win), with the chance to get home, the figure that matters most, in sight at the top
    hints = root.locator(".dsa-hint-list")
    assert hints.evaluate("e => getComputedStyle(e).overflowY") == "auto"
    inside = hints.evaluate(
        "l => { const a = l.getBoundingClientRect();"
        " const b = l.querySelector('.dsa-ov-home').getBoundingClientRect();"
        " return b.top >= a.top && b.bottom <= a.bottom; }"
    )
    assert inside, "the chance to get home is out of sight in the hints panel"
    hints.evaluate("l => { l.scrollTop = l.scrollHeight; }")
    assert hints.evaluate("l => l.scrollHeight <= l.clientHeight || l.scrollTop > 0")
    # a what-if: the board's top in view, its Roll button still on the screen
    while "roll" not in (legal := _legal(nb)):
        nb.execute(f"w.apply({legal[0]!r})")
    nb.execute("w.branch()")
    expect(root).to_have_attribute("data-view", "whatif")
    root.evaluate("r => r.scrollIntoView({block: 'start'})")
    roll = root.locator("button[data-choice='roll']")
    expect(roll).to_be_visible()
    box = roll.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 768, box
    root.screenshot(path=str(SCREENS / "deep-sea-whatif-1366.png"))
    console.assert_no_errors()


def test_a_short_path_and_an_early_end(lab, page, console):
    page.set_viewport_size({"width": 1366, "height": 768})
    nb = lab.open(
        "short.ipynb",
        [
            "from dsa_widget import DeepSea\n"
            "w = DeepSea(players=['Ann', 'Bob'], path=[[1, 2], [2, 5], [3, 9], [4, 14]], seed=1)\nw"
        ],
    )
    nb.run_all()
    root = page.locator(".dsa-root").first
    expect(root).to_have_attribute("data-view", "live")
    inside = root.evaluate(
        "r => { const s = r.querySelector('.dsa-board').getBoundingClientRect();"
        " const h = r.querySelector('.dsa-sub').getBoundingClientRect();"
        " return h.top >= s.top && h.bottom <= s.bottom + 0.5; }"
    )
    assert inside, "the submarine is clipped by a 4-space board"
    # the dice row is kept from the start: the first roll does not push the board down
    top = "r => r.querySelector('.dsa-board').getBoundingClientRect().top"
    before = root.evaluate(top)
    seq = root.get_attribute("data-seq")
    nb.execute("w.roll((1, 2))")
    expect(root).not_to_have_attribute("data-seq", seq)
    expect(root.locator(".dsa-dice")).to_be_visible()
    assert abs(root.evaluate(top) - before) <= 1, (before, root.evaluate(top))
    # a one-chip path: Ann takes it and comes home; the path is empty, the game ends early
    nb.execute(
        "w2 = DeepSea(players=['Ann', 'Bob'], path=[[1, 2]], seed=1)\n"
        "w2.roll((1, 1)); w2.apply('take')\n"
        "while not w2.game.is_over:\n"
        "    legal = w2.game.legal_choices()\n"
        "    c = 'back' if 'back' in legal else 'roll' if 'roll' in legal else legal[0]\n"
        "    w2.roll((1, 1)) if c == 'roll' else w2.apply(c)"
    )
    nb.run_cell("w2")
    board = page.locator(".dsa-root").nth(1)
    expect(board.locator(".dsa-summary-ended")).to_contain_text("nothing is left on the path")
    console.assert_no_errors()
