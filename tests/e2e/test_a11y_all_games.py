"""A keyboard-only, screen-reader player's look at every board on the shell, in a real JupyterLab /
Chromium (issue ux8): Deep Sea Adventure, The Crew, Submarine and Pig, hot seat with a bot seat.

For each game, with no mouse click: the curtain's Show is one Enter away; the board's one live
region (js/shell.js) says a move, a bot's move with its reason, the curtain and a refusal, each
once, and nothing when a redraw brings nothing new; after a move the focus is in the board, on
the curtain's Show button when the curtain came down, and back on the control a redraw replaced
(js/keys.js); behind the curtain nobody's hand is in the accessibility tree; in the dark theme
the board's text (the Chances panel, the setup form, the what-if and the history bar with it)
has 4.5:1 and every control's focus ring 3:1 with what it is drawn on (WCAG AA), the history
view and the setup form in the light theme too; every control is named in words (not a glyph);
with prefers-reduced-motion nothing moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from .harness import set_theme


@dataclass
class Game:
    cell: str
    root: str
    move_key: str  # the first seat's first move, by key
    named: str  # how the board's cards, tiles or scores are named to a screen reader (a regex)
    picture: str = ""  # a board drawn as one picture: the name of its words for a screen reader


def _cell(make: str) -> str:
    return f"{make}\nw.paused = True  # the bots move on S only: the test says when\nw"


GAMES = {
    "deep_sea": Game(
        _cell(
            "from dsa_widget import DeepSea\n"
            "w = DeepSea(players=['Ann', 'Bob', 'Bot'], seats={2: 'random'}, hot_seat=True, seed=3,"
            " bot_delay=30)"
        ),
        ".dsa-deep-sea",
        "r",
        r"listitem: \"?Spaces? \d+(?: to \d+)?: (?:blank|level-\d)",
        "The path in words",
    ),
    "crew": Game(
        _cell(
            "from dsa_widget.crew.widget import Crew\n"
            "w = Crew(players=['Ann', 'Bob', 'Bot'], seats={2: 'random'}, hot_seat=True, seed=3, target=1,"
            " bot_delay=30)"
        ),
        ".crew-root",
        "1",
        r'img "(?:pink|yellow|blue|green|submarine) \d"',
    ),
    "submarine": Game(
        _cell(
            "from dsa_widget.submarine.widget import Submarine\n"
            "w = Submarine(players=['Ann', 'Bob', 'Bot'], seats={2: 'random'}, hot_seat=True, seed=6,"
            " bot_delay=30)"
        ),
        ".sub-root",
        "1",
        r'img "(?:red|yellow|green|blue|purple) (?:treasure \d+|shell)"',
    ),
    "pig": Game(
        _cell(
            "from dsa_widget.pig import Pig\n"
            "w = Pig(players=['Ann', 'Bob', 'Bot'], seats={2: 'optimal'}, hot_seat=True, goal=30, seed=2,"
            " bot_delay=30)"
        ),
        ".pig-root",
        "r",
        r'img "Ann: \d+ of 30"',
    ),
}

#: the humans play their first legal choice (showing their boards) until the bot is to move
TO_THE_BOT = """
for _ in range(300):
    s = w.state
    if s['over'] or s['actor'] in s['bot_seats']:
        break
    if s.get('curtain'):
        w.handle_intent({'type': 'show_seat', 'seq': s['seq']})
    else:
        w.handle_intent({'type': 'intent', 'seq': s['seq'], 'choice': s['legal'][0]})
