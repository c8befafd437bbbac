"""Submarine in real Chromium inside a real JupyterLab: (a) the setup panel starts a new game
with rule options chosen in the browser, then one human seat plays against two bots by clicks
(the first highlighted legal button each time) until the game-over banner shows; (b) hot seat:
the curtain hides every hand until Show; (c) light and dark follow JupyterLab's theme variables;
(d) what-if (branch, undo, redo, back to real) by clicks, history and the first action by keys;
(e) at 700 px: every action in words inside its button (no engine codes, nothing overflowing),
the rules primer folded, and the past and a what-if framed as the other games frame them."""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from .conftest import record_timing
from .harness import set_theme

#: click the first highlighted legal button (or the curtain's Show); null while an answer is due
CLICK_JS = """(root) => {
  const show = root.querySelector('.dsa-curtain button[data-action="show-seat"]:not([disabled])');
  if (show) { show.click(); return 'show-seat'; }
  if (root.dataset.pending) return null;
  const b = root.querySelector('button.sub-legal[data-choice]:not([disabled])');
  if (b) { b.click(); return b.dataset.choice; }
  return null;
}"""

#: the board drew a newer state than ``seq``, or shows an error, or the game is over
MOVED_JS = """([root, seq]) => Number(root.dataset.seq) > seq || !!root.dataset.error
  || root.dataset.over === '1'"""

CELL = (
    "from dsa_widget.submarine.widget import Submarine\n"
    "w = Submarine(players=['You', 'Bot 1', 'Bot 2'], seats={1: 'random', 2: 'random'},\n"
    "              seed=1, bot_delay=30)\n"
    "w"
)

MAX_CLICKS = 150

#: an engine code in a text shown: a tile, a shell, a colour, an end condition, a space, a raw action
CODE = re.compile(
    r"T\d\dK\d|SHK\d|\bK[1-5]\b|\bE[1-5]\b|\b[1-6]\.[1-4]\b|\bsail (end|\d)|\bmode (move|collect)"
)


def play_by_clicks(page, root) -> dict[str, int]:
    handle = root.element_handle()
    clicks: dict[str, int] = {}
    for _ in range(MAX_CLICKS):
        if root.get_attribute("data-over") == "1":
            return clicks
        seq = int(root.get_attribute("data-seq") or -1)
        did = page.evaluate(CLICK_JS, handle)
        if did is None:  # a bot is to move, or an answer is due: wait for the board to change
            page.wait_for_function(MOVED_JS, arg=[handle, seq], timeout=60_000)
        else:
            kind = did.split(" ")[0]
            clicks[kind] = clicks.get(kind, 0) + 1
            page.wait_for_function(MOVED_JS, arg=[handle, seq], timeout=60_000)
        assert not root.get_attribute("data-error"), root.locator(".dsa-error").all_text_contents()
    pytest.fail(f"the game did not end within {MAX_CLICKS} clicks: {clicks}")


