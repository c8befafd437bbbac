"""Pig, the fourth game, in real Chromium inside a real JupyterLab: the platform's shell draws
it (js/shell.js + js/pig/widget.js). A click rolls, a key (B) holds, the optimal bot answers on its
own, the keys never reach the notebook, what-if and back by keys, and a refusal in words."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from .harness import set_theme

CELL = (
    "from dsa_widget.pig import Pig\n"
    "w = Pig(players=['You', 'Bot'], seats={1: 'optimal'}, goal=30, seed=2, bot_delay=30)\nw"
)


def moved(page, root, seq: int) -> None:
    page.wait_for_function(
        "([root, seq]) => Number(root.dataset.seq) > seq", arg=[root.element_handle(), seq], timeout=60_000
    )


def test_pig_plays_by_click_and_key_on_the_shell(lab, page, console):
    nb = lab.open("pig_play.ipynb", [CELL])
    nb.run_all()
    root = nb.output(0).locator(".pig-root")
    expect(root).to_be_visible()
    expect(root).to_have_attribute("data-keys", "on")
    expect(root.locator(".dsa-game-keys")).to_contain_text("R roll")
    cells = nb.panel.locator(".jp-Cell").count()
    # B (hold) at a turn's start (only a roll is legal) says why it did nothing, instead of nothing
    page.keyboard.press("b")
    expect(root.locator(".dsa-error").first).to_have_text("B: not a choice now")
    # a click on Roll: Python applies it and throws the die, the board redraws with the step
    seq = int(root.get_attribute("data-seq"))
    root.locator('button[data-choice="roll"]').click()
    moved(page, root, seq)
    assert "rolled" in root.locator(".dsa-log li").last.inner_text()
    # keys the notebook would take (x cuts a cell, m makes it markdown) do nothing to it
    for key in ("x", "m", "a", "b"):
        page.keyboard.press(key)
    assert nb.panel.locator(".jp-Cell").count() == cells
    assert nb.panel.locator(".jp-MarkdownCell").count() == 0
    # play on by keys until the bot has had a turn and it is the human's turn again
    read = (
        "import json; st = w.state\n"
        "print(json.dumps([st['actor'], st['legal'], w.seq, st['history']['labels']]))"
    )
    for _ in range(60):
        actor, legal, seq, labels = json.loads(nb.execute(read).stdout)
        if actor == 0 and any(label.startswith("Bot ") for label in labels):
            break
        if actor == 0:
            page.keyboard.press("b" if "hold" in legal else "r")
        moved(page, root, seq)  # our move, or the bot's
    page.wait_for_function(
        "([root, seq]) => Number(root.dataset.seq) >= seq && !root.dataset.pending",
        arg=[root.element_handle(), seq],
    )
    # the past by key: the header names the step as every game's does, and the turn line of the
    # viewer's own seat says "Your turn" (it said "You's turn" in the past)
    n = int(nb.eval("w.state['history']['n']"))
    root.focus()
    page.keyboard.press("Home")
    expect(root.locator(".dsa-status")).to_have_text(f"History, step 0 of {n} — Your turn.")
    expect(root.locator(".pig-turn-line")).to_contain_text("Your turn: no roll yet")
    page.keyboard.press("End")
    expect(root).to_have_attribute("data-mode", "real")
    # what-if by key, then back to the real game by key
    page.wait_for_function("(root) => !root.dataset.pending", arg=root.element_handle())
    root.focus()
    page.keyboard.press("w")
    expect(root).to_have_attribute("data-mode", "whatif")
    # a roll in the what-if: its die is the log's last line (the log kept the real game's)
    seq = int(root.get_attribute("data-seq"))
    page.keyboard.press("r")
    moved(page, root, seq)
    first, told = json.loads(
        nb.execute("import json; h = w.state['history']; print(json.dumps([h['first'], h['labels']]))").stdout
    )
    assert first + len(told) == n + 2 and " rolled a " in told[-1]  # the real game's n steps, then 2
    told = told[-1]
    expect(root.locator(".dsa-log li").last).to_have_text(told)
    page.wait_for_function("(root) => !root.dataset.pending", arg=root.element_handle())
    page.keyboard.press("q")
    expect(root).to_have_attribute("data-mode", "real")
    # a common key that does nothing now says why (it said nothing: U, Q, S seemed dead)
    page.keyboard.press("q")
    expect(root.locator(".dsa-error").first).to_have_text("Q: this is the real game")
    page.keyboard.press("u")
    expect(root.locator(".dsa-error").first).to_have_text("U: undo is for a what-if (W opens one)")
    # a refusal says why, in words: an intent for an old state
    nb.execute("w.handle_intent({'type': 'intent', 'seq': -5, 'choice': 'roll'})")
    expect(root.locator(".dsa-error").first).to_contain_text("nothing changed")
    # "New game..." starts from this game's settings: the goal is 30 (it showed the usual 100,
    # and Start with nothing changed began a game to 100), and Start keeps it
    root.locator("summary", has_text="New game").click()
    expect(root.locator("input[data-field='goal']")).to_have_value("30")
    seq = int(root.get_attribute("data-seq"))
    root.locator("button[data-action='new-game']").click()
    moved(page, root, seq)
    assert nb.eval("w.state['goal'], w.state['history']['n']") == "(30, 0)"
    console.assert_no_errors()


def test_a_what_if_rolls_a_chosen_face_by_button_and_by_key(lab, page, console):
    # Pig's die is thrown as soon as a player rolls: a what-if could not try "what if this roll
    # were a 1?" from the board. Its buttons 1-6 (and keys 1-6) roll that face, in a what-if only
    nb = lab.open("pig_faces.ipynb", [CELL])
    nb.run_all()
    root = nb.output(0).locator(".pig-root")
    expect(root).to_be_visible()
    expect(root.locator("button[data-face]")).to_have_count(0)  # the real game: no chosen faces
    root.locator('button[data-action="what-if"]').click()
    expect(root).to_have_attribute("data-mode", "whatif")
    expect(root.locator("button[data-face]")).to_have_count(6)
    # a screen reader hears what a face button does, not the die glyph "⚃ 4"
    expect(root.get_by_role("button", name="Roll, and the die shows 4 (4)")).to_have_count(1)
    root.locator('button[data-face="4"]').click()
    # the rolled die is a number to a screen reader too
    expect(root.locator(".pig-die").last).to_have_attribute("aria-label", "4")
    expect(root.locator(".dsa-log li").last).to_have_text("You rolled a 4")
    page.keyboard.press("1")
    expect(root.locator(".dsa-log li").last).to_have_text("You rolled a 1 and lost the turn")
    assert json.loads(nb.execute("import json; print(json.dumps(w.game.turn_total))").stdout) == 0
    console.assert_no_errors()


def test_the_chances_panel_shows_the_solved_figures_and_h_toggles_it(lab, page, console):
    # issue ux5: the platform's "Chances" panel under Pig's board, the chance to win rolling now
    # and holding now (solved, for optimal play by both), and H (every board's hints key) hides
    # and shows it; the figures follow the step the history shows
    nb = lab.open("pig_chances.ipynb", [CELL])
    nb.run_all()
    root = nb.output(0).locator(".pig-root")
    panel = root.locator(".dsa-chances")
    expect(panel).to_have_attribute("data-hints", "on")
    expect(panel.locator("li")).to_have_count(1)  # a turn's start: only a roll is allowed
    expect(panel.locator(".dsa-chance-kind").first).to_have_text("solved, if both play the optimal policy")
    want = nb.eval("w.state['chances'][0]['text']")
    expect(panel.locator(".dsa-chance-value").first).to_have_text(want.strip("'"))
    expect(root.locator(".dsa-game-keys")).to_contain_text("H chances on/off")
    root.focus()
    page.keyboard.press("h")
    expect(panel).to_have_attribute("data-hints", "off")
    expect(panel).to_contain_text("Hidden: H shows them.")
    assert nb.eval("w.hints") == "False"
    page.keyboard.press("h")
    expect(panel).to_have_attribute("data-hints", "on")
    expect(panel.locator("li")).to_have_count(1)
    # the dark theme: the panel takes the theme's colours (its text is not the light theme's)
    light = panel.evaluate("(el) => getComputedStyle(el).color")
    set_theme(page, "dark")
    expect(panel).not_to_have_css("color", light)
    set_theme(page, "light")  # (the theme is the server's setting: the next test's too)
    expect(panel).to_have_css("color", light)
    console.assert_no_errors()


def test_where_nothing_is_solved_the_panel_shows_estimates_with_their_interval(lab, page, console):
    # three players: no solved game to quote, so each figure is an estimate from sampled games,
    # and the panel says so in Python's words: its 95% interval, its sample size, the play assumed
    cell = "from dsa_widget.pig import Pig\nw = Pig(players=['You', 'Ann', 'Cy'], goal=40, seed=2)\nw"
    nb = lab.open("pig_estimates.ipynb", [cell])
    nb.run_all()
    root = nb.output(0).locator(".pig-root")
    panel = root.locator(".dsa-chances")
    expect(panel.locator("li")).to_have_count(1)  # a turn's start: only a roll is allowed
    nb.execute("w.roll(5)")  # 5 on the turn: rolling on and holding now
    expect(panel.locator("li")).to_have_count(2)
    figures = json.loads(nb.execute("import json; print(json.dumps(w.state['chances']))").stdout)
    assert [f["kind"] for f in figures] == ["estimate", "estimate"]
    for i, f in enumerate(figures):
        assert f["kind_words"].startswith("estimate ") and f"n = {f['n']}" in f["kind_words"]
        expect(panel.locator(".dsa-chance-kind").nth(i)).to_have_text(f["kind_words"])
        expect(panel.locator(".dsa-chance-value").nth(i)).to_have_text(f["text"])
    expect(panel.locator(".dsa-chance-kind").first).to_contain_text("if everyone then holds at 20")
    console.assert_no_errors()
