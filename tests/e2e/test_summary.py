"""Round and game summaries on the board, and Play again (issue 16, item 5), in a real
JupyterLab / Chromium."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

SCREENS = Path(os.environ.get("DSA_SCREENSHOTS", "/tmp/dsa-screens"))
BOARD = (
    "from dsa_widget import DeepSea\n"
    "w = DeepSea(players=['Ann', 'Bob'], seats={1: 'random'}, seed=6, bot_seed=3, air=5, rounds=2,"
    " bot_delay=60)\nw"
)
PLAY_ROUND = """
r = w.game.round
while w.game.round == r and not w.game.is_over:
    if w.is_bot_turn():
        w.bot_move()
    else:
        legal = w.game.legal_choices()
        w.apply('take' if 'take' in legal else ('continue' if 'continue' in legal else legal[0]))
"""


def test_round_summary_game_summary_and_play_again(lab, page, console):
    SCREENS.mkdir(parents=True, exist_ok=True)
    nb = lab.open("summary.ipynb", [BOARD])
    nb.run_all()
    root = page.locator(".dsa-root").first
    expect(root.locator(".dsa-board")).to_be_visible()
    expect(root.locator(".dsa-summary")).to_have_count(0)
    nb.execute(PLAY_ROUND)  # round 1 to its end
    box = root.locator(".dsa-summary")
    expect(box).to_be_visible()
    expect(box.locator("h3")).to_contain_text("Round 1 is over")
    assert box.locator(".dsa-summary-line").count() >= 1
    root.screenshot(path=str(SCREENS / "round-summary.png"))
    root.focus()
    page.keyboard.press("Escape")  # skippable
    expect(box).to_have_count(0)
    nb.execute(PLAY_ROUND)  # round 2, the last
    assert nb.eval("w.game.is_over") == "True"
    expect(box).to_be_visible()
    expect(box).to_have_attribute("data-summary", nb.eval("w.state['summary']['id']").strip("'"))
    rows = box.locator(".dsa-summary-table tbody tr")
    expect(rows).to_have_count(2)
    totals = [int(t) for t in box.locator(".dsa-sum-total").all_inner_texts()]
    assert totals == [int(x) for x in nb.eval("list(w.game.scores)").strip("[]").split(", ")]
    expect(box.locator(".dsa-summary-winner")).to_contain_text("win")
    root.screenshot(path=str(SCREENS / "game-summary.png"))
    box.locator("button[data-action='play-again']").click()
    expect(root).to_have_attribute("data-turn", "0")
    expect(root).not_to_have_attribute("data-over", "1")
    expect(box).to_have_count(0)
    expect(root).to_have_attribute("data-keys", "on")
    assert nb.eval("w.game.setup.rounds") == "2" and nb.eval("w.state['seats']") == "['human', 'random']"
    console.assert_no_errors()
