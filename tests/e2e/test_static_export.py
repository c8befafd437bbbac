"""A played game, executed with nbclient and exported with nbconvert, draws
its board in Chromium with no kernel (CDN files served offline)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from playwright.sync_api import expect

from . import static as static_mod

SCREENS = Path(os.environ.get("DSA_SCREENSHOTS", "/tmp/dsa-screens"))

CELLS = [
    """\
from dsa_widget import DeepSea, Game
w = DeepSea(players=['Ann', '<b>Bob</b>'], seats={1: 'baseline'}, seed=5, bot_seed=1)
import random
rng = random.Random(3)
for _ in range(12):
    w.apply(rng.choice(w.game.legal_choices()))
    w.play_bots()
w""",
    """\
import json
g = w.game
print(json.dumps({'pos': [d.position for d in g.divers], 'n': g.path_length, 'air': g.air,
                  'round': g.round, 'seq': w.seq, 'current': g.current_player}))""",
    "Game(players=['Ann', 'Bob'], seed=2)",
]


def test_static_export_draws_the_board_without_a_kernel(static_export, page, console, tmp_path):
    SCREENS.mkdir(parents=True, exist_ok=True)
    nb = static_mod.execute_notebook(static_mod.new_notebook(CELLS), cwd=tmp_path)
    expected = json.loads("".join(o.get("text", "") for o in nb.cells[1].outputs))
    html_path = tmp_path / "played.html"
    html = static_mod.export_html(nb, html_path)
    assert "dsa-root" in html or "widget.js" in html or "_esm" in html
    site = static_export.open(html_path)
    root = page.locator(".dsa-root")
    expect(root).to_have_count(1, timeout=30_000)
    expect(root.locator(".dsa-board")).to_be_visible()
    assert root.get_attribute("data-seq") == str(expected["seq"])
    assert int(root.get_attribute("data-air")) == expected["air"]
    assert int(root.get_attribute("data-round")) == expected["round"]
    assert root.locator(".dsa-space").count() == expected["n"]
    pos = root.locator(".dsa-diver").evaluate_all("els => els.map(e => Number(e.dataset.pos))")
    assert pos == expected["pos"]
    expect(root.locator(".dsa-player-name").nth(1)).to_have_text("<b>Bob</b>")
    assert root.locator("b").count() == 0
    # the human's choices are shown; without a kernel a click only explains itself
    assert expected["current"] == 0
    buttons = root.locator("button[data-choice]")
    assert buttons.count() >= 1
    # the bare Game's SVG picture is in the page too
    assert (
        page.locator("img[src^='data:image/svg+xml'], svg[aria-label='Deep Sea Adventure board']").count()
        >= 1
    )
    assert {"requirejs", "@jupyter-widgets/html-manager", "anywidget"} <= site.served_packages(), (
        site.summary()
    )
    page.screenshot(path=str(SCREENS / "static-export.png"), full_page=True)
    # what needs Python is disabled, with a note saying why; the setup panel is hidden
    expect(root).to_have_attribute("data-kernel", "none")  # no answer to its hello
    expect(root.locator(".dsa-static-note")).to_contain_text("No Python is running this board")
    assert buttons.first.evaluate("b => getComputedStyle(b).pointerEvents") == "none"
    expect(root.locator(".dsa-setup")).to_be_hidden()
    # a key still explains itself, and changes nothing
    key = {"roll": "r", "take": "t", "none": "n", "back": "b", "continue": "c"}[
        buttons.first.get_attribute("data-choice")
    ]
    root.focus()
    page.keyboard.press(key)
    expect(root.locator(".dsa-error")).to_contain_text("no kernel")
    assert root.get_attribute("data-seq") == str(expected["seq"])
    console.assert_no_errors()
