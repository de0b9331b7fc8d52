// One move in the engine at a time (the player's, a bot's, a sinal, a friend's, the friends
// host's seats): a move that would race another waits for the table to be free instead,
// on a promise, never on a timer.

export class OneMove {
  constructor() {
    this.current = null; // the move in the engine (its promise), or null
    this.waiting = []; // resolvers of untilFree()
  }

  get inEngine() {
    return this.current !== null;
  }

  /** Make the move `call()` (a promise of the engine's reply): its reply, or its error. */
  async run(call) {
    const work = call();
    this.current = work;
    try {
      return await work;
    } finally {
      if (this.current === work) this.current = null;
      this.freed();
    }
  }

  /** Resolves once no move is in the engine and `blocked()` (e.g. a hand's summary) is false. */
  async untilFree(blocked = () => false) {
    while (this.current || blocked()) await new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Something that kept the table busy is over: whoever waits looks again. */
  freed() {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** The table stopped: the move on its way is forgotten (its reply is dropped), the waiting look again. */
  reset() {
    this.current = null;
    this.freed();
  }
}