def test_setup_panel_then_a_full_game_against_bots_by_clicks(lab, page, console):
    nb = lab.open("submarine_play.ipynb", [CELL])
    nb.run_all()
    root = nb.output(0).locator(".sub-root")
    expect(root).to_be_visible()
    expect(root.locator(".dsa-game-keys")).to_contain_text("Game keys:")
    expect(root.locator(".dsa-common-keys")).to_contain_text("Keys:")
    # the setup form (the shell's, from the option schema): 3 players, bot seats, a seed, options
    root.locator("details.dsa-setup > summary").click()
    form = root.locator("form.dsa-setup-form")
    expect(form).to_be_visible()
    form.locator("details.dsa-rule-options > summary").click()  # the rule options fold away
    keys = "import json; print(json.dumps([o['key'] for o in w.setup['schema']]))"
    for name in json.loads(nb.execute(keys).stdout):
        option = form.locator(f'[data-option="{name}"]')
        expect(option).to_have_count(1)
        # in words: a label for people, never the option's identifier
        label = form.locator(f'label[for="{option.get_attribute("id")}"]').inner_text()
        assert label and "_" not in label, label
    form.locator('[data-field="players"]').select_option("2")
    form.locator('[data-field="players"]').select_option("3")
    form.locator('[data-field="kind-1"]').select_option("random")
    form.locator('[data-field="kind-2"]').select_option("greedy")
    form.locator('[data-field="seed"]').fill("3")
    form.locator('[data-option="deck"]').select_option(index=1)  # the 75-card deck
    form.locator('[data-option="turn_limit"]').fill("8")
    seq = int(root.get_attribute("data-seq") or -1)
    form.locator('button[data-action="new-game"]').click()
    page.wait_for_function(MOVED_JS, arg=[root.element_handle(), seq], timeout=60_000)
    expect(root.locator("details.dsa-setup[open]")).to_have_count(0)
    got = json.loads(
        nb.execute(
            "print(json.dumps([w.game.seats, w.seats, w.game.options['deck'], w.game.options['turn_limit']]))"
        ).stdout
    )
    assert got == [3, ["human", "random", "greedy"], "75", 8], got
    # the own hand is drawn, legal actions highlighted with stable selectors
    expect(root.locator(".sub-hand [data-card]").first).to_be_visible()
    t0 = time.monotonic()
    clicks = play_by_clicks(page, root)
    record_timing("submarine game by clicks", time.monotonic() - t0)
    banner = root.locator('.dsa-over[data-action="game-over"]')
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Game over")
    assert nb.eval("w.game.is_over") == "True"
    # the end in words, with what scored how much for each player
    scores = root.locator(".sub-scores")
    expect(scores).to_contain_text("one point per different treasure type")
    for name in ("You", "Bot 1", "Bot 2"):
        expect(scores).to_contain_text(f"{name}: ")
    assert not CODE.search(banner.inner_text() + scores.inner_text())
    assert clicks.get("place", 0) >= 1 and sum(clicks.values()) >= 3, clicks
    print(f"\n[submarine e2e] clicks {clicks} in {time.monotonic() - t0:.1f} s")
    console.assert_no_errors()


HOT_SEAT = (
    "from dsa_widget.submarine.widget import Submarine\n"
    "w = Submarine(players=['Ann', 'Bob'], hot_seat=True, seed=2,\n"
    "              options={'start_player': 0, 'turn_limit': 2})\n"
    "w"
)


def test_hot_seat_curtain_hides_the_hands_until_show(lab, page, console):
    nb = lab.open("submarine_hot.ipynb", [HOT_SEAT])
    nb.run_all()
    root = nb.output(0).locator(".sub-root")
    expect(root.locator(".dsa-curtain")).to_contain_text("Pass the device to Ann")
    assert root.locator(".sub-hand [data-card]").count() == 0
    assert root.locator("button.sub-legal").count() == 0
    handle = root.element_handle()
    shows = 0
    for _ in range(MAX_CLICKS):
        if root.get_attribute("data-over") == "1":
            break
        seq = int(root.get_attribute("data-seq") or -1)
        if root.get_attribute("data-curtain") is not None:
            assert root.locator(".sub-hand [data-card]").count() == 0
            shows += 1
        did = page.evaluate(CLICK_JS, handle)
        assert did is not None, "nothing to click"
        page.wait_for_function(MOVED_JS, arg=[handle, seq], timeout=60_000)
        assert not root.get_attribute("data-error")
    else:
        pytest.fail("the hot-seat game did not end")
    assert shows >= 2
    expect(root.locator('.dsa-over[data-action="game-over"]')).to_be_visible()
    console.assert_no_errors()


THEMED = (
    "from dsa_widget.submarine.widget import Submarine\n"
    "w = Submarine(players=['You', 'Bot'], seats={1: 'greedy'}, seed=5, bot_delay=30,\n"
    "              options={'start_player': 1})\n"
    "w"
)


