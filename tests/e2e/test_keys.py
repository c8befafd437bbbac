"""The board's keys never edit the notebook (issue 16, item 1), in a real JupyterLab / Chromium.

JupyterLab's command mode binds single letters (R turns a cell raw, A inserts a cell above,
...).  The board takes the focus when it appears and when a game starts, says whether its
keys are live, and stops every key it uses before JupyterLab sees it; any other key still
reaches the notebook.
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

    # the board's cell selected in command mode (the focus on the notebook, not the board)
    page.evaluate(SELECT_CELL_JS, 0)
    expect(root).to_have_attribute("data-keys", "off")
    expect(root.locator(".dsa-keys-state")).to_contain_text("keys off")
    assert nb.eval("w.game.step") == "'search'"
    page.keyboard.press("r")  # a board key with nothing to do now: the cell stays a code cell
    page.keyboard.press("b")  # (B would insert a cell below)
    assert cells(page) == before
    seq = root.get_attribute("data-seq")
    page.keyboard.press("n")  # ... and a legal one plays
    expect(root).not_to_have_attribute("data-seq", seq)
    assert nb.eval("w.game.current_player") == "1" and cells(page) == before

    # a key the board does not use still works for the notebook: A inserts a cell above
    root.click(position={"x": 5, "y": 5})
    expect(root).to_have_attribute("data-keys", "on")
    page.keyboard.press("a")
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.content.widgets.length === 4")
    assert [c[0] for c in cells(page)] == ["code", "code", "markdown", "code"]

    # a new game from the setup panel gives the board the focus again
    page.evaluate(SELECT_CELL_JS, 0)
    expect(root).to_have_attribute("data-keys", "off")
    root.locator("summary", has_text="New game").click()
    root.locator(".dsa-setup button", has_text="Start").click()
    expect(root).to_have_attribute("data-keys", "on")
    expect(root).to_have_attribute("data-turn", "0")
    console.assert_no_errors()
