"""The board's keys never edit the notebook (issue 16, item 1), in a real JupyterLab / Chromium.

JupyterLab's command mode binds single letters (R turns a cell raw, A inserts a cell above,
...).  The board takes the focus when it appears and when a game starts, says whether its
keys are live, and while it has the focus no key at all reaches JupyterLab (js/keys.js; the
same rule for every game: tests/e2e/test_keys_all_games.py).  When the notebook has the focus
(its cell selected in command mode, as after Escape) the keys are the notebook's again.
"""

from __future__ import annotations

import nbformat
from playwright.sync_api import expect

BOARD = "from dsa_widget import DeepSea\nw = DeepSea(players=['Ann', 'Bob'], seed=3)\nw"

CELLS_JS = """() => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  return nb.widgets.map(c => [c.model.type, c.outputArea ? c.outputArea.model.length : null]);
}"""


SELECT_CELL_JS = """(i) => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  nb.activeCellIndex = i;
  nb.mode = 'command';
  nb.node.focus();
}"""


def cells(page) -> list:
    return page.evaluate(CELLS_JS)


def test_keys_never_edit_the_notebook(lab, page, console):
    nb = lab.open("keys.ipynb", [BOARD, nbformat.v4.new_markdown_cell("A note"), "x = 1"])
    # run the board's cell as a user does: click into it, Shift+Enter
    nb.cell(0).locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    root = page.locator(".dsa-root").first
    expect(root).to_be_visible(timeout=60_000)
    expect(root).to_have_attribute("data-keys", "on")  # it took the focus when it appeared
    expect(root.locator(".dsa-keys-state")).to_have_text("⌨ keys on")
    before = cells(page)
    assert before[1][0] == "markdown" and before[0][1] == 1
    seq = root.get_attribute("data-seq")
    page.keyboard.press("r")  # the board's roll, not "make the next cell raw"
    expect(root).not_to_have_attribute("data-seq", seq)
    assert cells(page) == before

    # the board's cell selected in command mode (the focus on the notebook, not the board):
    # the keys are the notebook's, the board says so and does not play
    page.evaluate(SELECT_CELL_JS, 0)
    expect(root).to_have_attribute("data-keys", "off")
    expect(root.locator(".dsa-keys-state")).to_contain_text("keys off")
    assert nb.eval("w.game.step") == "'search'"
    seq = root.get_attribute("data-seq")
    page.keyboard.press("n")  # the board's "do nothing": not the board's now
    page.keyboard.press("j")  # the notebook's: select the cell below
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex === 1")
    assert root.get_attribute("data-seq") == seq and nb.eval("w.game.step") == "'search'"
    assert cells(page) == before

    # with the board focused again, a key it does not use does not reach the notebook either
    root.click(position={"x": 5, "y": 5})
    expect(root).to_have_attribute("data-keys", "on")
    page.keyboard.press("a")  # (A would insert a cell above)
    page.keyboard.press("n")  # the board's key plays
    expect(root).not_to_have_attribute("data-seq", seq)
    assert nb.eval("w.game.current_player") == "1" and cells(page) == before

    # a new game from the setup panel gives the board the focus again
    page.evaluate(SELECT_CELL_JS, 0)
    expect(root).to_have_attribute("data-keys", "off")
    root.locator("summary", has_text="New game").click()
    root.locator(".dsa-setup button", has_text="Start").click()
    expect(root).to_have_attribute("data-keys", "on")
    expect(root).to_have_attribute("data-turn", "0")
    console.assert_no_errors()
