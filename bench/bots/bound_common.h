// What the two hand solvers (bound_passive.cpp, bound_random.cpp) share: the unseen cards
// kept as classes of levels that compare alike with the cards we still hold (see
// `partition` in py/truco_lab/bound_passive.py, the reference).
#pragma once
#include <algorithm>
#include <vector>

// Fills s.pool[0..s.npool) with (lo, hi, n): each of our levels alone, and each gap between
// two of them, with how many unseen cards (counts per level) fall in it. With `every_level`
// each level is its own class (no relaxation).
template <class State>
void partition_levels(const signed char *levels, int nlev, const int *counts, int total_levels,
                      bool every_level, State &s) {
  std::vector<int> cuts(levels, levels + nlev);
  if (every_level)
    for (int l = 0; l < total_levels; l++) cuts.push_back(l);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  s.npool = 0;
  int lo = 0;
  auto add = [&](int a, int b) {
    int n = 0;
    for (int l = a; l <= b; l++) n += counts[l];
    if (n) { s.pool[s.npool].lo = a; s.pool[s.npool].hi = b; s.pool[s.npool].n = n; s.npool++; }
  };
  for (int c : cuts) {
    if (lo <= c - 1) add(lo, c - 1);
    add(c, c);
    lo = c + 1;
  }
  if (lo <= total_levels - 1) add(lo, total_levels - 1);
}

// How a hand stands after n rounds (r: 0 us, 1 them, `tie`), RULES.md §3: 0 us, 1 them,
// 3 void, -1 not decided yet.
inline int hand_outcome_code(const signed char *r, int n, int tie) {
  if (n < 2) return -1;
  int f = r[0], s = r[1];
  if (f == tie) {
    if (s != tie) return s;
    if (n == 3) return r[2] == tie ? 3 : r[2];
    return -1;
  }
  if (s == f || s == tie) return f;
  if (n == 3) return r[2] == tie ? f : r[2];
  return -1;
}
