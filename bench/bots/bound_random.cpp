// The hand solver of py/truco_lab/bound_random.py (best play against `random`), ported for
// speed; the Python one (solve_any) is the reference and tests/bots/test_bound_random.py
// compares the two. Reads lines
//   "seats h... we_lead kind uniform W2 W4 W6 W10 W12 L2 L4 L6 L10 L12 D"
// (seats 1 or 2, then 3 levels 0..13 a seat; kind 0 normal, 1 our mão de dez, 2 theirs,
// 3 mão de ferro; uniform 1: our team plays like random, every level kept apart) and
// prints each hand's value (before a mão de dez decision).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "bound_common.h"

static const int NLEV = 14;
static const int COUNTS[NLEV] = {3, 4, 4, 2, 4, 4, 4, 3, 4, 4, 1, 1, 1, 1};
static const int COVERED = -1;
static const int TIE = 2;  // round results: 0 us, 1 them, 2 tie
static const int US = 0, THEM = 1, NOBODY = 2;
static const int TOP = 4;  // ladder levels 0..4: 2, 4, 6, 10, 12

struct Cls { signed char lo, hi, n; };

struct St {
  signed char tag;  // 0 general, 1 third round (compressed)
  signed char h0[3], n0, h1[3], n1;
  Cls pool[NLEV]; signed char npool;
  signed char res[3], nres;
  signed char leader;
  // the round so far, summed up: the strongest class on the table, the first of our
  // seats that holds it (-1 none) and which random plays hold it (a bit per play)
  signed char ntab, best_lo, best_hi, our_first, theirs_mask;
  signed char hi, eq, lo, played, top;  // tag 1
};

static double U[2][5], UV;
static int SIZE, ours0, ours1;
static bool uniform_g, exact_g, raise_ok, covers_ok, blind_g;

static int outcome(const signed char *r, int n) { return hand_outcome_code(r, n, TIE); }

static double end_value(int winner, int lv) { return winner == 3 ? UV : U[winner][lv]; }
static bool is_ours(int pos) { return pos == ours0 || pos == ours1; }

static void partition(const signed char *levels, int nlev, const int *counts, St &s) {
  partition_levels(levels, nlev, counts, NLEV, exact_g, s);
}

static double turn(const St &s, int lv, int last);

static void put(St &t, int lo, int hi, bool ours) {  // one more card on the table
  int i = t.ntab++;
  if (i == 0 || lo > t.best_lo) {
    t.best_lo = lo; t.best_hi = hi;
    t.our_first = ours ? i : -1; t.theirs_mask = ours ? 0 : 1 << i;
  } else if (lo == t.best_lo) {
    if (ours && t.our_first < 0) t.our_first = i;
    if (!ours) t.theirs_mask |= 1 << i;
  }
}

static double request(const St &s, int asker, int lv) {
  double run = end_value(asker, lv - 1), acc = turn(s, lv, asker);
  double sum = run + acc, mx = std::max(run, acc);
  int n = 2;
  if (lv < TOP) {
    double r = request(s, 1 - asker, lv + 1);
    sum += r; mx = std::max(mx, r); n++;
  }
  if (asker == THEM && !uniform_g) return mx;
  return sum / n;
}

static double after(const St &s, int lv, int last) {
  if (s.ntab < SIZE) return turn(s, lv, last);
  St t = s;
  int mine = t.our_first, theirs[4], nth = 0;
  for (int i = 0; i < SIZE; i++) if (t.theirs_mask >> i & 1) theirs[nth++] = i;
  int r, nexts[4], nn = 0;
  if (mine >= 0 && nth) { r = TIE; nexts[nn++] = t.leader; }
  else if (mine >= 0) { r = US; nexts[nn++] = (t.leader + mine) % SIZE; }
  else if (nth == 1 || t.best_lo == t.best_hi) { r = THEM; nexts[nn++] = (t.leader + theirs[0]) % SIZE; }
  else { r = THEM; for (int i = 0; i < nth; i++) nexts[nn++] = (t.leader + theirs[i]) % SIZE; }
  t.res[t.nres++] = r;
  int out = outcome(t.res, t.nres);
  if (out >= 0) return end_value(out, lv);
  int counts[NLEV] = {0};
  for (int i = 0; i < t.npool; i++) counts[t.pool[i].lo] += t.pool[i].n;
  double v = -1e18;
  if (t.nres == 2 && !(uniform_g && covers_ok)) {
    int m = -100;
    for (int i = 0; i < t.n0; i++) m = std::max(m, (int)t.h0[i]);
    for (int i = 0; i < t.n1; i++) m = std::max(m, (int)t.h1[i]);
    St u; memset(&u, 0, sizeof u);
    u.tag = 1; u.nres = 2; u.res[0] = t.res[0]; u.res[1] = t.res[1];
    for (int i = 0; i < t.npool; i++) {
      if (t.pool[i].lo > m) u.hi += t.pool[i].n;
      else if (t.pool[i].lo == m && t.pool[i].hi == m) u.eq += t.pool[i].n;
      else u.lo += t.pool[i].n;
    }
    for (int k = 0; k < nn; k++) { u.leader = nexts[k]; v = std::max(v, turn(u, lv, last)); }
    return v;
  }
  signed char lvls[6]; int nl = 0;
  for (int i = 0; i < t.n0; i++) lvls[nl++] = t.h0[i];
  for (int i = 0; i < t.n1; i++) lvls[nl++] = t.h1[i];
  // Round 3 decides the hand, so nobody leads after it: the pool need not keep every
  // level apart any more (exact only matters for who leads the next round).
  bool keep = exact_g;
  if (t.nres == 2) exact_g = false;
  partition(lvls, nl, counts, t);
  exact_g = keep;
  t.ntab = 0; t.best_lo = t.best_hi = t.our_first = t.theirs_mask = 0;
  for (int k = 0; k < nn; k++) { t.leader = nexts[k]; v = std::max(v, turn(t, lv, last)); }
  return v;
}

