"""The stored achievements (issue 45; site/static/js/table/achievements_data.js), run in Node:
a match counts once, the first date is kept, the daily challenge's record gives its two, and
the stored record is checked whole, fuzzed like the saves: every mutation of a good record
is either read back as a good record or refused with an Error (the page then sets it aside
with a backup), never a crash and never a value the page could not show."""

from __future__ import annotations

from pathlib import Path

import pytest

from truco.achievements import IDS
from helpers.node import run_module_script

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "site" / "static" / "js" / "table" / "achievements_data.js"

PROBE = r"""
const m = await import(process.argv[1]);
const out = {};
out.matchIds = m.MATCH_IDS;
let r = m.emptyAchievements();
let a = m.addMatch(r, ["doze", "blefe", "doze", "no_such"], "2026-12-05", "m1");
out.first = a;
out.again = m.addMatch(a.record, ["doze"], "2026-12-06", "m1"); // the same match: nothing
out.second = m.addMatch(a.record, ["doze"], "2026-12-06", "m2");
const days = {};
for (let d = 1; d <= 9; d++) days[`2026-11-${String(d).padStart(2, "0")}`] = { id: `x${d}`, result: d === 3 || d === 8 ? "won" : d === 5 ? null : "lost" };
days["2026-11-20"] = { id: "y", result: "won" };
out.dailyFound = m.dailyFound(days);
out.daily = m.addDaily(out.second.record, out.dailyFound);
out.dailyAgain = m.addDaily(out.daily.record, out.dailyFound);
out.sixDays = m.dailyFound({ "2026-12-01": {}, "2026-12-02": {}, "2026-12-03": {}, "2026-12-04": {}, "2026-12-05": {}, "2026-12-06": {} });
out.acrossMonths = m.dailyFound(Object.fromEntries(["2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02", "2027-01-03"].map((d) => [d, {}])));

// Fuzz: mutations of a good record.
let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const junk = () => pick([null, undefined, 0, -1, 1.5, 2 ** 60, "", "x", "2026-13-01", "2026-12-32", [], {}, [1], { date: "2026-12-01" }, true, "__proto__", "a".repeat(500)]);
const good = JSON.stringify(out.daily.record);
function mutate(v, depth = 0) {
  if (v && typeof v === "object" && depth < 4) {
    const keys = Object.keys(v);
    const k = keys.length ? pick(keys) : "k";
    const c = rnd();
    if (c < 0.25) delete v[k];
    else if (c < 0.5) v[k] = junk();
    else if (c < 0.6) v[pick(["x", "earned", "seen", "date", "count", "__proto__"])] = junk();
    else if (keys.length) mutate(v[k], depth + 1);
    return v;
  }
  return junk();
}
let accepted = 0, refused = 0;
const crashes = [];
for (let i = 0; i < 3000; i++) {
  const value = mutate(JSON.parse(good));
  try {
    const back = m.checkAchievements(value);
    // A record read back is one the page can show and write: checked again, unchanged.
    if (JSON.stringify(m.checkAchievements(JSON.parse(JSON.stringify(back)))) !== JSON.stringify(back)) crashes.push(["unstable", value]);
    for (const [id, e] of Object.entries(back.earned)) if (!/^\d{4}-\d{2}-\d{2}$/.test(e.date) || !(e.count >= 1)) crashes.push(["bad value", id, e]);
    accepted++;
  } catch (err) {
    if (!(err instanceof Error)) crashes.push(["not an Error", String(err)]);
    refused++;
  }
}
out.fuzz = { accepted, refused, crashes: crashes.slice(0, 5) };
out.goodBack = m.checkAchievements(JSON.parse(good));
out.unknownKept = m.checkAchievements({ earned: { later_one: { date: "2026-01-01", count: 2 } } });
out.seenCut = m.checkAchievements({ earned: {}, seen: Array.from({ length: 100 }, (_, i) => `m${i}`) }).seen.length;
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def js():
    return run_module_script(PROBE, MODULE.as_uri())


def test_the_page_knows_the_engines_achievements(js):
    assert js["matchIds"] == list(IDS)


def test_a_match_counts_once_and_the_first_date_stays(js):
    first = js["first"]
    assert first["got"] == [{"id": "doze", "first": True, "count": 1}, {"id": "blefe", "first": True, "count": 1}]
    assert first["record"]["earned"] == {"doze": {"date": "2026-12-05", "count": 1}, "blefe": {"date": "2026-12-05", "count": 1}}
    assert js["again"]["got"] == [] and js["again"]["record"] == first["record"]
    assert js["second"]["got"] == [{"id": "doze", "first": False, "count": 2}]
    assert js["second"]["record"]["earned"]["doze"] == {"date": "2026-12-05", "count": 2}


def test_the_daily_record_gives_a_win_and_seven_days_in_a_row(js):
    # Won on the 3rd, 8th and 20th; days 1-9 in a row (the 5th left unfinished still counts as played).
    assert js["dailyFound"] == {"desafio": {"date": "2026-11-03", "count": 3}, "sete_dias": {"date": "2026-11-07", "count": 1}}
    assert [g["id"] for g in js["daily"]["got"]] == ["desafio", "sete_dias"]
    assert js["dailyAgain"]["got"] == [], "nothing new: nothing told again"
    assert js["sixDays"] == {}
    assert js["acrossMonths"] == {"sete_dias": {"date": "2027-01-03", "count": 1}}


def test_the_stored_record_is_checked_whole_fuzzed(js):
    fuzz = js["fuzz"]
    assert fuzz["crashes"] == []
    assert fuzz["accepted"] > 100 and fuzz["refused"] > 1000, fuzz
    assert js["goodBack"] == js["daily"]["record"]
    assert js["unknownKept"]["earned"] == {"later_one": {"date": "2026-01-01", "count": 2}}
    assert js["seenCut"] == 60
