"""Self-contained proof that the e2e harness works (no dsa_widget import).

A tiny anywidget counter defined inline: a button whose click bumps the
synced ``value`` trait; Python answers by setting ``doubled`` (a real
kernel round trip), which the view also shows.
"""

import socket

import pytest
from playwright.sync_api import expect

from .harness import css_var, set_theme

pytestmark = pytest.mark.e2e

COUNTER_CELL = r'''
import anywidget
import traitlets


class Counter(anywidget.AnyWidget):
    _esm = """
    function render({ model, el }) {
      const btn = document.createElement("button");
      btn.className = "e2e-counter";
      const doubled = document.createElement("span");
      doubled.className = "e2e-doubled";
      const update = () => {
        btn.textContent = `count is ${model.get("value")}`;
        doubled.textContent = String(model.get("doubled"));
      };
      btn.addEventListener("click", () => {
        model.set("value", model.get("value") + 1);
        model.save_changes();
      });
      model.on("change:value", update);
      model.on("change:doubled", update);
      update();
      el.append(btn, doubled);
    }
    export default { render };
    """
    _css = ".e2e-counter { background: var(--jp-layout-color2); }"
    value = traitlets.Int(0).tag(sync=True)
    doubled = traitlets.Int(0).tag(sync=True)

    @traitlets.observe("value")
    def _on_value(self, change):
        self.doubled = 2 * change["new"]


counter = Counter(value=3)
counter
'''


def test_live_counter_roundtrip_and_theme(lab, page, console):
    nb = lab.open("smoke_counter.ipynb", [COUNTER_CELL, "print('second cell ran')"])
    state = nb.run_all()
    assert state["pending"] == 0 and state["total"] == 2

    out = nb.output(0)
    button = out.locator("button.e2e-counter")
    doubled = out.locator(".e2e-doubled")
    expect(button).to_have_text("count is 3")
    expect(doubled).to_have_text("6")
    expect(nb.output(1)).to_contain_text("second cell ran")

    # JS -> Python -> JS: the click is synced to the kernel, whose observer
    # sets `doubled`, which comes back to the view.
    button.click()
    expect(button).to_have_text("count is 4")
    expect(doubled).to_have_text("8")
    assert nb.eval("counter.value") == "4"
    assert nb.run_cell("print(counter.value, counter.doubled)")["text"].strip() == "4 8"

    # Python -> JS
    nb.execute("counter.value = 10")
    expect(button).to_have_text("count is 10")
    expect(doubled).to_have_text("20")

    light = css_var(page, "--jp-layout-color0")
    set_theme(page, "dark")
    dark = css_var(page, "--jp-layout-color0")
    assert light and dark and light != dark, (light, dark)
    assert page.evaluate("document.body.dataset.jpThemeLight") == "false"
    set_theme(page, "light")
    assert css_var(page, "--jp-layout-color0") == light

    console.assert_no_errors()


def test_static_export_renders_without_kernel(static_export, page, console):
    site = static_export.render([COUNTER_CELL], name="counter")

    button = page.locator("button.e2e-counter")
    expect(button).to_have_text("count is 3")
    expect(page.locator(".e2e-doubled")).to_have_text("6")
    assert {"requirejs", "@jupyter-widgets/html-manager", "anywidget"} <= site.served_packages(), (
        site.summary()
    )
    assert not site.version_notes, site.summary()

    # No kernel: the view still updates from its local model, but Python's
    # observer never answers.
    button.click()
    expect(button).to_have_text("count is 4")
    expect(page.locator(".e2e-doubled")).to_have_text("6")

    console.assert_no_errors()


def test_server_start_survives_a_taken_port(tmp_path, monkeypatch):
    """The port the harness chose can be taken before ``jupyter lab`` binds it (another xdist
    worker's server or kernel): the server then exits saying so, and the harness starts it
    again on a fresh port; its own base url keeps another server's answer from passing for
    its own."""
    from . import harness

    chosen: list[int] = []

    def choose() -> int:
        chosen.append(taken_port if not chosen else fresh())
        return chosen[-1]

    fresh = harness.ports.free_port
    monkeypatch.setattr(harness.ports, "free_port", choose)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        taken_port = taken.getsockname()[1]
        server = harness.JupyterServer.start(tmp_path)
    try:
        assert len(chosen) == 2 and server.port == chosen[1] != taken_port
        assert server.alive() and server.url.endswith("/") and "/lab-" in server.url
        assert "started" in server.api("GET", "api/status")
    finally:
        server.stop()
