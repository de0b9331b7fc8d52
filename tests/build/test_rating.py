"""The rating's formula and its storage (issue 45; site/static/js/table/rating.js, match_log.js),
run under Node on the built modules (the page's own code, one source): the bots' ratings are
those docs/rating.md derives from the arena's win rates, the update is the documented Elo
formula on known numbers, pass-and-play rates each named person, and the stored values are
checked like the saves: mutated at random, a value is either refused with an Error or read
back clean; the history keeps within its budget, the oldest dropped first."""

from __future__ import annotations

import math
import re

import pytest

from helpers import ROOT
from helpers.node import run_module_script

SCRIPT = r"""
const dir = process.argv[1];
const R = await import(dir + "/rating.js");
const L = await import(dir + "/match_log.js");
const { StorageManager } = await import(dir + "/../shared/storage.js");
const out = {};
out.bots = R.BOT_RATINGS;
out.constants = { INITIAL: R.INITIAL, K: R.K, K_PROVISIONAL: R.K_PROVISIONAL, PROVISIONAL: R.PROVISIONAL };
const me = (rating, games) => ({ key: "", rating, games });
out.cases = {
  beatMedio: R.rateMatch([[me(1200, 0)], [{ level: "medio" }]], true),
  loseMedio: R.rateMatch([[me(1200, 0)], [{ level: "medio" }]], false),
  loseFacilSettled: R.rateMatch([[me(1500, 10)], [{ level: "facil" }]], false),
  people: R.rateMatch([[{ key: "ana", rating: 1300, games: 3 }], [{ key: "bia", rating: 1200, games: 0 }]], true),
  partner: R.rateMatch([[me(1200, 12), { level: "medio" }], [{ level: "dificil" }, { level: "dificil" }]], true),
};
out.refused = [];
for (const bad of [[[me(1200, 0)]], [[me(1200, 0)], [{ level: "expert" }]], [[], [{ level: "facil" }]]]) {
  try { R.rateMatch(bad, true); out.refused.push(null); } catch (e) { out.refused.push(e.name); }
}
try { R.rateMatch([[me(1200, 0)], [{ level: "facil" }]], "yes"); out.refused.push(null); } catch (e) { out.refused.push(e.name); }

// A store as match_store.js's, over memory (no localStorage under Node).
function fakeStore() {
  const storage = new StorageManager();
  const notices = [];
  return { storage, notices, dialogs: { notice: (text) => notices.push(text) }, loadKind: () => null };
}
const tally = (seat, name, level, mode = "1x1") => ({ id: "m1", seat, name, mode, level, series: 1 });
const entry = (won) => ({ at: 1000, won, abandoned: false, score: won ? [12, 4] : [4, 12], games: [0, 0] });
// Pass-and-play: Ana (this device, seat 0) and Bia (seat 1), 1 x 1; Ana wins.
{
  const store = fakeStore();
  const settings = { mode: "1x1", level: "medio", partner_level: "medio", humans: "01", player_name: "Ana", player_names: ["", "Bia"], preset: "mineiro" };
  const done = [[tally(0, null, "pessoas"), entry(true)], [tally(1, "Bia", "pessoas"), entry(false)]];
  L.logMatch(store, done, { settings, save: "SAVE" });
  L.logMatch(store, done, { settings, save: "SAVE" }); // the same match again: rated once
  out.passPlay = { ratings: store.storage.read(L.RATING_KEY).data, history: store.storage.read(L.HISTORY_KEY).data };
}
// 2 x 2, this device's player and Caio partners (seats 0 and 2) against difícil bots; lost.
{
  const store = fakeStore();
  const settings = { mode: "2x2", level: "dificil", partner_level: "medio", humans: "02", player_name: "", player_names: ["", "", "Caio"], preset: "mineiro" };
  L.logMatch(store, [[tally(0, null, "dificil", "2x2"), entry(false)], [tally(2, "Caio", "dificil", "2x2"), entry(false)]], { settings, save: null });
  out.partners = store.storage.read(L.RATING_KEY).data;
}
// Corrupt values: set aside with a backup, an empty one used, said once each.
{
  const store = fakeStore();
  store.storage.setRaw(L.RATING_KEY, '{"v":1,"data":{"own":{"rating":99999,"games":0,"points":[]}}}');
  store.storage.setRaw(L.HISTORY_KEY, "{not json");
  const read = L.readLog(store);
  out.corrupt = { read, notices: store.notices.length, backup: store.storage.backupItems().map((i) => i.from),
    left: [store.storage.getRaw(L.RATING_KEY), store.storage.getRaw(L.HISTORY_KEY)] };
  store.storage.setRaw(L.RATING_KEY, JSON.stringify({ v: 2, data: {} }));
  out.corrupt.newer = L.readLog(store).ratings.own.rating;
  // With statistics to make them from: made again from their recent matches, and stored.
  store.loadKind = () => ({ recent: [{ id: "a", at: 1, mode: "1x1", level: "medio", won: true, abandoned: false, score: [12, 2], games: [0, 0], series: 1 }] });
  store.storage.setRaw(L.HISTORY_KEY, '{"v":1,"data":{"matches":[{"id":"x"}]}}');
  const again = L.readLog(store);
  out.corrupt.rebuilt = { rating: again.ratings.own.rating, matches: again.history.matches.length, stored: L.readLog(store, { quiet: true }).ratings.own.rating,
    backup: store.storage.backupItems().length };
}
// The statistics' recent matches seed both (the one migration).
{
  const store = fakeStore();
  store.loadKind = () => ({ recent: [
    { id: "a", at: 1, mode: "1x1", level: "medio", won: true, abandoned: false, score: [12, 2], games: [0, 0], series: 1 },
    { id: "b", at: 2, mode: "1x1", level: "facil", won: false, abandoned: true, score: [0, 4], games: [0, 0], series: 1 },
  ] });
  const read = L.readLog(store);
  out.seeded = { rating: read.ratings.own, matches: read.history.matches.map((m) => [m.id, m.rating, m.save]), stored: store.storage.getRaw(L.HISTORY_KEY) !== null };
}

// Fuzz: random mutations of a good value; each is refused with an Error or read back clean.
let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const good = {
  ratings: { own: { rating: 1228, games: 1, points: [{ id: "m1", at: 5, r: 1228 }] }, people: { bia: { name: "Bia", rating: 1186, games: 1, points: [{ id: "m1", at: 5, r: 1186 }] } } },
  history: { matches: [{ id: "m1", at: 5, mode: "1x1", level: "medio", preset: "mineiro", series: 1, won: true, abandoned: false, score: [12, 4], games: [0, 0], people: ["", "bia"], rating: { before: 1200, after: 1228 }, save: "x" }] },
};
const weird = [null, undefined, 0, -1, 1e20, NaN, "", "x".repeat(50), true, [], {}, [1, 2], "1228", 1.5, { r: 1 }, "pessoas", "\u0000"];
function mutate(v) {
  const doc = structuredClone(v);
  const paths = [];
  (function walk(x, p) { paths.push(p); if (x && typeof x === "object") for (const k of Object.keys(x)) walk(x[k], [...p, k]); })(doc, []);
  for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) {
    const p = pick(paths);
    if (!p.length) continue;
    let parent = doc;
    for (const k of p.slice(0, -1)) parent = parent?.[k];
    if (!parent || typeof parent !== "object") continue;
    const k = p.at(-1);
    const how = rnd();
    if (how < 0.6) parent[k] = pick(weird);
    else if (how < 0.8) delete parent[k];
    else if (Array.isArray(parent[k])) parent[k].push(...parent[k]);
    else Object.defineProperty(parent, pick(["extra", "__proto__", "constructor"]), { value: pick(weird), enumerable: true, writable: true, configurable: true });
  }
  return doc;
}
out.fuzz = {};
for (const [kind, check] of [["ratings", L.checkRatings], ["history", L.checkHistory]]) {
  const tally = { refused: 0, clean: 0, other: [] };
  for (let i = 0; i < 1500; i++) {
    const doc = mutate(good[kind]);
    let value;
    try { value = check(doc); } catch (e) {
      if (e instanceof Error && !(e instanceof TypeError) && !(e instanceof RangeError)) tally.refused++;
      else tally.other.push(String(e).slice(0, 120));
      continue;
    }
    try {
      const again = check(JSON.parse(JSON.stringify(value)));
      if (JSON.stringify(again) === JSON.stringify(value)) tally.clean++;
      else tally.other.push("not stable: " + JSON.stringify(doc).slice(0, 300));
    } catch (e) { tally.other.push("clean value refused: " + e.message + " " + JSON.stringify(doc).slice(0, 300)); }
  }
  out.fuzz[kind] = tally;
}

// The budget: 70 matches with 3 kB saves → the newest that fit, at most 50.
const big = { matches: [] };
for (let i = 0; i < 70; i++) big.matches.push({ ...good.history.matches[0], id: "m" + i, at: i, save: "s".repeat(3000) });
const cut = L.withinBudget(big);
out.budget = { n: cut.matches.length, first: cut.matches[0].id, last: cut.matches.at(-1).id, size: JSON.stringify(cut).length, budget: L.HISTORY_BUDGET, max: L.HISTORY_MAX };
out.budget.oneMore = JSON.stringify({ matches: [big.matches[69 - cut.matches.length], ...cut.matches] }).length;
const small = { matches: big.matches.map((m) => ({ ...m, save: "s" })) };
out.budget.smallN = L.withinBudget(small).matches.length;
// Storage full: the history halves until it fits (a quota of 60,000 characters here), and
// nothing else is pushed out for it (the set-aside data stays).
{
  const storage = new StorageManager();
  const items = new Map();
  const size = () => [...items].reduce((n, [k, v]) => n + k.length + v.length, 0);
  storage.store = {
    getItem: (k) => items.get(k) ?? null, removeItem: (k) => items.delete(k), key: (i) => [...items.keys()][i],
    get length() { return items.size; },
    setItem(k, v) {
      const old = items.get(k);
      items.set(k, v);
      if (size() > 60_000) { if (old === undefined) items.delete(k); else items.set(k, old); throw Object.assign(new Error("full"), { name: "QuotaExceededError" }); }
    },
  };
  items.set("truco:backup", JSON.stringify({ v: 1, data: { items: [{ from: "truco:stats", reason: "x", at: 1, raw: "b".repeat(20_000) }] } }));
  const kept = L.writeHistory(storage, big);
  const stored = JSON.parse(items.get(L.HISTORY_KEY)).data.matches;
  out.full = { kept, stored: stored.length, last: stored.at(-1).id, backup: storage.backupItems().length };
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def node_run(dist_dir):
    return run_module_script(SCRIPT, str(dist_dir / "static" / "js" / "table"),
                             flags=("--experimental-default-type=module",))


def elo_d(p):
    return 400 * math.log10(p / (1 - p))


def test_the_bots_ratings_are_the_ones_docs_rating_md_derives_from_the_arena(node_run):
    doc = (ROOT / "docs" / "rating.md").read_text(encoding="utf-8")
    measured = {pair: float(p) / 100 for pair, p in re.findall(r"^\| (\w+ vs \w+) \| ([\d.]+)% \| [^|]+ \| [\d.]+ \|", doc.replace("á", "a").replace("é", "e").replace("í", "i"), re.M)}
    assert set(measured) == {"facil vs random", "medio vs facil", "dificil vs medio"}, measured
    facil = 1200
    medio = facil + elo_d(measured["medio vs facil"])
    want = {"facil": facil, "random": round(facil - elo_d(measured["facil vs random"])),
            "medio": round(medio), "dificil": round(medio + elo_d(measured["dificil vs medio"]))}
    assert node_run["bots"] == want
    for level, rating in want.items():
        assert f"**{rating}**" in doc, level
    assert node_run["constants"] == {"INITIAL": 1200, "K": 20, "K_PROVISIONAL": 40, "PROVISIONAL": 10}


def test_the_update_is_the_documented_elo_formula_on_known_numbers(node_run):
    c = node_run["cases"]
    assert c["beatMedio"] == [{"key": "", "before": 1200, "after": 1228, "delta": 28}]
    assert c["loseMedio"][0]["after"] == 1188
    assert c["loseFacilSettled"][0]["after"] == 1483  # K 20 after 10 matches, E 0.849
    assert [(x["key"], x["after"]) for x in c["people"]] == [("ana", 1314), ("bia", 1186)]
    # A médio partner: (1200 + 1346) / 2 = 1273 against 1422, E 0.2980, K 20: +14.
    assert c["partner"][0]["after"] == 1200 + round(20 * (1 - 1 / (1 + 10 ** ((1422 - 1273) / 400))))
    assert c["partner"][0]["after"] == 1214
    assert node_run["refused"] == ["ValueError"] * 4


def test_pass_and_play_rates_each_named_person_once(node_run):
    r = node_run["passPlay"]["ratings"]
    assert r["own"]["rating"] == 1200 + 20 and r["own"]["games"] == 1  # E 0.5, K 40
    assert r["people"]["bia"]["name"] == "Bia" and r["people"]["bia"]["rating"] == 1180
    assert len(r["own"]["points"]) == 1
    [m] = node_run["passPlay"]["history"]["matches"]
    assert (m["won"], m["people"], m["rating"], m["save"]) == (True, ["", "bia"], {"before": 1200, "after": 1220}, "SAVE")
    # Partners at one device against difícil bots: each against 1422, their side (1200 + 1200) / 2.
    p = node_run["partners"]
    assert p["own"]["rating"] == p["people"]["caio"]["rating"] == 1200 + round(40 * (0 - 1 / (1 + 10 ** ((1422 - 1200) / 400))))


def test_a_corrupt_or_newer_value_is_set_aside_and_made_again_from_the_statistics(node_run):
    c = node_run["corrupt"]
    assert c["read"]["bad"] is True and c["read"]["ratings"]["own"]["rating"] == 1200 and c["read"]["history"] == {"matches": []}
    assert c["notices"] == 2
    assert c["backup"] == ["truco:rating", "truco:history"]
    assert c["left"] == [None, None]
    assert c["newer"] == 1200
    # A win over médio in the statistics: 1228 again, one match (no replay), both kept aside.
    assert c["rebuilt"] == {"rating": 1228, "matches": 1, "stored": 1228, "backup": 4}


def test_the_statistics_recent_matches_seed_the_rating_and_history(node_run):
    s = node_run["seeded"]
    # A win over médio (1200 → 1228), then a loss to fácil at 1228 (E 0.540, K 40: −22).
    assert s["rating"]["rating"] == 1206 and s["rating"]["games"] == 2
    assert s["matches"][0][1] == {"before": 1200, "after": 1228}
    assert [m[0] for m in s["matches"]] == ["a", "b"] and all(m[2] is None for m in s["matches"])
    assert s["stored"] is True


def test_fuzzed_values_are_refused_with_an_error_or_read_back_clean(node_run):
    for kind, tally in node_run["fuzz"].items():
        assert tally["other"] == [], (kind, tally["other"][:5])
        assert tally["refused"] > 500 and tally["clean"] > 50, (kind, tally)


def test_the_history_keeps_within_its_budget_oldest_dropped_first(node_run):
    b = node_run["budget"]
    # The newest that fit: one older match more would not.
    assert b["size"] <= b["budget"] < b["oneMore"] and b["last"] == "m69"
    assert int(b["first"][1:]) == 70 - b["n"] and 40 < b["n"] < 50
    assert b["smallN"] == b["max"] == 50


def test_a_full_storage_keeps_the_newest_matches_that_fit(node_run):
    f = node_run["full"]
    assert f["kept"] == f["stored"] and 5 < f["stored"] < 20 and f["last"] == "m69", f
    assert f["backup"] == 1
