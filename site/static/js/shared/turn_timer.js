// The turn's clock (RULES.md §8), for the table (GameManager) and the tutorial's mini-table
// (Exercise): it counts a player's seconds down, shows them through `show(secondsLeft,
// total)` (null: no clock), and calls `onExpire()` when they run out. It can be held (a
// pause, a hidden tab: a phone call must not cost an abandonment) and run on from where it
// stood.

const TICK_MS = 250;

export class TurnTimer {
  /** `show(secondsLeft | null, total)`: draw the clock; `onExpire()`: the time is up. */
  constructor({ show, onExpire }) {
    this.show = show;
    this.onExpire = onExpire;
    this.clock = null; // {total, remaining, deadline, interval} while a turn is timed
  }

  /** Whether a turn is being timed (running or held). */
  get active() {
    return this.clock !== null;
  }

  /** Time a new turn of `total` seconds (none: no clock shown); `held`: wait for run(). */
  start(total, { held = false } = {}) {
    this.stop();
    if (!total) return;
    this.clock = { total, remaining: total * 1000, deadline: null, interval: null };
    if (!held) this.run();
  }

  /** Run the clock on from where it was held (no-op if it runs or no turn is timed). */
  run() {
    const c = this.clock;
    if (!c || c.interval !== null) return;
    c.deadline = Date.now() + c.remaining;
    const tick = () => {
      const left = c.deadline - Date.now();
      this.show(left / 1000, c.total);
      if (left <= 0) {
        this.stop();
        this.onExpire();
      }
    };
    c.interval = setInterval(tick, TICK_MS);
    tick();
  }

  /** Stop the clock where it stands, to run on later. */
  hold() {
    const c = this.clock;
    if (!c || c.interval === null) return;
    clearInterval(c.interval);
    c.interval = null;
    c.remaining = Math.max(0, c.deadline - Date.now());
  }

  /** No turn is timed any more; the clock goes from the screen. */
  stop() {
    if (this.clock?.interval != null) clearInterval(this.clock.interval);
    this.clock = null;
    this.show(null);
  }
}