def test_light_and_dark_follow_the_jupyterlab_theme(lab, page, console, tmp_path):
    nb = lab.open("submarine_theme.ipynb", [THEMED])
    nb.run_all()
    root = nb.output(0).locator(".sub-root")
    # the bot places first; then your placement buttons are highlighted on the surface lane
    expect(root.locator('button[data-choice="place 1"]')).to_be_visible()
    expect(root.locator('button[data-choice="place 1"]')).to_have_attribute(
        "aria-label", "Place a bathyscaphe in column 1, depth 1"
    )
    # tiles carry their type and colour as text, not as colour alone
    tile = root.locator(".sub-space .sub-tile").first
    assert (tile.text_content() or "").strip()[-1] in "●▲■◆★"
    colours = {}
    for theme in ("light", "dark"):
        set_theme(page, theme)
        colours[theme] = root.locator(".sub-space").first.evaluate(
            "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color]"
        )
        root.screenshot(path=str(tmp_path / f"submarine-{theme}.png"))
    assert colours["light"] != colours["dark"], colours
    set_theme(page, "light")
    print(f"\n[submarine e2e] screenshots in {tmp_path}: {colours}")
    console.assert_no_errors()


def test_what_if_and_history_by_clicks_and_keys(lab, page, console):
    nb = lab.open("submarine_whatif.ipynb", [THEMED])
    nb.run_all()
    root = nb.output(0).locator(".sub-root")
    expect(root.locator('button[data-choice="place 1"]')).to_be_visible()
    real = nb.execute("print(len(w.actions))").stdout.strip()
    root.locator('button[data-action="what-if"]').click()
    expect(root).to_have_attribute("data-mode", "whatif")
    expect(root.locator(".dsa-mode-note")).to_contain_text("What-if")
    root.locator('button[data-choice="place 2"]').click()
    expect(root.locator('button[data-action="undo"]')).to_be_enabled()
    root.locator('button[data-action="undo"]').click()
    expect(root.locator('button[data-action="redo"]')).to_be_enabled()
    root.locator('button[data-action="back"]').click()
    expect(root).to_have_attribute("data-mode", "real")
    assert nb.execute("print(len(w.actions))").stdout.strip() == real
    # history by keys: PageUp shows the past (no legal buttons), PageDown back to live
    root.locator(".dsa-status").click()
    page.keyboard.press("PageUp")
    expect(root).to_have_attribute("data-mode", "history")
    expect(root.locator("button.sub-legal")).to_have_count(0)
    page.keyboard.press("PageDown")
    expect(root).to_have_attribute("data-mode", "real")
    # a key picks the first highlighted action
    seq = int(root.get_attribute("data-seq") or -1)
    page.keyboard.press("Enter")
    page.wait_for_function(MOVED_JS, arg=[root.element_handle(), seq], timeout=60_000)
    expect(root.locator(".dsa-log")).to_contain_text("You placed a bathyscaphe in column 1")
    console.assert_no_errors()


#: a two-player table driven (by the cell, for both seats) to the start of your turn with many
#: moves (45: three bathyscaphes under column 5), or one where you collect, paying the bot
AT_STEP = (
    "import random\n"
    "from dsa_widget.submarine.widget import Submarine\n"
    "w = Submarine(players=['You', 'Bot'], seats={{1: 'random'}}, seed=0,\n"
    "              options={{'start_player': 0}}, bot_delay=30)\n"
    "rng = random.Random(0)\n"
    "for _ in range({n}):\n"
    "    w.apply(rng.choice(w.game.legal_actions()))\n"
    "w"
)