static double third(const St &s, int lv, int last) {
  if (s.played == SIZE) {
    signed char r[3] = {s.res[0], s.res[1], (signed char)(s.top == 2 ? THEM : s.top == 1 ? TIE : US)};
    return end_value(outcome(r, 3), lv);
  }
  int pos = (s.leader + s.played) % SIZE;
  int team = is_ours(pos) ? US : THEM;
  bool may_raise = raise_ok && lv < TOP && last != team;
  St t = s; t.played++;
  if (team == US) {
    double here = turn(t, lv, last);
    if (may_raise) here = std::max(here, request(s, US, lv + 1));
    return here;
  }
  double total = s.hi + s.eq + s.lo, up = 0;
  if (s.hi) { St a = t; a.hi--; a.top = 2; up += s.hi * turn(a, lv, last); }
  if (s.eq) { St a = t; a.eq--; a.top = std::max((int)a.top, 1); up += s.eq * turn(a, lv, last); }
  if (s.lo) { St a = t; a.lo--; up += s.lo * turn(a, lv, last); }
  double acc = up / total;
  int n = 1;
  if (covers_ok) { acc += turn(t, lv, last); n++; }
  if (may_raise) { acc += request(s, THEM, lv + 1); n++; }
  return acc / n;
}

struct Key {
  unsigned long long a, b, c;
  bool operator==(const Key &o) const { return a == o.a && b == o.b && c == o.c; }
};
struct KeyHash {
  size_t operator()(const Key &k) const {
    unsigned long long h = k.a * 0x9E3779B97F4A7C15ULL;
    h ^= (k.b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= (k.c + 0x165667B19E3779F9ULL) * 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
  }
};
static std::unordered_map<Key, double, KeyHash> memo;

static Key key_of(const St &s, int lv, int last) {  // every field packed into 192 bits
  unsigned long long a = 0, b = 0, c = 0;
  int bits = 0;
  auto pa = [&](unsigned long long v, int n) { a |= v << bits; bits += n; };
  pa(s.tag, 1);
  for (int i = 0; i < s.nres; i++) pa(s.res[i], 2);
  pa(s.nres, 2); bits = 9;
  pa(s.leader, 2); pa(lv, 3); pa(lv == TOP ? NOBODY : last, 2);  // nobody may raise at the top
  if (s.tag == 1) {
    pa(s.hi, 6); pa(s.eq, 6); pa(s.lo, 6); pa(s.played, 3); pa(s.top, 2);
    return {a, 0, 0};
  }
  pa(s.n0, 2); for (int i = 0; i < s.n0; i++) pa(s.h0[i], 4);
  bits = 30;
  pa(s.n1, 2); for (int i = 0; i < s.n1; i++) pa(s.h1[i], 4);
  bits = 44;
  pa(s.ntab, 3); pa(s.best_lo + 1, 4); pa(s.best_hi + 1, 4); pa(s.our_first + 1, 3);
  pa(s.theirs_mask, 4);
  for (int i = 0; i < s.npool; i++) {
    b |= 1ULL << s.pool[i].lo;
    b |= 1ULL << (16 + s.pool[i].hi);
    unsigned long long n = s.pool[i].n;  // at most 34: 6 bits
    if (i < 5) b |= n << (32 + 6 * i);
    else c |= n << (6 * (i - 5));
  }
  return {a, b, c};
}

static double general(const St &s, int lv, int last) {
  int pos = (s.leader + s.ntab) % SIZE;
  int team = is_ours(pos) ? US : THEM;
  bool may_raise = raise_ok && lv < TOP && last != team;
  bool covers = covers_ok && s.nres >= 1;
  int k = 3 - s.nres;
  if (team == US) {
    bool first = pos == ours0;
    const signed char *mine = first ? s.h0 : s.h1;
    int n = first ? s.n0 : s.n1;
    double mx = -1e18, sum = 0; int cnt = 0;
    for (int i = 0; i < n; i++) {
      bool dup = false;
      for (int j = 0; j < i; j++) if (mine[j] == mine[i]) dup = true;
      if (dup) continue;
      int mult = 0;
      for (int j = 0; j < n; j++) mult += mine[j] == mine[i];
      St t = s;
      signed char *th = first ? t.h0 : t.h1;
      int w = 0;
      for (int j = 0; j < n; j++) if (j != i) th[w++] = mine[j];
      (first ? t.n0 : t.n1) = n - 1;
      St c = t;
      put(t, mine[i], mine[i], true);
      double v = after(t, lv, last);
      mx = std::max(mx, v); sum += mult * v; cnt += mult;
      if (covers) {
        put(c, COVERED, COVERED, true);
        v = after(c, lv, last);
        mx = std::max(mx, v); sum += mult * v; cnt += mult;
      }
    }
    if (may_raise) {
      double v = request(s, US, lv + 1);
      mx = std::max(mx, v); sum += v; cnt += 1;
    }
    return (uniform_g || blind_g) ? sum / cnt : mx;
  }
  double total = 0, up = 0;
  for (int i = 0; i < s.npool; i++) total += s.pool[i].n;
  for (int i = 0; i < s.npool; i++) {
    St t = s;
    int n = s.pool[i].n;
    if (n > 1) t.pool[i].n = n - 1;
    else { for (int j = i; j < t.npool - 1; j++) t.pool[j] = t.pool[j + 1]; t.npool--; }
    put(t, s.pool[i].lo, s.pool[i].hi, false);
    up += n * after(t, lv, last);
  }
  double acc = k * up / total;
  int nact = k;
  if (covers) {
    St t = s;
    put(t, COVERED, COVERED, false);
    acc += k * after(t, lv, last);
    nact += k;
  }
  if (may_raise) { acc += request(s, THEM, lv + 1); nact++; }
  return acc / nact;
}

static double turn(const St &s, int lv, int last) {
  Key k = key_of(s, lv, last);
  auto it = memo.find(k);
  if (it != memo.end()) return it->second;
  double v = s.tag == 1 ? third(s, lv, last) : general(s, lv, last);
  memo.emplace(k, v);
  return v;
}

int main() {
  int seats;
  while (scanf("%d", &seats) == 1) {
    int h[6], we_lead, kind, uni;
    for (int i = 0; i < 3 * seats; i++) if (scanf("%d", &h[i]) != 1) return 1;
    if (scanf("%d %d %d", &we_lead, &kind, &uni) != 3) return 1;
    for (int t = 0; t < 2; t++)
      for (int l = 0; l < 5; l++) if (scanf("%lf", &U[t][l]) != 1) return 1;
    if (scanf("%lf", &UV) != 1) return 1;
    SIZE = 2 * seats;
    ours0 = we_lead ? 0 : 1;
    ours1 = seats == 2 ? ours0 + 2 : -1;
    uniform_g = uni; exact_g = uni;
    raise_ok = covers_ok = kind == 0;
    blind_g = kind == 3;
    int lv0 = (kind == 1 || kind == 2) ? 1 : 0;  // a mão de dez is worth 4 (§6)
    St s; memset(&s, 0, sizeof s);
    std::sort(h, h + 3);
    if (seats == 2) std::sort(h + 3, h + 6);
    for (int i = 0; i < 3; i++) s.h0[i] = h[i];
    s.n0 = 3;
    if (seats == 2) { for (int i = 0; i < 3; i++) s.h1[i] = h[3 + i]; s.n1 = 3; }
    int counts[NLEV];
    for (int l = 0; l < NLEV; l++) counts[l] = COUNTS[l];
    for (int i = 0; i < 3 * seats; i++) counts[h[i]]--;
    signed char lvls[6];
    for (int i = 0; i < 3 * seats; i++) lvls[i] = h[i];
    partition(lvls, 3 * seats, counts, s);
    memo.clear();
    printf("%.12f\n", turn(s, lv0, NOBODY));
    fflush(stdout);
  }
  return 0;
}
