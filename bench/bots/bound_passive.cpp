// The hand solver of py/truco_lab/bound_passive.py, ported for speed (the Python one is the
// reference; `python -m truco_lab.bound_passive --cross-check` compares the two).
// Reads lines "h0 h0 h0 h1 h1 h1 we_lead value can_raise covers blind policy W2 W4 L2 L4 D"
// on stdin (levels 0..13; policy 0 best, 1 random) and prints each hand's value.
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
static const int TIE = 2;  // results: 0 us, 1 them, 2 tie

struct Cls { signed char lo, hi, n; };
struct Play { signed char lo, hi, ours; };

struct State {
  signed char h0[3], n0, h1[3], n1;
  Cls pool[NLEV]; signed char npool;
  signed char results[3], nres;
  signed char leader;
  Play table[4]; signed char ntab;
  signed char value, can_raise;
};

static double U[5];  // W2 W4 L2 L4 D
static bool we_lead_g, covers_g, average_g, best_policy_g;
static int ours_g[2];
static std::unordered_map<std::string, double> memo;

static int outcome(const signed char *r, int n) { return hand_outcome_code(r, n, TIE); }

static double end_value(int winner, int value) {
  if (winner == 3) return U[4];
  if (winner == 0) return value == 2 ? U[0] : U[1];
  return value == 2 ? U[2] : U[3];
}

static bool is_ours(int pos) { return pos == ours_g[0] || pos == ours_g[1]; }

static void partition(const signed char *levels, int nlev, const int *counts, State &s) {
  partition_levels(levels, nlev, counts, NLEV, false, s);
}

static double third(int hi, int eq, int lo_n, const signed char *results, int leader,
                    int played, int top, int value, int can_raise) {
  if (played == 4) {
    signed char r[3] = {results[0], results[1], (signed char)(top == 2 ? 1 : top == 1 ? TIE : 0)};
    return end_value(outcome(r, 3), value);
  }
  int pos = (leader + played) % 4;
  if (is_ours(pos)) {
    double here = third(hi, eq, lo_n, results, leader, played + 1, top, value, can_raise);
    if (can_raise && best_policy_g) {
      double asked = 0.5 * end_value(0, value) +
                     0.5 * third(hi, eq, lo_n, results, leader, played + 1, top, 4, 0);
      here = std::max(here, asked);
    }
    return here;
  }
  double total = hi + eq + lo_n, acc = 0;
  if (hi) acc += hi * third(hi - 1, eq, lo_n, results, leader, played + 1, 2, value, can_raise);
  if (eq) acc += eq * third(hi, eq - 1, lo_n, results, leader, played + 1, std::max(top, 1), value, can_raise);
  if (lo_n) acc += lo_n * third(hi, eq, lo_n - 1, results, leader, played + 1, top, value, can_raise);
  return acc / total;
}

static double node(const State &s);

static double round_over(const State &s0) {
  State s = s0;
  int best = -100;
  for (int i = 0; i < 4; i++) best = std::max(best, (int)s.table[i].lo);
  int mine = -1, theirs[4], nth = 0, besthi = 0;
  bool any_mine = false;
  for (int i = 0; i < 4; i++) {
    if (s.table[i].lo != best) continue;
    if (s.table[i].ours) { if (!any_mine) mine = i; any_mine = true; }
    else { theirs[nth++] = i; besthi = s.table[i].hi; }
  }
  int res, nexts[4], nn = 0;
  if (any_mine && nth) { res = TIE; nexts[nn++] = s.leader; }
  else if (any_mine) { res = 0; nexts[nn++] = (s.leader + mine) % 4; }
  else if (nth == 1 || best == besthi) { res = 1; nexts[nn++] = (s.leader + theirs[0]) % 4; }
  else { res = 1; for (int i = 0; i < nth; i++) nexts[nn++] = (s.leader + theirs[i]) % 4; }
  s.results[s.nres++] = res;
  int out = outcome(s.results, s.nres);
  if (out >= 0) return end_value(out, s.value);
  int counts[NLEV] = {0};
  for (int i = 0; i < s.npool; i++) counts[s.pool[i].lo] += s.pool[i].n;  // classes keep their count at lo
  double v = -1e9;
  if (s.nres == 2) {
    int m = std::max(s.h0[0], s.h1[0]);
    int hi = 0, eq = 0, lo_n = 0;
    for (int i = 0; i < s.npool; i++) {
      if (s.pool[i].lo > m) hi += s.pool[i].n;
      else if (s.pool[i].lo == m && s.pool[i].hi == m) eq += s.pool[i].n;
      else lo_n += s.pool[i].n;
    }
    for (int k = 0; k < nn; k++)
      v = std::max(v, third(hi, eq, lo_n, s.results, nexts[k], 0, 0, s.value, s.can_raise));
    return v;
  }
  signed char lv[6]; int nl = 0;
  for (int i = 0; i < s.n0; i++) lv[nl++] = s.h0[i];
  for (int i = 0; i < s.n1; i++) lv[nl++] = s.h1[i];
  State t = s;
  // Re-partition: a class's cards are all counted at its low level, then merged into
  // the coarser classes of the cards we still hold (a class never straddles our levels).
  partition(lv, nl, counts, t);
  t.ntab = 0;
  for (int k = 0; k < nn; k++) {
    t.leader = nexts[k];
    v = std::max(v, node(t));
  }
  return v;
}