#: every word of a button's text that the browser broke across two lines ("Pla / ce")
WORD_BREAK_JS = """(root) => {
  const broken = [];
  for (const b of root.querySelectorAll('button.sub-act')) {
    const walk = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""

#: every action button whose content is wider than the button, or sticks out of the board
OVERFLOW_JS = """(root) => {
  const edge = root.getBoundingClientRect().right;
  return [...root.querySelectorAll('button.sub-act')]
    .filter((b) => b.scrollWidth > b.clientWidth + 1 || b.getBoundingClientRect().right > edge + 1)
    .map((b) => b.textContent);
}"""


@pytest.mark.parametrize("steps,what", [(0, "place"), (10, "sail"), (278, "move"), (338, "collect")])
def test_at_700_px_the_actions_are_words_inside_their_buttons(lab, page, console, tmp_path, steps, what):
    page.set_viewport_size({"width": 700, "height": 900})
    nb = lab.open(f"submarine_700_{what}.ipynb", [AT_STEP.format(n=steps)])
    nb.run_all()
    root = nb.output(0).locator(".sub-root")
    buttons = root.locator("button.sub-act")
    expect(buttons.first).to_be_visible()
    assert root.evaluate("r => r.clientWidth") < 700
    # the prompt and every button, heading and log line in words
    status = root.locator(".dsa-status").inner_text()
    assert status.startswith("Your turn: "), status
    shown = [status, *buttons.all_inner_texts(), *root.locator(".sub-group-title").all_inner_texts()]
    shown += root.locator(".dsa-log li").all_inner_texts()
    shown += [b.get_attribute("aria-label") or "" for b in buttons.all()]
    for text in shown:
        assert text.strip() and not CODE.search(text), text
    if what == "place":  # each column's target on the surface lane, its one word whole
        expect(root.locator('button[data-choice="place 1"]')).to_have_text("Place")
        assert root.locator('button[data-action="place"]').count() == 6
    elif what == "sail":  # the targets on the surface lane, each in words for a screen reader
        expect(root.locator('button[data-choice="sail 4"]')).to_have_attribute(
            "aria-label", "Move your submarine from the start to column 4"
        )
        expect(root.locator('button[data-choice="sail end"]')).to_have_text("Sail")
    elif what == "move":
        assert buttons.count() == 45
        expect(root.locator(".sub-group-title").first).to_have_text(
            "Move the bathyscaphe at column 5, depth 1"
        )
        expect(buttons.first).to_have_text("to col 1, depth 1")
    else:
        expect(root.locator('button[data-action="collect"]').first).to_contain_text(
            "pay a red card + 2 to Bot"
        )
        expect(root.locator('button[data-action="collect"]').first).to_have_attribute(
            "aria-label",
            "Collect the red treasure 10 at column 4, depth 3, paying a red card, "
            "and 2 cards from your pile (2 to Bot)",
        )
    # nothing overflows: each button's content fits it, and the table fits the cell; a button's
    # words wrap between words, never inside one (issue 29: "Pla / ce" at 700 px)
    assert root.evaluate(OVERFLOW_JS) == []
    assert root.evaluate(WORD_BREAK_JS) == []
    assert root.evaluate("r => r.scrollWidth - r.clientWidth") <= 1
    root.screenshot(path=str(tmp_path / f"submarine-700-{what}.png"))
    print(f"\n[submarine e2e] screenshot: {tmp_path / f'submarine-700-{what}.png'}")
    # the collection row says what it is, and a key under the sea says what its marks mean
    expect(root.locator(".sub-slots-title").first).to_contain_text("Collection: ")
    # each seat's letter on the board, named in the legend and on its panel (not numbers, which
    # clash with names such as "Bot 1")
    expect(root.locator(".sub-legend")).to_contain_text("Players: A You · B Bot.")
    expect(root.locator(".sub-legend")).to_contain_text("two bathyscaphes of A")
    expect(root.locator(".sub-player h3").nth(1)).to_contain_text("B · Bot")
    # the rules primer: folded, one click away, and it stays open across a move
    primer = root.locator("details.sub-primer")
    expect(primer).not_to_have_attribute("open", "")
    primer.locator("summary").click()
    expect(primer).to_have_attribute("open", "")
    expect(primer).to_contain_text("Collect as many different treasure types")
    seq = int(root.get_attribute("data-seq") or -1)
    buttons.first.click()
    page.wait_for_function(MOVED_JS, arg=[root.element_handle(), seq], timeout=60_000)
    expect(root.locator("details.sub-primer")).to_have_attribute("open", "")
    # the own move in words (in the placement the quick bot may already have placed after it)
    lines = root.locator(".dsa-log li").all_inner_texts()[-2:]
    assert any(t.startswith(("You ", "Your ")) for t in lines), lines
    assert not any(CODE.search(t) for t in lines), lines
    console.assert_no_errors()


def test_the_past_and_a_what_if_are_framed_like_the_other_games(lab, page, console):
    """The shell's frame round the whole table (as Deep Sea Adventure and The Crew show it), not a
    dashed line round the board alone."""
    nb = lab.open("submarine_frames.ipynb", [AT_STEP.format(n=278)])
    nb.run_all()
    root = nb.output(0).locator(".sub-root")
    expect(root.locator("button.sub-act").first).to_be_visible()
    frame = "r => getComputedStyle(r).boxShadow"
    board = (
        "r => { const b = getComputedStyle(r.querySelector('.sub-board'));"
        " return [b.outlineStyle, b.backgroundColor]; }"
    )
    assert "inset" not in root.evaluate(frame)
    live_sea = root.evaluate(board)[1]
    root.locator('button[data-action="what-if"]').click()
    expect(root).to_have_class(re.compile(r"\bdsa-mode-whatif\b"))
    assert "inset" in root.evaluate(frame)
    outline, sea = root.evaluate(board)
    assert outline == "none" and sea != live_sea, (outline, sea)
    root.locator('button[data-action="back"]').click()
    expect(root).to_have_attribute("data-mode", "real")
    root.locator('button[data-action="prev"]').click()
    expect(root).to_have_class(re.compile(r"\bdsa-mode-past\b"))
    assert "inset" in root.evaluate(frame)
    outline, sea = root.evaluate(board)
    assert outline == "none" and sea != live_sea, (outline, sea)
    console.assert_no_errors()


def test_in_a_narrow_column_the_board_scrolls_inside_the_cell(lab, page, console, tmp_path):
    # found at a 600 px window (a notebook column of about 230 px): Deep Sea's and The Crew's
    # boards fit it, Submarine's eight columns stuck out of the cell by about 100 px (each
    # column keeps its whole words, so they cannot shrink further); now the board scrolls on its
    # own and everything else (hand, buttons, log) stays in the cell
    page.set_viewport_size({"width": 600, "height": 900})
    nb = lab.open("submarine_narrow.ipynb", [CELL])
    nb.run_all()
    root = nb.output(0).locator(".sub-root")
    board = root.locator(".sub-board")
    expect(board).to_be_visible()
    assert root.evaluate("r => r.clientWidth") < 400
    # the columns are all there, the board scrolls to them (once it is laid out)
    page.wait_for_function("b => b.scrollWidth > b.clientWidth", arg=board.element_handle())
    assert root.evaluate("r => r.scrollWidth - r.clientWidth") <= 1
    # a digit past the last highlighted action says why it did nothing (it said nothing)
    # (on a loaded machine a late first redraw can take the focus just after root.focus(): the
    # key is pressed again, on the board, until the board has answered it)
    error = root.locator(".dsa-error").first
    for _ in range(5):
        expect(root).not_to_have_attribute("data-pending", "1")
        root.press("9")
        try:
            expect(error).to_have_text("9: not a choice now", timeout=4000)
            break
        except AssertionError:
            continue
    expect(error).to_have_text("9: not a choice now")
    # the last column's target is reached by scrolling the board, and it plays; the board the
    # click redraws stays scrolled where it was (it jumped back to column 1 after each click)
    seq = int(root.get_attribute("data-seq"))
    root.locator('button[data-choice="place 6"]').click()
    page.wait_for_function(MOVED_JS, arg=[root.element_handle(), seq])
    expect(root.locator(".dsa-log")).to_contain_text("You placed a bathyscaphe in column 6")
    # the past and a what-if are named in the header as in every game (it said only whose turn)
    expect(root.locator(".dsa-status")).to_contain_text("Your turn")  # the bots have placed
    page.wait_for_function("(r) => !r.dataset.pending", arg=root.element_handle())
    assert root.locator(".sub-board").evaluate("b => b.scrollLeft") > 0  # after the bots' redraws too
    page.keyboard.press("PageUp")
    expect(root.locator(".dsa-status")).to_contain_text("History, step ")
    page.keyboard.press("w")
    expect(root.locator(".dsa-status")).to_contain_text("What-if — ")
    root.screenshot(path=str(tmp_path / "submarine-narrow.png"))
    print(f"\n[submarine e2e] screenshot: {tmp_path / 'submarine-narrow.png'}")
    console.assert_no_errors()