"""

#: every live region of the board (a region drawn anew at each redraw is read again, or never)
LIVE = "[aria-live]:not([aria-live='off']), [role='status'], [role='alert'], [role='log']"

#: what the live region says, from now on (each change of its words, in order)
LISTEN = """root => {
  const region = root.querySelector('.dsa-announce');
  window.__heard = [];
  new MutationObserver(() => window.__heard.push(region.textContent.trim()))
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""


CONTROL = re.compile(r"^\s*- '?(button|checkbox|combobox|textbox|spinbutton|slider)\b(.*)$")


def unnamed(root) -> list[str]:
    """The board's controls whose accessible name has no word in it (none, or a glyph)."""
    lines = [CONTROL.match(line) for line in root.aria_snapshot().splitlines()]
    return [m.group(0).strip() for m in lines if m and not re.search(r'"[^"]*[A-Za-z]{3}', m.group(2))]


#: a card or tile's short code as a screen reader would get it, bare ("6 Y▲" not "yellow treasure 6")
BARE_CODE = re.compile(r"^\s*- '?(?:text|cell[^:]*|listitem[^:]*): .*\d [RYGBP][●▲■◆★]", re.M)


def heard(page) -> list[str]:
    """What the live region said since the last call."""
    return page.evaluate("() => window.__heard.splice(0)")


def wait_heard(page, timeout: float = 20_000) -> list[str]:
    page.wait_for_function("() => window.__heard.length > 0", timeout=timeout)
    page.wait_for_timeout(150)  # the rest of the same change
    return heard(page)


def focus_in(root) -> str:
    """The focused element, checked to be inside the board (never <body>): its description."""
    where = root.evaluate(
        "r => { const a = document.activeElement; return [r.contains(a),"
        " a.tagName + ' ' + (a.getAttribute('data-action') || a.getAttribute('aria-label') || '')]; }"
    )
    assert where[0], f"the focus left the board: {where[1]}"
    return where[1]


def moved(page, root, seq: int) -> None:
    page.wait_for_function(
        "([r, seq]) => Number(r.dataset.seq) > seq && !r.dataset.pending",
        arg=[root.element_handle(), seq],
        timeout=30_000,
    )


#: colours in the page: rgba(css) -> [r, g, b, a] (any CSS colour, read back from a canvas),
#: ratio(a, b) -> WCAG contrast, over(top, under) -> the colour seen, bgOf(el) -> the opaque
#: colour behind el (its own and its ancestors' backgrounds, composed)
COLOURS = """
  const cv = document.createElement('canvas'); cv.width = cv.height = 1;
  const cx = cv.getContext('2d', {willReadFrequently: true});
  const rgba = c => {
    cx.clearRect(0, 0, 1, 1); cx.fillStyle = '#000'; cx.fillStyle = c; cx.fillRect(0, 0, 1, 1);
    const d = cx.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255];
  };
  const lin = v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const lum = c => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05);
  };
  const over = (top, bot) => [0, 1, 2].map(i => top[i] * top[3] + bot[i] * (1 - top[3])).concat([1]);
  const bgOf = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    return layers.reduceRight((acc, c) => over(c, acc), [255, 255, 255, 1]);
  };
"""

#: WCAG contrast of every visible text of the board (not the SVG pictures, not an inactive
#: control), its background the nearest opaque one under it: the texts under their minimum
CONTRAST = (
    "root => {"
    + COLOURS
    + """
  const low = [], seen = new Set();
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const el = walk.currentNode.parentElement, text = walk.currentNode.textContent.trim();
    if (!text || seen.has(el)) continue;
    seen.add(el);
    if (el.closest('svg, option, [disabled], [aria-disabled="true"], .dsa-sr-only')) continue;
    const cs = getComputedStyle(el);
    if (!el.getClientRects().length || cs.visibility === 'hidden') continue;
    let op = 1;
    for (let e = el; e && e !== root.parentElement; e = e.parentElement) {
      op *= Number(getComputedStyle(e).opacity);
    }
    const bg = bgOf(el), fg = rgba(cs.color), px = parseFloat(cs.fontSize);
    const large = px >= 24 || (Number(cs.fontWeight) >= 700 && px >= 18.66);
    const r = ratio(over([fg[0], fg[1], fg[2], fg[3] * op], bg), bg);
    if (r < (large ? 3 : 4.5)) low.push(`${el.className} "${text.slice(0, 30)}" ${r.toFixed(2)}`);
  }
  return low;
}"""
)

#: the focused control's ring: [style, width px, contrast, focus-visible]; the contrast is with
#: what the ring is drawn on: the control's backdrop (its parent's background, composed) for a
#: ring outside it, the control's own background for one inset into it
RING = (
    "root => {"
    + COLOURS
    + """
  const a = document.activeElement, cs = getComputedStyle(a);
  const under = parseFloat(cs.outlineOffset) >= 0 ? bgOf(a.parentElement) : bgOf(a);
  const r = ratio(rgba(cs.outlineColor), under);
  return [cs.outlineStyle, parseFloat(cs.outlineWidth), r, a.matches(':focus-visible'),
          `${cs.outlineColor} (offset ${cs.outlineOffset}) on rgb(${under.slice(0, 3).map(Math.round)})`];
}"""
)

#: every visible, enabled control of the board focused in turn: [how many took the focus, those
#: whose ring is not a solid line of 2 px or more at 3:1 with what it is drawn on (RING), or not
#: focus-visible]
RINGS = f"""root => {{
  const ring = {RING};
  const sel = 'button, summary, select, input, textarea, a[href], [tabindex]:not([tabindex="-1"])';
  const out = [];
  let checked = 0;
  for (const el of root.querySelectorAll(sel)) {{
    if (el.matches('[disabled], [aria-disabled="true"]') || !el.getClientRects().length) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    el.focus();
    if (document.activeElement !== el) continue;
    checked += 1;
    const [style, width, r, visible, colours] = ring(root);
    if (!(visible && style === 'solid' && width >= 2 && r >= 3)) {{
      out.push(`${{el.tagName}}.${{el.className}} ${{style}} ${{width}}px ${{r.toFixed(2)}}:1, ${{colours}}`);
    }}
  }}
  return [checked, out];
}}"""


def rings_shown(root, least: int = 5) -> None:
    """Every control of the board shows its focus ring (RINGS), and at least ``least`` took the
    focus (the toolbar alone has more), so that a check that reached nothing cannot pass."""
    checked, low = root.evaluate(RINGS)
    assert checked >= least and low == [], (checked, low)


#: what moves in the board (CSS animations and transitions, running or not)
MOVING = """root => [root, ...root.querySelectorAll('*')].flatMap(e => {
  const cs = getComputedStyle(e), out = [];
  const secs = v => Math.max(...v.split(',').map(parseFloat));
  if (cs.animationName !== 'none' && secs(cs.animationDuration) > 0) {
    out.push(`${e.className} animation ${cs.animationName}`);
  }
  if (cs.transitionProperty !== 'none' && secs(cs.transitionDuration) > 0) {
    out.push(`${e.className} transition`);
  }
  return out;
})"""


@pytest.mark.parametrize("name", list(GAMES))
def test_a_keyboard_and_screen_reader_player_plays_each_board(lab, page, console, name):
    g = GAMES[name]
    nb = lab.open(f"a11y_{name}.ipynb", [g.cell])
    nb.run_all()
    root = nb.output(0).locator(g.root)
    expect(root.locator(".dsa-curtain")).to_be_visible()
    # one live region, kept across redraws: the status line, the refusal line and the end are not
    assert root.evaluate(f'r => [...r.querySelectorAll("{LIVE}")].map(e => e.className)') == [
        "dsa-announce dsa-sr-only"
    ]
    root.evaluate(LISTEN)
    page.wait_for_function("r => r.contains(document.activeElement)", arg=root.element_handle())

    # the curtain: Enter shows the board (no click), and the live region says whose turn it is
    page.keyboard.press("Enter")
    expect(root.locator(".dsa-curtain")).to_have_count(0)
    assert any("turn" in w or ":" in w for w in wait_heard(page)), "the seat's turn is told"
    focus_in(root)
    assert unnamed(root) == []  # every control says what it does, in words
    tree = root.aria_snapshot()  # cards and tiles are named in words, not by their short codes
    assert re.search(g.named, tree) and not BARE_CODE.findall(tree), tree

    # a move by key: its words are told once (the log's last line), the focus stays in the board
    seq = int(root.get_attribute("data-seq"))
    page.keyboard.press(g.move_key)
    moved(page, root, seq)
    told = " ".join(wait_heard(page))
    last = root.locator(".dsa-log-list li, .dsa-shell-log li").last.inner_text().strip()
    assert last in told, (last, told)
    focus_in(root)
    if g.picture:  # the picture's words say where the diver who moved is now
        words = root.get_by_role("list", name=g.picture)
        pos = root.locator(".dsa-diver[data-seat='0']").get_attribute("data-pos")
        expect(words.get_by_role("listitem").filter(has_text="Ann (A): ")).to_contain_text(f"space {pos}")

    # a redraw with nothing new (the bots' pause switched twice) says nothing
    nb.execute("w.paused = False; w.paused = True")
    # each switch is drawn twice (the `paused` trait, then the state it publishes): the last
    # state's number on the board means both switches are drawn
    expect(root).to_have_attribute("data-seq", nb.eval("w.state['seq']"))
    assert heard(page) == []

    # a refused key says why, each time it is pressed (the same words again)
    page.keyboard.press("u")
    assert wait_heard(page) == ["U: undo is for a what-if (W opens one)"]
    page.keyboard.press("u")
    assert [w.strip() for w in wait_heard(page)] == ["U: undo is for a what-if (W opens one)"]

    # a control the focus was on keeps it when a redraw replaces it: Step back, Enter, Enter
    nb.execute(TO_THE_BOT)
    expect(root).to_have_attribute("data-seq", nb.eval("w.state['seq']"))
    root.locator("button[data-action='prev']").focus()  # as Tab would
    heard(page)
    page.keyboard.press("Enter")
    expect(root).to_have_attribute("data-mode", "history")
    assert "History, step" in " ".join(wait_heard(page))
    assert focus_in(root) == "BUTTON prev"
    page.keyboard.press("End")
    expect(root).to_have_attribute("data-mode", "real")
    heard(page)

    # the bot's move (S): told with its reason; then the curtain comes down and the focus goes
    # to its Show button; behind it nobody's hand (no card, no "Your hand") in the tree
    told = ""
    for _ in range(12):  # the bot's steps, one S each, to the end of its turn
        if nb.eval("not w.state['over'] and w.state['actor'] in w.state['bot_seats']") != "True":
            break
        seq = int(root.get_attribute("data-seq"))
        page.keyboard.press("s")
        moved(page, root, seq)
        told += " " + " ".join(wait_heard(page))
    assert "Why: " in told, told
    if nb.eval("w.state['curtain'] is not None") == "True":
        expect(root.locator(".dsa-curtain")).to_be_visible()
        assert "Pass the device to" in told
        assert focus_in(root) == "BUTTON show-seat"
        tree = root.aria_snapshot()
        assert "Your hand" not in tree and root.locator("[data-card], .sub-hand").count() == 0, tree
        page.keyboard.press("Enter")
        expect(root.locator(".dsa-curtain")).to_have_count(0)

    # the dark theme: every text of the board, the Chances panel and the setup form (opened),
    # then the what-if and the history, at 4.5:1 (3:1 large); the focus ring at 3:1
    set_theme(page, "dark")
    root.locator(".dsa-setup").evaluate("d => { d.open = true; }")
    if (
        root.locator(".dsa-chances").count()
        and root.locator(".dsa-chances").get_attribute("data-hints") == "off"
    ):
        page.keyboard.press("h")
        expect(root.locator(".dsa-chances")).to_have_attribute("data-hints", "on")
    assert root.evaluate(CONTRAST) == []
    page.keyboard.press("w")
    expect(root).to_have_attribute("data-mode", "whatif")
    assert root.evaluate(CONTRAST) == []
    assert unnamed(root) == []  # the what-if's controls (Pig's chosen faces) and the setup form
    rings_shown(root)  # every control of the what-if
    root.locator("button[data-action='back']").focus()  # not a text box: Q is a key here
    page.keyboard.press("q")
    page.keyboard.press("PageUp")
    expect(root).to_have_attribute("data-mode", "history")
    assert root.evaluate(CONTRAST) == []
    rings_shown(root)  # every control of the history view and the setup form
    set_theme(page, "light")  # the same view in the light theme: texts and rings
    assert root.evaluate(CONTRAST) == []
    rings_shown(root)

    # prefers-reduced-motion: nothing of the board moves
    page.emulate_media(reduced_motion="reduce")
    assert root.evaluate(MOVING) == []
    console.assert_no_errors()
