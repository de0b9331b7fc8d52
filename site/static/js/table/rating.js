// The local rating (issue 45): an Elo update after each match the statistics count, the
// bots at fixed ratings derived from the arena's measured win rates. Pure functions and
// data, no DOM and no storage (match_log.js keeps it, rating_view.js draws it), so the
// formula is tested under Node (tests/build/test_rating.py). How the numbers were derived:
// docs/rating.md.

/** The bots' ratings: fácil anchored at 1200, the others from the arena's 2 x 2 Mineiro
 * win rates with the Elo formula (docs/rating.md). `random` is no level of the page: it is
 * the arena's floor, kept to show the ladder. */
export const BOT_RATINGS = Object.freeze({ random: 939, facil: 1200, medio: 1346, dificil: 1422 });
/** A new player's rating: fácil's. */
export const INITIAL = 1200;
/** A rating is provisional for its first PROVISIONAL matches, which move it by up to K_PROVISIONAL. */
export const PROVISIONAL = 10;
export const K_PROVISIONAL = 40;
export const K = 20;
/** Ratings are kept between these (nothing a person can reach; a stored one outside is tampering). */
export const RATING_MIN = 100;
export const RATING_MAX = 3000;

/** The chance the Elo formula gives a side rated `a` of beating one rated `b`. */
export function expected(a, b) {
  return 1 / (1 + 10 ** ((b - a) / 400));
}

/** The K factor of a person who has played `games` rated matches before this one. */
export function kFactor(games) {
  return games < PROVISIONAL ? K_PROVISIONAL : K;
}

/** A side's rating: the mean of its seats' (a bot seat: its level's; a person: theirs). */
export function sideRating(seats) {
  if (!Array.isArray(seats) || seats.length === 0) throw new ValueError("a side has no seat");
  return seats.reduce((sum, s) => sum + seatRating(s), 0) / seats.length;
}

function seatRating(seat) {
  if (seat && typeof seat.level === "string") {
    if (!(seat.level in BOT_RATINGS)) throw new ValueError(`no rating for the level ${JSON.stringify(seat.level).slice(0, 30)}`);
    return BOT_RATINGS[seat.level];
  }
  if (seat && Number.isFinite(seat.rating)) return seat.rating;
  throw new ValueError("a seat is neither a bot level nor a rated person");
}

/**
 * One match's update. `sides` is [ours, theirs], each a list of seats: {level} for a bot,
 * {key, rating, games} for a person. `won` says whether `ours` won. Each person's new
 * rating is round(rating + K(games) × (S − E)), where E is expected(their side's rating,
 * the other side's) and S is 1 for a win, 0 for a loss. Returns [{key, before, after,
 * delta}] for the people, in the order of the seats.
 */
export function rateMatch(sides, won) {
  if (!Array.isArray(sides) || sides.length !== 2) throw new ValueError("a match has two sides");
  if (typeof won !== "boolean") throw new ValueError("won must be true or false");
  const ratings = sides.map(sideRating);
  const out = [];
  sides.forEach((seats, i) => {
    const score = (i === 0) === won ? 1 : 0;
    const e = expected(ratings[i], ratings[1 - i]);
    for (const seat of seats) {
      if (typeof seat.level === "string") continue;
      const games = Number.isSafeInteger(seat.games) && seat.games >= 0 ? seat.games : 0;
      const after = clamp(Math.round(seat.rating + kFactor(games) * (score - e)));
      out.push({ key: seat.key, before: seat.rating, after, delta: after - seat.rating });
    }
  });
  return out;
}

function clamp(r) {
  return Math.min(RATING_MAX, Math.max(RATING_MIN, r));
}

/** Whether a person's rating is still provisional after `games` rated matches. */
export function provisional(games) {
  return games < PROVISIONAL;
}

/** A bad argument, as the engine names it (docs/engine.md): the caller's mistake, said. */
export class ValueError extends Error {
  constructor(message) {
    super(message);
    this.name = "ValueError";
  }
}
