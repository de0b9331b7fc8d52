// The one place where replies that come too late are dropped, at the table and in the
// tutorial's exercises (tutorial/exercise.js: one epoch per exercise). Every engine call the
// table makes, and every wait (a pause, a dialog, the host's next message), goes through a
// MatchEpoch. A new match, leaving it, another tab taking it or an engine started again (an
// exercise started again, or suspended by another) begins a new epoch (`next()`): whatever
// was asked under an earlier one is dropped, so the code after its `await` never runs and
// cannot draw, save or move in the match now in play. Nothing else counts matches.
//
// A dropped promise simply never settles (nothing holds it, so it is garbage). Code outside
// the table that must hear of it (the friends host, answering a guest) uses `strict()`,
// which rejects instead.

export class MatchChanged extends Error {
  constructor() {
    super("the match changed");
    this.name = "MatchChanged";
  }
}

export class MatchEpoch {
  /** `client`: the engine's transport (anything with `call(method, params)`). */
  constructor(client) {
    this.client = client;
    this.generation = 0;
  }

  /** From now on, everything asked before is dropped. */
  next() {
    this.generation++;
  }

  /** The engine call, through this epoch (so `engineApi(epoch)` is the table's engine). */
  call(method, params) {
    return this.keep(this.client.call(method, params));
  }

  /** A transport whose calls reject with MatchChanged once another epoch began. */
  get strictClient() {
    return { call: (method, params) => this.strict(this.client.call(method, params)) };
  }

  /** `promise` as it settles while this epoch lasts; never, once another began. */
  keep(promise) {
    const born = this.generation;
    return new Promise((resolve, reject) => {
      promise.then(
        (value) => born === this.generation && resolve(value),
        (err) => born === this.generation && reject(err),
      );
    });
  }

  /** `promise` as it settles while this epoch lasts; a MatchChanged error once another began. */
  strict(promise) {
    const born = this.generation;
    const stale = () => born !== this.generation;
    return promise.then(
      (value) => {
        if (stale()) throw new MatchChanged();
        return value;
      },
      (err) => {
        throw stale() ? new MatchChanged() : err;
      },
    );
  }

  /** Run `fn` after `ms` (0: at the next microtask) unless the epoch changed; a timer id or 0. */
  later(fn, ms) {
    const born = this.generation;
    const run = () => born === this.generation && fn();
    return ms > 0 ? setTimeout(run, ms) : (queueMicrotask(run), 0);
  }
}
