"""One key map and one focus rule for the three boards (js/keys.js), in a real JupyterLab / Chromium.

For Deep Sea Adventure, The Crew and Submarine alike: the board takes the focus when it appears
and says "keys on"; while it has the focus no key edits the notebook (X would cut the widget's
cell, R make it raw, B insert a cell, M make it markdown, A insert one above, D D delete it, C/V
copy/paste, Z undo a cell operation, Shift+Enter run it again); after a click on one of its
buttons it still has the keys (Submarine redraws everything on each click); the common keys do
the same in each game (Z pauses the bots, W opens a what-if and Q leaves it, PageUp steps back
in the history and End comes back to live); Ctrl+S still saves the notebook; Escape gives the
keys back to the notebook cell, whose command mode works again.
"""

from __future__ import annotations

from dataclasses import dataclass

import nbformat
import pytest
from playwright.sync_api import expect

#: [type, source, execution count] of every cell: what a shortcut that edits the notebook changes
CELLS_JS = """() => {
  const nb = window.__dsaE2EPanel.content;
  return nb.widgets.map(c => [c.model.type, c.model.sharedModel.getSource(),
    c.model.type === 'code' ? c.model.executionCount : null]);
}"""

NB_JS = """() => {
  const panel = window.__dsaE2EPanel, nb = panel.content, a = document.activeElement;
  return {active: nb.activeCellIndex, mode: nb.mode, dirty: panel.context.model.dirty,
          inBoard: !!(a && a.closest('.dsa-root')), inNotebook: nb.node.contains(a)};
}"""

COMMON_HELP = (
    "Keys: PgUp/PgDn history · Home first step · End live · W what-if · U undo · Y redo · "
    "M keep for comparison · O bots play on · Q back to the real game · S bot move · Z pause bots · "
    "Esc release keys"
)


@dataclass
class Game:
    cell: str
    root: str  # the board root's selector
    mode_attr: str  # the root's attribute naming the view: live (or real), history, whatif
    live: str
    whatif_button: str
    move: str  # Python: one action of the real game (a bot's or the human's)


GAMES = {
    "deep_sea": Game(
        cell=(
            "from dsa_widget import DeepSea\n"
            "w = DeepSea(players=['You', 'Bot'], seats={1: 'random'}, seed=3, bot_seed=1, bot_delay=60)\n"
            "w"
        ),
        root=".dsa-deep-sea",
        mode_attr="data-mode",
        live="real",
        whatif_button="button[data-action='what-if']",
        move="w.bot_move() if w.is_bot_turn() else w.apply(w.game.legal_choices()[0])",
    ),
    "crew": Game(
        cell=(
            "from dsa_widget.crew.widget import Crew\n"
            "w = Crew(players=['You', 'Bob', 'Cy'], seats={1: 'random', 2: 'random'}, seed=3, target=1,"
            " bot_delay=60)\n"
            "w"
        ),
        root=".crew-root",
        mode_attr="data-mode",
        live="real",
        whatif_button="button[data-action='what-if']",
        move="w.bot_move() if w.is_bot_turn() else w.apply(w.game.legal_actions()[0])",
    ),
    "submarine": Game(
        cell=(
            "from dsa_widget.submarine.widget import Submarine\n"
            "w = Submarine(players=['You', 'Bot 1', 'Bot 2'], seats={1: 'random', 2: 'random'}, seed=1,"
            " bot_delay=30)\n"
            "w"
        ),
        root=".sub-root",
        mode_attr="data-mode",
        live="real",
        whatif_button="button[data-action='what-if']",
        move=(
            "w.play_bots() or w.handle_intent({'type': 'intent', 'seq': w.state['seq'],"
            " 'choice': w.state['legal'][0]})"
        ),
    ),
}

#: every key that edits a notebook in command mode, and Shift+Enter (run the cell again)
NOTEBOOK_KEYS = ["x", "r", "b", "m", "a", "d", "d", "c", "v", "z", "Shift+Enter"]


def cells(page) -> list:
    return page.evaluate(CELLS_JS)


def nb_state(page) -> dict:
    return page.evaluate(NB_JS)


def has_keys(page, root) -> None:
    expect(root).to_have_attribute("data-keys", "on")
    expect(root.locator(".dsa-keys-state")).to_have_text("⌨ keys on")
    assert nb_state(page)["inBoard"], "the focus is in the board"


