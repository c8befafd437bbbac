"""Games on the platform's shell (Pig, The Crew), played with nbclient and exported with
nbconvert: with no kernel the board says so, its controls that need Python do nothing, and its
history bar still replays the game step by step from the synced past (history_chunks,
history_tail), each step as the screen's seat saw it."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from . import static as static_mod


def _saved_page(static_export, page, tmp_path, cells, name, root_class):
    """Run ``cells`` with nbclient, export the notebook to ``name``.html, open it with no kernel;
    the board's root (checked to have found no kernel) and what the second cell printed."""
    nb = static_mod.execute_notebook(static_mod.new_notebook(cells), cwd=tmp_path)
    expected = json.loads("".join(o.get("text", "") for o in nb.cells[1].outputs))
    html_path = tmp_path / f"{name}.html"
    static_mod.export_html(nb, html_path)
    static_export.open(html_path)
    root = page.locator(root_class)
    expect(root).to_have_count(1, timeout=30_000)
    expect(root).to_have_attribute("data-kernel", "none")  # no answer to its hello
    return root, expected


CELLS = [
    """\
from dsa_widget.pig import Pig
w = Pig(players=['Ann', '<b>Bob</b>'], seats={0: 'hold_at_20', 1: 'optimal'}, goal=40, seed=5, bot_seed=1)
for _ in range(150):
    if w.game.is_over or not w.bot_move():
        break
w""",
    """\
import json
import re
print(json.dumps({'seq': w.seq, 'n': w.state['history']['n'], 'scores': list(w.game.scores),
                  'after1': list(w.game_after(1).scores)}))""",
]


def test_a_saved_page_replays_the_game_with_no_kernel(static_export, page, console, tmp_path):
    root, expected = _saved_page(static_export, page, tmp_path, CELLS, "pig", ".pig-root")
    assert root.get_attribute("data-seq") == str(expected["seq"])
    expect(root.locator(".dsa-static-note")).to_contain_text("No Python is running this board")
    expect(root.locator(".pig-name").nth(1)).to_have_text("<b>Bob</b>")  # a name is text
    assert root.locator("b").count() == 0
    scores = root.locator(".pig-score").all_inner_texts()
    assert [int(x) for x in scores] == expected["scores"]
    # the history bar scrubs on its own: Home shows the start, PageDown one step on
    root.focus()
    page.keyboard.press("Home")
    expect(root).to_have_attribute("data-scrub", "0")
    assert [int(x) for x in root.locator(".pig-score").all_inner_texts()] == [0, 0]
    # the chances panel shows the step's own figures (issue ux5), not the saved game's
    panel = root.locator(".dsa-chances")
    expect(panel.locator(".dsa-chances-title")).to_have_text(f"Chances (step 0 of {expected['n']})")
    expect(panel.locator(".dsa-chance-label")).to_have_text(["Win chance for Ann, rolling now"])
    page.keyboard.press("PageDown")
    expect(root).to_have_attribute("data-scrub", "1")
    assert [int(x) for x in root.locator(".pig-score").all_inner_texts()] == expected["after1"]
    expect(root.locator(".dsa-status")).to_contain_text(f"step 1 of {expected['n']}")
    root.locator('button[data-action="live"]').click()
    expect(root).to_have_attribute("data-scrub", "")
    assert [int(x) for x in root.locator(".pig-score").all_inner_texts()] == expected["scores"]
    expect(panel).to_contain_text("No figure for this position.")  # the game is over
    # a click that needs Python changes nothing
    assert root.get_attribute("data-seq") == str(expected["seq"])
    console.assert_no_errors()


CREW_CELLS = [
    """\
from dsa_widget.crew.widget import Crew
w = Crew(players=['Ann', '<b>Bob</b>', 'Cy'], seats={0: 'random', 1: 'random', 2: 'random'}, viewer=0,
         seed=3, target=1, bot_seed=1)
while not w.game.is_over and w.bot_move() is not None:
    pass
w""",
    """\
import json
import re
print(json.dumps({'seq': w.seq, 'n': w.state['history']['n'], 'result': w.game.outcome.result,
                  'hand': len(w.game.hand(0)), 'hand0': len(w.game_after(0).hand(0)),
                  'hand1': len(w.game_after(1).hand(0))}))""",
]


