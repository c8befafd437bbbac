"""A game served from a real Jupyter kernel (the server runs on the kernel's own event loop),
then the kernel is killed and restarted: ``w.serve(resume=PATH)`` goes on with the same game,
the same links and the turn under way (issue 12, "nothing lost")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import ipc_kernel
from jupyter_client.manager import KernelManager
from server_helpers import Client, marker_path


def run(kc: Any, code: str) -> str:
    """Run ``code`` in the kernel; its stdout (an error fails the test)."""
    out: list[str] = []
    errors: list[str] = []

    def hook(msg: dict[str, Any]) -> None:
        kind = msg["msg_type"]
        if kind == "stream":
            out.append(msg["content"]["text"])
        elif kind == "error":
            errors.append("\n".join(msg["content"]["traceback"]))

    reply = kc.execute_interactive(code, timeout=120, output_hook=hook)
    assert reply["content"]["status"] == "ok", "\n".join(errors)
    return "".join(out)


SETUP = {
    "players": ["Ann", "Bob", "Cy"],
    "air": 10,
    "seed": 4,
    "path": marker_path(),
    "options": {"reveal": "owner"},
}


@pytest.mark.slow
def test_kill_the_kernel_then_resume_from_the_record(tmp_path):
    path = tmp_path / "served.json"
    km = KernelManager(kernel_name="python3", **ipc_kernel(tmp_path))
    km.start_kernel(cwd=str(tmp_path))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        info = json.loads(
            run(
                kc,
                "import json\nfrom dsa_widget import DeepSea\n"
                f"w = DeepSea(**{SETUP!r}, seats={{2: 'random'}}, bot_delay=0, bot_seed=1)\n"
                f"srv = w.serve(record={str(path)!r})\n"
                "srv.table.start()\n"
                "print(json.dumps({'base': srv.base_url, 'port': srv.port,"
                " 'tokens': [srv.table.keys.seat_token(q) for q in range(3)]}))",
            )
        )
        # the kernel is idle now: its event loop serves the table between cells
        ann = Client(info["base"], info["tokens"][0])
        bob = Client(info["base"], info["tokens"][1])
        take = lambda st: "take" if "take" in st["legal"] else "none"  # noqa: E731
        for c, seat in ((ann, 0), (bob, 1)):
            c.play(seat, "roll")
            c.play(seat, take)
        ann.play(0, "continue")  # after Cy's turn (the server's bot)
        mid = ann.play(0, "roll")
        assert mid["step"] == "search" and mid["turn"] == 3  # a turn under way, dice rolled
        before = json.loads(run(kc, "print(json.dumps(w.game.state_dict()))"))
        notebook = json.loads(run(kc, "print(json.dumps(w.state))"))
        assert notebook["viewer"] is None  # the notebook's board: public only
        assert run(kc, "print(w.serving)").strip() == "True"
        ann.close()
        bob.close()

        km.restart_kernel(now=True)  # killed, as a crash would, and started again
        kc.wait_for_ready(timeout=120)
        run(
            kc,
            "from dsa_widget import DeepSea\nw = DeepSea()\n"
            f"srv = w.serve(resume={str(path)!r}, port={info['port']})",
        )
        after = json.loads(run(kc, "import json\nprint(json.dumps(w.game.state_dict()))"))
        assert after == before  # the roll under way too, with its dice
        again = Client(info["base"], info["tokens"][0])  # the same link
        st = again.state_at_least(1)
        for key in ("turn", "step", "current", "divers", "path", "air", "last_dice", "legal", "banked"):
            assert st[key] == mid[key], key
        assert st["seats"] == ["human", "human", "random"]
        again.send(
            {"type": "intent", "seq": st["seq"], "choice": "take" if "take" in st["legal"] else "none"}
        )
        assert again.state_at_least(st["seq"] + 1)["turn"] == 4
        again.close()
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
