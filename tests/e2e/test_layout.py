"""The board's layout in a real JupyterLab / Chromium (issue 16, item 6): in a wide cell the
players' cards (scores, loads) sit beside the board, within a 1366×768 screen; in a narrow one
everything stacks and fits."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from .harness import set_theme

SCREENS = Path(os.environ.get("DSA_SCREENSHOTS", "/tmp/dsa-screens"))
BOARD = (
    "from dsa_widget import DeepSea\n"
    "w = DeepSea(players=['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Flo'], seed=4)\n"
    "w.roll((2, 3)); w.apply('take')\nw"
)


def boxes(root, selector):
    return root.evaluate(
        "(r, sel) => [...r.querySelectorAll(sel)].map(e => { const b = e.getBoundingClientRect();"
        " return [b.left, b.top, b.right, b.bottom]; })",
        selector,
    )


def test_cards_beside_the_board_at_1366_by_768(lab, page, console):
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 768})
    nb = lab.open("layout.ipynb", [BOARD])
    nb.run_all()
    root = page.locator(".dsa-root").first
    expect(root).to_have_attribute("data-wide", "1")
    root.locator(".dsa-board").scroll_into_view_if_needed()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    board = boxes(root, ".dsa-board")[0]
    cards = boxes(root, ".dsa-player")
    assert len(cards) == 6
    for left, top, right, bottom in cards:
        assert left >= board[2] - 1, (left, board)  # beside the board, not under it
        assert top >= 0 and bottom <= 768 and right <= 1366, (top, bottom, right)
    assert board[3] <= 768  # the whole board on screen with them
    root.screenshot(path=str(SCREENS / "board-1366-light.png"))
    # the space Ann took from is blank: only its small inner mark is dashed; its ring and its
    # number are drawn as every space's (the mark's style leaked to them: a dashed ring through
    # a stroked, garbled number)
    blank = root.locator(".dsa-space[data-kind='blank']")
    expect(blank).to_have_count(1)
    style = blank.evaluate(
        "g => [g.querySelector('.dsa-space-bg'), g.querySelector('.dsa-space-num')]"
        ".map(e => getComputedStyle(e)).map(c => [c.strokeDasharray, c.stroke])"
    )
    assert style[0][0] == "none" and style[1][1] == "none", style
    assert blank.locator("circle.dsa-blank").evaluate("c => getComputedStyle(c).strokeDasharray") != "none"
    # the hints panel folds to its header line and unfolds (issue 16, item 6)
    fold = root.locator("button[data-action='fold-hints']")
    expect(root.locator(".dsa-hint-list")).to_be_visible()
    fold.click()
    expect(root.locator(".dsa-hint-list")).to_have_count(0)
    expect(fold).to_have_attribute("aria-expanded", "false")
    fold.click()
    expect(root.locator(".dsa-hint-list")).to_be_visible()
    # the what-if comparison of six players fits the cell: scores, positions, air, loads
    nb.execute("w.branch(); w.roll((3, 3)); w.keep()")
    table = root.locator(".dsa-compare")
    expect(table.locator("tr[data-row='what-if'] td[data-seat='5']")).to_be_visible()
    assert table.evaluate("t => t.scrollWidth - t.clientWidth") <= 1
    assert root.evaluate("r => r.scrollWidth - r.clientWidth") <= 1
    heads = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    assert heads[1:3] == ["round", "air"] and len(heads) == 3 + 6
    cell = table.locator("tr[data-row='what-if'] td[data-seat='1']")
    lines = [x.strip() for x in cell.locator("span").all_inner_texts()]
    assert lines == ["0 pt", "sp 7↓", "0 items"]  # 3 + 3 spaces, jumping over Ann on 5
    edge = boxes(root, ".dsa-toolbar")[0][2]  # the table sits under the shell's bar, within it
    for left, _, right, _ in boxes(root, ".dsa-compare td, .dsa-compare th"):
        assert left >= 0 and right <= edge + 1, (left, right)
    root.screenshot(path=str(SCREENS / "compare-6-players-1366.png"))
    nb.execute("w.back_to_real()")
    expect(root).to_have_attribute("data-view", "live")
    set_theme(page, "dark")
    root.screenshot(path=str(SCREENS / "board-1366-dark.png"))
    # a 700 px wide window: one column, and nothing sticks out of the cell
    page.set_viewport_size({"width": 700, "height": 900})
    expect(root).to_have_attribute("data-wide", "0")
    overflow = root.evaluate("r => r.scrollWidth - r.clientWidth")
    assert overflow <= 1, overflow
    board = boxes(root, ".dsa-board")[0]
    assert all(top >= board[3] - 1 for _, top, _, _ in boxes(root, ".dsa-player"))  # below it
    root.screenshot(path=str(SCREENS / "board-700-dark.png"))
    set_theme(page, "light")
    root.screenshot(path=str(SCREENS / "board-700-light.png"))
    console.assert_no_errors()
