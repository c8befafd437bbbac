// The chances' words and numbers of the hints (js/fractions.js): `node --test js/tests/`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { fracText, fracTitle, precisePct } from "../fractions.js";

test("chances in words", () => {
  assert.equal(fracText(1, 3), "33% (1/3)");
  assert.equal(fracText(1, 1), "100%");
  assert.equal(fracText(0, 1), "0%");
  assert.equal(fracText(1, 531441), "<1% (1/531441)");
  assert.equal(fracText(6560, 6561), ">99% (6560/6561)");
  // beyond 10^7 (and beyond 2^53, sent as strings): a precise percentage, the exact value in a tooltip
  assert.equal(fracText("79765889463593982435328", "79766443076872509863361"), "≈ 99.99931%");
  assert.equal(fracText("553613328000", "79766443076872509863361"), "≈ 0.00000000069%");
  assert.equal(fracText("5536133", "79766443076872509863361"), "≈ <0.000000000001%");
  assert.equal(fracText("79766443076872509863360", "79766443076872509863361"), "≈ >99.999999999999%");
  assert.equal(fracText(1, 3 ** 20), "≈ 0.000000029%");
  assert.equal(fracText(String(2 ** 60), String(2 ** 61)), "≈ 50.0%");
  assert.equal(fracTitle("7", "79766443076872509863361"), "exactly 7/79766443076872509863361");
  // denominators far past 10^40 (50 rolls of the dice) keep their tiny chances
  assert.equal(fracText("1", (9n ** 50n).toString()), "≈ <0.000000000001%");
  assert.equal(fracText((9n ** 50n - 1n).toString(), (9n ** 50n).toString()), "≈ >99.999999999999%");
  assert.equal(fracText((9n ** 49n).toString(), (9n ** 50n).toString()), "≈ 11.1%");
  assert.equal(fracText("1", (9n ** 400n).toString()), "≈ <0.000000000001%");
  assert.equal(fracText("0", (9n ** 400n).toString()), "≈ 0%");
  assert.equal(fracTitle(1, 3), null);
  assert.equal(precisePct(99.5), "99.5%");
  assert.equal(precisePct(42.25), "42.3%");
});
