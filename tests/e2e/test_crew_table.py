"""The Crew's table as clear as Deep Sea's (issue 29), in real JupyterLab and Chromium: the
captain's prompt on the dummy seat's turn and the dummy's card played by a click; the hand's
cards keep their places from the communicate step to the play step; an early end said once;
a card played and a trick taken animated, skipped by a click, and none with reduced motion.
Each board starts from a game played at random in Python to the moment the test needs."""

from __future__ import annotations

from playwright.sync_api import expect

#: a game played at random until ``stop(view of seat 0, game)`` (the first seed that gets there)
REACH = """
import random
from dsa_widget.crew.rules import CrewGame
from dsa_widget.crew.widget import Crew


def reach(players, stop, target=2):
    for s in range(200):
        g = CrewGame(players, seed=s, target=target)
        rng = random.Random(s)
        while not g.is_over and not stop(g.view(0).to_dict(), g):
            g.apply(rng.choice(g.legal_actions()))
        if stop(g.view(0).to_dict(), g):
            return g
    raise AssertionError("not reached")
"""

#: running script animations (not CSS ones) in the page
RUNNING_JS = """() => document.getAnimations().filter(a => !(a instanceof CSSAnimation)
  && !(a instanceof CSSTransition) && (a.playState === 'running' || a.pending)).length"""


def open_board(lab, name: str, setup: str):
    nb = lab.open(name, [REACH, setup + "\nw"])
    nb.run_all()
    root = nb.output(1).locator(".crew-root")
    expect(root).to_be_visible()
    return nb, root


def test_the_dummy_seats_turn_prompts_for_the_dummys_card_and_plays_it_by_a_click(lab, page, console):
    """R-4.7: the captain plays Tonoja's card. The prompt names Tonoja's panel, Tonoja's legal
    cards are the highlighted buttons, the captain's own hand is dimmed and says it waits."""
    nb, root = open_board(
        lab,
        "crew_dummy.ipynb",
        'g = reach(["Ann", "Bob"], lambda v, g: v["step"] == "play" and v["acting_for"] == 2'
        " and g.to_move == 0)\n"
        'w = Crew(game=g, viewer=0, seats={1: "crewmate"})\n'
        "w.paused = True",
    )
    prompt = root.locator(".crew-prompt")
    expect(prompt).to_contain_text("You play for Tonoja")
    expect(prompt).to_contain_text("Tonoja's panel")
    expect(root.locator(".crew-hand-box h3")).to_contain_text("now play Tonoja's card")
    hand = root.locator(".crew-hand button.crew-card-btn")
    assert hand.count() > 0 and root.locator(".crew-hand .crew-legal").count() == 0
    for i in range(hand.count()):
        expect(hand.nth(i)).to_have_attribute("aria-disabled", "true")
    opacity = float(hand.first.evaluate("b => getComputedStyle(b).opacity"))
    dummy = root.locator(".crew-dummy.crew-dummy-active button.crew-card-btn.crew-legal")
    expect(dummy.first).to_be_enabled()
    assert opacity < 0.5, opacity
    assert float(dummy.first.evaluate("b => getComputedStyle(b).opacity")) == 1.0
    # a card of the captain's own hand, clicked: Python says why, nothing changes
    seq = root.get_attribute("data-seq")
    hand.first.click(force=True)  # aria-disabled: it cannot go, yet a click is answered
    expect(root.locator(".dsa-error")).to_contain_text("Now you play for Tonoja")
    assert root.get_attribute("data-seq") == seq
    card = dummy.first.get_attribute("data-card")
    n = int(nb.eval("len(w.game.actions)"))
    dummy.first.click()
    expect(root.locator(f'.crew-trick .crew-play[data-seat="2"][data-card="{card}"]')).to_be_visible()
    assert nb.eval(f"w.game.actions[{n}]") == f"(0, 'play {card}')"
    console.assert_no_errors()


def card_places(root) -> dict[str, tuple[float, float]]:
    """Each hand card's place on the table (its list item's left and top from the table's: the
    layout, not the lift of a playable card nor the notebook's scrolling)."""
    return root.evaluate(
        """r => {
          const o = r.querySelector('.crew-board').getBoundingClientRect();
          return Object.fromEntries([...r.querySelectorAll('.crew-hand .crew-hand-item')].map(li => {
            const b = li.getBoundingClientRect();
            const at = [Math.round(b.left - o.left), Math.round(b.top - o.top)];
            return [li.querySelector('[data-card]').dataset.card, at];
          }));
        }"""
    )


