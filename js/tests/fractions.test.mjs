// The chances' words and numbers of the hints (js/fractions.js): `node --test js/tests/`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { fracText, fracTitle, friendlyPct, precisePct } from "../fractions.js";

test("chances in words", () => {
  assert.equal(fracText(1, 3), "33% (1/3)");
  assert.equal(fracText(1, 1), "100%");
  assert.equal(fracText(0, 1), "0%");
  assert.equal(fracText(5, 1000), "0.5% (5/1000)");
  assert.equal(fracText(995, 1000), "99.5% (995/1000)");
  // issue 29: a long fraction is not read at a glance; the percentage is, the rest is a tooltip
  assert.equal(fracText(4699825, 4782969), "98%");
  assert.equal(fracTitle(4699825, 4782969), "exactly 4699825/4782969 (98.3%)");
  assert.equal(fracText(1, 531441), "<0.01%");
  assert.equal(fracText(6560, 6561), "99.98%");
  assert.equal(fracText("79765889463593982435328", "79766443076872509863361"), ">99.99%");
  assert.equal(fracText("553613328000", "79766443076872509863361"), "<0.01%");
  assert.equal(fracText("79766443076872509863360", "79766443076872509863361"), ">99.99%");
  assert.equal(fracText(String(2 ** 60), String(2 ** 61)), "50%");
  assert.equal(fracTitle("7", "79766443076872509863361"), "exactly 7/79766443076872509863361 (<0.000000000001%)");
  // denominators far past 10^40 (50 rolls of the dice) keep their tiny chances off 0% and 100%
  assert.equal(fracText("1", (9n ** 50n).toString()), "<0.01%");
  assert.equal(fracText((9n ** 50n - 1n).toString(), (9n ** 50n).toString()), ">99.99%");
  assert.equal(fracText((9n ** 49n).toString(), (9n ** 50n).toString()), "11%");
  assert.equal(fracText("0", (9n ** 400n).toString()), "0%");
  assert.equal(fracTitle(1, 3), null);
  assert.equal(precisePct(99.5), "99.5%");
  assert.equal(precisePct(42.25), "42.3%");
});

test("board percentages: whole near the middle, one digit of the distance near the edges", () => {
  assert.equal(friendlyPct(42.4), "42%");
  assert.equal(friendlyPct(0.53), "0.5%");
  assert.equal(friendlyPct(0.053), "0.05%");
  assert.equal(friendlyPct(0.004), "<0.01%");
  assert.equal(friendlyPct(99.47, 0.53), "99.5%");
  assert.equal(friendlyPct(99.999925, 0.000075), ">99.99%");
  assert.equal(friendlyPct(0), "0%");
  assert.equal(friendlyPct(100, 0), "100%");
  // never 0% or 100% for a chance that is neither
  for (const p of [1e-9, 0.0099, 0.5, 0.99, 1.2, 98.8, 99.01, 99.999]) {
    const t = friendlyPct(p, 100 - p);
    assert.notEqual(t, "0%");
    assert.notEqual(t, "100%");
  }
});