def test_a_saved_crew_page_replays_the_mission_with_no_kernel(static_export, page, console, tmp_path):
    root, expected = _saved_page(static_export, page, tmp_path, CREW_CELLS, "crew", ".crew-root")
    assert root.get_attribute("data-seq") == str(expected["seq"])
    expect(root.locator(".dsa-static-note")).to_contain_text("No Python is running this board")
    expect(root.locator(".crew-seat-name").nth(1)).to_have_text("<b>Bob</b>")  # a name is text
    assert root.locator("b").count() == 0
    expect(root.locator(".crew-outcome")).to_have_attribute("data-result", expected["result"])
    hand = root.locator(".crew-hand button.crew-card-btn")
    expect(hand).to_have_count(expected["hand"])
    # the history bar scrubs on its own: Home shows the deal, PageDown one step on
    root.focus()
    page.keyboard.press("Home")
    expect(root).to_have_attribute("data-scrub", "0")
    expect(root.locator(".dsa-status")).to_contain_text(f"History, step 0 of {expected['n']}")
    expect(hand).to_have_count(expected["hand0"])
    expect(root.locator(".crew-outcome")).to_have_count(0)
    expect(root.locator("li.crew-task").first).to_contain_text("not taken yet")
    page.keyboard.press("PageDown")
    expect(root).to_have_attribute("data-scrub", "1")
    expect(root.locator(".dsa-status")).to_contain_text(f"History, step 1 of {expected['n']}")
    expect(hand).to_have_count(expected["hand1"])
    root.locator('button[data-action="live"]').click()
    expect(root).to_have_attribute("data-scrub", "")
    expect(hand).to_have_count(expected["hand"])
    expect(root.locator(".crew-outcome")).to_have_attribute("data-result", expected["result"])
    # a click that needs Python changes nothing
    root.locator('button[data-action="what-if"]').click()
    expect(root).to_have_attribute("data-mode", "real")
    assert root.get_attribute("data-seq") == str(expected["seq"])
    console.assert_no_errors()


BOT_TURN_CELLS = [
    """\
from dsa_widget.crew.widget import Crew
w = Crew(players=['Ann', 'Bob', 'Cy'], seats={1: 'crewmate', 2: 'crewmate'}, viewer=0, seed=3, target=1)
for _ in range(60):  # Ann plays until a bot is to move (no browser asks the bots here)
    if w.is_bot_turn() or w.game.is_over or not w.state['legal']:
        break
    w.apply(w.state['legal'][0])
w""",
    "import json; print(json.dumps({'bot': w.is_bot_turn(), 'actor': w.state['actor']}))",
]


def test_a_saved_crew_page_at_a_bots_turn_does_not_say_the_bot_is_thinking(
    static_export, page, console, tmp_path
):
    # found opening a Crew page saved at a bot's turn: "Bob (crewmate bot) is thinking..." under
    # the hand, on a page where no bot will ever move
    root, expected = _saved_page(static_export, page, tmp_path, BOT_TURN_CELLS, "crew-bot", ".crew-root")
    assert expected["bot"], expected
    name = ["Ann", "Bob", "Cy"][expected["actor"]]
    expect(root.locator(".crew-hint")).to_have_text(f"Waiting for {name}.")
    assert "thinking" not in root.inner_text()
    console.assert_no_errors()


SUB_CELLS = [
    """\
from dsa_widget.submarine import Submarine
w = Submarine(players=['Ann', 'Bob', 'Cy'], seats={1: 'greedy', 2: 'greedy'}, seed=1, bot_seed=1)
import random
rng = random.Random(3)
for _ in range(30):
    if w.game.is_over:
        break
    if w.state['legal']:
        w.apply(rng.choice(w.state['legal']))
    else:
        w.bot_move()
w""",
    """\
import json
import re
print(json.dumps({'seq': w.seq, 'n': w.state['history']['n'], 'actor': w.state['actor'],
                  'actors': [w.session.actor(w.game_after(k)) for k in range(w.state['history']['n'])]}))""",
]


def test_a_saved_submarine_page_replays_the_game_and_marks_who_was_to_move(
    static_export, page, console, tmp_path
):
    # found scrubbing a saved Submarine page: every past step marked the live game's seat
    # "to move" under a header naming another seat's turn
    root, expected = _saved_page(static_export, page, tmp_path, SUB_CELLS, "submarine", ".sub-root")
    active = root.locator(".sub-player.sub-active")
    expect(active).to_have_class(re.compile(rf"\bsub-seat-{expected['actor']}\b"))
    root.focus()
    page.keyboard.press("Home")
    for k in range(4):
        expect(root).to_have_attribute("data-scrub", str(k))
        expect(root.locator(".dsa-status")).to_contain_text(f"History, step {k} of {expected['n']}")
        expect(active).to_have_class(re.compile(rf"\bsub-seat-{expected['actors'][k]}\b"))
        page.keyboard.press("PageDown")
    root.locator('button[data-action="live"]').click()
    expect(root).to_have_attribute("data-scrub", "")
    expect(active).to_have_class(re.compile(rf"\bsub-seat-{expected['actor']}\b"))
    console.assert_no_errors()
