"""The daily challenge's store, truco:daily (issue 45; site/static/js/table/daily.js), run under
Node on the built module like the rating's and the achievements' stores: a good record is read
back whole; an unreadable one (not JSON, not an envelope, a version this game does not know, a
newer one included, or failing its check) is set aside under truco:backup with its raw text and
said once, and an empty record is used (the page plays on: tests/browser/test_daily.py). Fuzzed:
3,000 mutated records are each refused with an Error or read back clean, stable and usable by
everything the page does with them (the streak, the dates shown, the shared text, the
achievements they give); 1,000 mutated stored texts never make the read throw."""

from __future__ import annotations


import pytest
from helpers.node import run_module_script

SCRIPT = r"""
const dir = process.argv[1];
const D = await import(dir + "/daily.js");
const A = await import(dir + "/achievements_data.js");
const { StorageManager, KEYS } = await import(dir + "/../shared/storage.js");
globalThis.document = { documentElement: { lang: "pt-BR" } }; // dateLabel's language (after i18n.js's import)
console.warn = () => {};
const out = {};
const good = {
  days: {
    "2026-12-03": { id: "a1", result: "won", us: 12, them: 6, row: "WWLTW" },
    "2026-12-04": { id: "a2", result: null },
    "2026-12-05": { id: "a3", result: "lost", us: 4, them: 12, row: "LLWL" },
  },
  current: { id: "a4", day: "2026-12-05", practice: true },
  review: { day: "2026-12-05", save: "SAVE" },
};
function fresh() {
  const storage = new StorageManager(); // no localStorage under Node: memory
  const notices = [];
  return { storage, notices, read: () => D.readRecord(storage, (e) => notices.push(e.message)) };
}
const backups = (s) => s.backupItems().filter((i) => i.from === KEYS.daily).map((i) => [i.raw, i.reason]);
// Missing: empty. Good: whole. Bad ones: set aside, said, empty.
{
  const s = fresh();
  out.missing = { value: s.read(), notices: s.notices.length };
  s.storage.write(KEYS.daily, good);
  out.good = { value: s.read(), notices: s.notices.length, kept: s.storage.getRaw(KEYS.daily) !== null };
}
out.bad = {};
for (const [name, raw] of Object.entries({
  json: "{not json", envelope: '{"days": {}}', newer: JSON.stringify({ v: 2, data: good }), older: JSON.stringify({ v: 0, data: good }),
  days: '{"v": 1, "data": {"days": ["x"]}}', badDate: JSON.stringify({ v: 1, data: { days: { "2026-02-31": { id: "x", result: null } } } }),
  year0: JSON.stringify({ v: 1, data: { ...good, review: { day: "0000-01-01", save: "S" } } }),
})) {
  const s = fresh();
  s.storage.setRaw(KEYS.daily, raw);
  const value = s.read();
  const again = s.read();
  out.bad[name] = { value, again, notices: s.notices, left: s.storage.getRaw(KEYS.daily), backup: backups(s.storage), raw };
}
// The record keeps its last 400 days (a day per challenge played), the oldest dropped.
{
  const s = fresh();
  const record = { days: {}, current: null, review: null };
  for (let i = 0; i < 450; i++) record.days[new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10)] = { id: "d" + i, result: null };
  D.DailyChallenge.prototype.write.call({ storage: s.storage }, record);
  const days = Object.keys(s.read().days).sort();
  out.kept = { n: days.length, first: days[0], last: days.at(-1) };
}

// Fuzz: random mutations of a good record; each refused with an Error or read back clean, and
// then usable by the page.
let seed = 4545;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const weird = [null, undefined, 0, -1, 1e20, NaN, 1.5, "", "x".repeat(300), true, false, [], {}, [1, 2], "12", "won", "lost", "WLT",
  "2026-12-32", "2026-02-31", "0000-01-01", "9999-12-31", "2026-12-06", { id: "z" }, { id: "z", result: "won" }, "__proto__", "\u0000"];
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
    if (how < 0.55) parent[k] = pick(weird);
    else if (how < 0.75) delete parent[k];
    else if (how < 0.85 && parent === doc.days) { parent[pick(weird)] = parent[k]; } // a day renamed
    else Object.defineProperty(parent, pick(["extra", "__proto__", "constructor", "2026-12-06"]), { value: pick(weird), enumerable: true, writable: true, configurable: true });
  }
  return doc;
}
function use(value) {
  // What the page does with a record it read (daily.js, achievements.js).
  D.streak(value.days, "2026-12-06");
  for (const [day, rec] of Object.entries(value.days)) {
    D.dateLabel(day);
    if (rec.result) D.shareText({ day, won: rec.result === "won", us: rec.us, them: rec.them, row: rec.row, practice: false, streakDays: 2, url: null });
  }
  if (value.current) D.dateLabel(value.current.day);
  if (value.review) D.dateLabel(value.review.day);
  const found = A.dailyFound(value.days);
  A.checkAchievements(A.addDaily(A.emptyAchievements(), found).record);
  for (const day of [...Object.keys(value.days), value.current?.day, value.review?.day].filter(Boolean)) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day < "1970" || Number.isNaN(Date.parse(day))) throw new Error("not a day: " + day);
    if (D.dateLabel(day).slice(-4) !== day.slice(0, 4)) throw new Error("shown as another date: " + day + " " + D.dateLabel(day));
  }
}
const tally = { refused: 0, clean: 0, other: [] };
for (let i = 0; i < 3000; i++) {
  const doc = mutate(good);
  let value;
  try { value = D.checkRecord(doc); } catch (e) {
    if (e instanceof Error && !(e instanceof TypeError) && !(e instanceof RangeError)) tally.refused++;
    else tally.other.push(String(e).slice(0, 120));
    continue;
  }
  try {
    const again = D.checkRecord(JSON.parse(JSON.stringify(value)));
    if (JSON.stringify(again) !== JSON.stringify(value)) { tally.other.push("not stable: " + JSON.stringify(doc).slice(0, 300)); continue; }
    use(value);
    tally.clean++;
  } catch (e) { tally.other.push("clean value unusable: " + e.message + " " + JSON.stringify(doc).slice(0, 300)); }
}
out.fuzz = tally;
// The stored text mutated (cut, a character changed, the version changed): the read never
// throws; a refused text is in the backup and gone from its key, an accepted one stays.
const text = JSON.stringify({ v: 1, savedAt: 5, data: good });
const raws = { thrown: [], setAside: 0, read: 0, lost: [] };
for (let i = 0; i < 1000; i++) {
  let raw = text;
  const how = rnd();
  const at = Math.floor(rnd() * raw.length);
  if (how < 0.3) raw = raw.slice(0, at);
  else if (how < 0.7) raw = raw.slice(0, at) + pick(['"', "}", "]", ",", "0", "x", "{", ":", "\\", "null"]) + raw.slice(at + 1);
  else raw = raw.replace('"v":1', `"v":${JSON.stringify(pick(weird)) ?? "null"}`);
  const s = fresh();
  s.storage.setRaw(KEYS.daily, raw);
  let value;
  try { value = s.read(); D.checkRecord(value); use(value); } catch (e) { raws.thrown.push(String(e).slice(0, 120) + " " + raw.slice(0, 200)); continue; }
  if (s.notices.length) {
    raws.setAside++;
    if (s.storage.getRaw(KEYS.daily) !== null || !backups(s.storage).some(([r]) => r === raw)) raws.lost.push(raw.slice(0, 200));
  } else {
    raws.read++;
    if (s.storage.getRaw(KEYS.daily) !== raw) raws.lost.push(raw.slice(0, 200));
  }
}
out.raws = raws;
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def node_run(dist_dir):
    return run_module_script(SCRIPT, str(dist_dir / "static" / "js" / "table"))


EMPTY = {"days": {}, "current": None, "review": None}


def test_a_good_record_is_read_back_whole(node_run):
    assert node_run["missing"] == {"value": EMPTY, "notices": 0}
    g = node_run["good"]
    assert g["notices"] == 0 and g["kept"]
    assert g["value"]["days"]["2026-12-03"] == {"id": "a1", "result": "won", "us": 12, "them": 6, "row": "WWLTW"}
    assert g["value"]["days"]["2026-12-04"] == {"id": "a2", "result": None}
    assert g["value"]["current"] == {"id": "a4", "day": "2026-12-05", "practice": True}
    assert g["value"]["review"] == {"day": "2026-12-05", "save": "SAVE"}


@pytest.mark.parametrize("name, reason", [
    ("json", "not JSON"), ("envelope", "not an envelope"), ("newer", "version 2 is newer than this game knows (1)"),
    ("older", "unknown version 0"), ("days", "days is not an object"), ("badDate", "bad day 2026-02-31"), ("year0", "bad review"),
])
def test_an_unreadable_record_is_set_aside_with_a_backup_and_said_once(node_run, name, reason):
    b = node_run["bad"][name]
    assert b["value"] == EMPTY and b["again"] == EMPTY, "an empty record: the page plays on"
    assert len(b["notices"]) == 1 and reason in b["notices"][0], b["notices"]
    assert b["left"] is None, "set aside, not read again"
    assert len(b["backup"]) == 1 and b["backup"][0][0] == b["raw"] and reason in b["backup"][0][1]


def test_the_record_keeps_its_last_400_days(node_run):
    assert node_run["kept"] == {"n": 400, "first": "2025-02-20", "last": "2026-03-26"}


def test_fuzzed_records_are_refused_with_an_error_or_read_back_clean_and_usable(node_run):
    f = node_run["fuzz"]
    assert f["other"] == [], f["other"][:5]
    assert f["refused"] > 1000 and f["clean"] > 300, f


def test_fuzzed_stored_texts_never_throw_and_nothing_is_lost(node_run):
    r = node_run["raws"]
    assert r["thrown"] == [] and r["lost"] == [], (r["thrown"][:3], r["lost"][:3])
    assert r["setAside"] > 300 and r["read"] > 50, r