static std::string key_of(const State &s) {
  std::string k;
  k.reserve(64);
  k.push_back(s.n0); k.append((const char *)s.h0, s.n0);
  k.push_back(s.n1); k.append((const char *)s.h1, s.n1);
  k.push_back(s.npool); k.append((const char *)s.pool, s.npool * sizeof(Cls));
  k.push_back(s.nres); k.append((const char *)s.results, s.nres);
  k.push_back(s.leader);
  k.push_back(s.ntab); k.append((const char *)s.table, s.ntab * sizeof(Play));
  k.push_back(s.value); k.push_back(s.can_raise);
  return k;
}

static double best_of(const State &s, int pos, int value, int can_raise) {
  bool first = pos == ours_g[0];
  const signed char *mine = first ? s.h0 : s.h1;
  int n = first ? s.n0 : s.n1;
  double mx = -1e9, sum = 0; int cnt = 0;
  for (int i = 0; i < n; i++) {
    bool dup = false;
    for (int j = 0; j < i; j++) if (mine[j] == mine[i]) dup = true;
    if (dup) continue;
    State t = s;
    signed char *th = first ? t.h0 : t.h1;
    signed char &tn = first ? t.n0 : t.n1;
    int w = 0;
    for (int j = 0; j < n; j++) if (j != i) th[w++] = mine[j];
    tn = n - 1;
    t.value = value; t.can_raise = can_raise;
    t.table[t.ntab] = {mine[i], mine[i], 1}; t.ntab++;
    double v = node(t);
    int mult = 0;  // a random card of the hand: equal cards weigh as many
    for (int j = 0; j < n; j++) mult += mine[j] == mine[i];
    mx = std::max(mx, v); sum += v * mult; cnt += mult;
    if (covers_g && s.nres > 0) {
      t.table[t.ntab - 1] = {COVERED, COVERED, 1};
      mx = std::max(mx, node(t));
    }
  }
  return average_g ? sum / cnt : mx;
}

static double node(const State &s) {
  if (s.ntab == 4) return round_over(s);
  std::string k = key_of(s);
  auto it = memo.find(k);
  if (it != memo.end()) return it->second;
  int pos = (s.leader + s.ntab) % 4;
  double v;
  if (is_ours(pos)) {
    v = best_of(s, pos, s.value, s.can_raise);
    if (s.can_raise && best_policy_g)
      v = std::max(v, 0.5 * end_value(0, s.value) + 0.5 * best_of(s, pos, 4, 0));
  } else {
    double total = 0, acc = 0;
    for (int i = 0; i < s.npool; i++) total += s.pool[i].n;
    for (int i = 0; i < s.npool; i++) {
      State t = s;
      int n = s.pool[i].n;
      if (n > 1) t.pool[i].n = n - 1;
      else { for (int j = i; j < t.npool - 1; j++) t.pool[j] = t.pool[j + 1]; t.npool--; }
      t.table[t.ntab] = {s.pool[i].lo, s.pool[i].hi, 0}; t.ntab++;
      acc += n * node(t);
    }
    v = acc / total;
  }
  memo.emplace(std::move(k), v);
  return v;
}

int main() {
  int h[6], we_lead, value, can_raise, covers, blind, policy;
  while (scanf("%d %d %d %d %d %d %d %d %d %d %d %d %lf %lf %lf %lf %lf", &h[0], &h[1], &h[2],
               &h[3], &h[4], &h[5], &we_lead, &value, &can_raise, &covers, &blind, &policy,
               &U[0], &U[1], &U[2], &U[3], &U[4]) == 17) {
    we_lead_g = we_lead; covers_g = covers;
    best_policy_g = policy == 0; average_g = blind || policy == 1;
    ours_g[0] = we_lead ? 0 : 1; ours_g[1] = we_lead ? 2 : 3;
    State s; memset(&s, 0, sizeof s);
    std::sort(h, h + 3); std::sort(h + 3, h + 6);
    for (int i = 0; i < 3; i++) { s.h0[i] = h[i]; s.h1[i] = h[3 + i]; }
    s.n0 = s.n1 = 3;
    int counts[NLEV];
    for (int l = 0; l < NLEV; l++) counts[l] = COUNTS[l];
    for (int i = 0; i < 6; i++) counts[h[i]]--;
    signed char lv[6]; for (int i = 0; i < 6; i++) lv[i] = h[i];
    partition(lv, 6, counts, s);
    s.leader = 0; s.value = value; s.can_raise = can_raise;
    memo.clear();
    printf("%.10f\n", node(s));
    fflush(stdout);
  }
  return 0;
}