def test_the_hand_keeps_its_layout_from_the_communicate_step_to_the_play_step(lab, page, console):
    """The communicate step adds a Show button under the cards that may be communicated: no card
    moves for it (measured before and after, at the play step)."""
    nb, root = open_board(
        lab,
        "crew_comm.ipynb",
        'g = reach(["Ann", "Bob", "Cy"], lambda v, g: v["step"] == "communicate" and g.to_move == 0'
        ' and any(a.startswith("comm ") for a in g.legal_actions()))\n'
        'w = Crew(game=g, viewer=0, seats={1: "crewmate", 2: "crewmate"}, bot_delay=0)',
    )
    expect(root.locator(".crew-comm-btn").first).to_be_visible()
    before = card_places(root)
    widths = root.evaluate(
        "r => [...r.querySelectorAll('.crew-hand .crew-hand-item')]"
        ".map(li => li.getBoundingClientRect().width)"
    )
    assert max(widths) - min(widths) < 0.5, widths  # even gaps
    root.locator('.crew-controls button[data-choice="pass"]').click()
    expect(root.locator(".crew-hand .crew-legal").first).to_be_visible(timeout=60_000)
    assert root.locator(".crew-comm-btn").count() == 0
    after = card_places(root)
    assert after == before
    console.assert_no_errors()


def test_an_early_end_is_said_once_with_its_trick(lab, page, console):
    nb, root = open_board(
        lab,
        "crew_early.ipynb",
        'g = reach(["Ann", "Bob", "Cy"], lambda v, g: g.is_over'
        ' and 0 < g.outcome.trick < v["tricks_total"])\n'
        'w = Crew(game=g, viewer=0, seats={1: "crewmate", 2: "crewmate"})',
    )
    ending = nb.eval("w.state['ending']").strip("'\"")
    trick, total = (
        int(x) for x in nb.eval("(w.game.outcome.trick, w.state['tricks_total'])").strip("()").split(",")
    )
    expect(root.locator(".crew-outcome")).to_have_text(ending)
    text = root.inner_text()
    assert text.count(f"at trick {trick} of {total}") == 1, text
    assert text.count(nb.eval("w.game.outcome.cause").strip("'\"").split()[1]) >= 1
    assert "No more tricks" not in text
    assert root.locator(".crew-trick:not(.crew-last-trick)").count() == 0
    expect(root.locator(".dsa-status")).to_have_text("Mission failed (the attempt is over)")
    console.assert_no_errors()


def test_a_card_played_and_the_trick_taken_are_animated_and_skipped_by_a_click(lab, page, console):
    """Ann plays the last card of a trick: it flies to the trick, then the trick to its winner;
    a click on the table ends both at once; with reduced motion nothing is animated."""
    nb, root = open_board(
        lab,
        "crew_anim.ipynb",
        'g = reach(["Ann", "Bob", "Cy"], lambda v, g: v["step"] == "play" and g.to_move == 0'
        ' and len((v["trick"] or {}).get("plays") or []) == 2)\n'
        'w = Crew(game=g, viewer=0, seats={1: "crewmate", 2: "crewmate"})\n'
        "w.paused = True",
    )
    # slow the page's animations down (DevTools), so that a loaded machine still sees them run
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.05})
    assert int(root.get_attribute("data-animations") or 0) == 0  # none on the first drawing
    seq = root.get_attribute("data-seq")
    root.locator(".crew-hand button.crew-card-btn.crew-legal").first.click()
    expect(root).not_to_have_attribute("data-seq", seq)
    expect(root).to_have_attribute("data-animations", "2")  # the card, then the trick taken
    assert page.evaluate(RUNNING_JS) > 0
    assert root.locator(".crew-ghost").count() == 3  # the trick's three cards fly to the winner
    root.locator(".crew-tricks").click()
    page.wait_for_function(RUNNING_JS.replace("() =>", "() => 0 ===", 1))
    expect(root.locator(".crew-ghost")).to_have_count(0)
    # reduced motion: the bots' next cards are drawn where they land, nothing moves
    page.emulate_media(reduced_motion="reduce")
    seq = root.get_attribute("data-seq")
    nb.execute("w.paused = False")
    expect(root).not_to_have_attribute("data-seq", seq)
    page.wait_for_function(
        "r => r.dataset.over === '1' || !!r.querySelector('.crew-hand .crew-legal')",
        arg=root.element_handle(),
    )
    expect(root).to_have_attribute("data-animations", "2")
    assert page.evaluate(RUNNING_JS) == 0 and root.locator(".crew-ghost").count() == 0
    console.assert_no_errors()