@pytest.mark.parametrize("name", list(GAMES))
def test_one_key_map_and_focus_rule(lab, page, console, name):
    g = GAMES[name]
    nb = lab.open(f"keys_{name}.ipynb", [g.cell, nbformat.v4.new_markdown_cell("A note"), "x = 1"])
    # run the board's cell as a user does: click into it, Shift+Enter
    nb.cell(0).locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    root = nb.output(0).locator(g.root)
    expect(root).to_be_visible(timeout=60_000)
    # it took the focus when it appeared, and says so
    has_keys(page, root)
    expect(root).to_have_attribute("tabindex", "0")
    expect(root).to_have_attribute("data-lm-suppress-shortcuts", "true")
    expect(root.locator(".dsa-common-keys")).to_have_text(COMMON_HELP)
    before = cells(page)
    assert [c[0] for c in before] == ["code", "markdown", "code"]

    # no key reaches the notebook's shortcuts
    for key in NOTEBOOK_KEYS:
        page.keyboard.press(key)
    page.wait_for_timeout(300)  # JupyterLab's chord timer (D D) would have fired by now
    assert cells(page) == before
    expect(root).to_be_visible()
    has_keys(page, root)
    # Z pauses the bots and resumes them, the same key in every game (pressed on a human's turn:
    # a pause quotes the board's state number, which a bot's move in flight would make stale)
    nb.execute("w.paused = False")
    wait_eval(nb, "w.is_bot_turn()", "False")
    page.keyboard.press("z")
    wait_eval(nb, "w.paused", "True")
    page.keyboard.press("z")
    wait_eval(nb, "w.paused", "False")

    # a click on a board button: the board still has the keys (the button may be gone)
    root.locator(g.whatif_button).first.click()
    expect(root).to_have_attribute(g.mode_attr, "whatif")
    has_keys(page, root)
    page.keyboard.press("x")
    page.keyboard.press("a")
    assert cells(page) == before
    page.keyboard.press("q")  # Q: back to the real game
    expect(root).to_have_attribute(g.mode_attr, g.live)
    has_keys(page, root)
    # a button of the board has the focus (as after Tab): JupyterLab's ":focus" selectors would
    # match it, and still no key reaches the notebook
    root.locator("button:not([disabled])").last.focus()
    for key in ["x", "a", "m"]:
        page.keyboard.press(key)
    page.wait_for_timeout(100)
    assert cells(page) == before
    has_keys(page, root)
    page.keyboard.press("w")  # W: a what-if again, by key
    expect(root).to_have_attribute(g.mode_attr, "whatif")
    page.keyboard.press("q")
    expect(root).to_have_attribute(g.mode_attr, g.live)

    # the history: PageUp one step back, End back to live
    nb.execute("w.paused = True")
    nb.execute(g.move)
    page.keyboard.press("PageUp")
    expect(root).to_have_attribute(g.mode_attr, "history")
    page.keyboard.press("End")
    expect(root).to_have_attribute(g.mode_attr, g.live)
    has_keys(page, root)
    assert cells(page) == before

    # Ctrl+S still saves the notebook
    assert nb_state(page)["dirty"]
    page.keyboard.press("Control+s")
    page.wait_for_function("() => !window.__dsaE2EPanel.context.model.dirty", timeout=30_000)
    has_keys(page, root)

    # Escape gives the keys back to the notebook: its cell, in command mode
    page.keyboard.press("Escape")
    expect(root).to_have_attribute("data-keys", "off")
    expect(root.locator(".dsa-keys-state")).to_contain_text("keys off")
    s = nb_state(page)
    assert not s["inBoard"] and s["inNotebook"] and s["mode"] == "command" and s["active"] == 0, s
    page.keyboard.press("j")  # command mode: select the cell below
    page.wait_for_function("() => window.__dsaE2EPanel.content.activeCellIndex === 1")
    page.keyboard.press("k")
    page.wait_for_function("() => window.__dsaE2EPanel.content.activeCellIndex === 0")
    assert cells(page) == before
    # a click gives the board the keys again
    root.locator(".dsa-keys-state").click()
    has_keys(page, root)
    console.assert_no_errors()


def wait_eval(nb, expr: str, want: str, timeout: float = 10.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if nb.eval(expr) == want:
            return
        time.sleep(0.05)
    raise AssertionError(f"{expr} is {nb.eval(expr)}, not {want}")
