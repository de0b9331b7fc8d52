// The table's sounds and vibrations, made at run time: no file is downloaded (the first
// visit's byte budget and the CSP's `media-src 'none'` stay as they are). The game manager
// hands over the engine's events as they are shown (`events`) and says when it is the
// player's turn (`yourTurn`); this module turns them into:
//   - "card":    a card slapped on the felt (a play, a covered card): a filtered noise burst
//                with a low thump;
//   - "shuffle": the deal: a riffle of short noise ticks;
//   - "call:<name>": a raise (truco, seis, nove, dez, doze...): a shout-like brass stab, two
//                syllables through vowel formants, higher for each step of the ladder; where
//                the browser has a Portuguese voice the call's word is spoken too (never
//                needed: the stab is the sound);
//   - "answer:accept" / "answer:run": a rising pair of notes, or a falling sigh;
//   - vibrations (where `navigator.vibrate` exists): a tap on the player's turn, a double
//     buzz for a raise the player must answer.
// Sound and vibration follow one setting (`sound`, the table's "Som" toggle, kept in
// truco:settings): muted means silent and still. Nothing plays, or buzzes, while the tab is
// hidden. The AudioContext is made on the first touch, key or deal (the browsers' autoplay
// rules), and `navigator.audioSession.type = "ambient"` where it exists, so a phone's silent
// switch is honoured. Nothing waits for a sound: each is scheduled and forgotten.
//
// `requested` lists every sound asked of the synthesizer (and `buzzed` every vibration):
// the browser tests read them through window.__truco.sounds, since they cannot listen.

const LOG_MAX = 200;
const STEPS = { truco: 0, seis: 1, nove: 2, dez: 2, doze: 3 };
const BUZZ = { turn: [25], raise: [70, 50, 70] };
const SCHEDULE_AHEAD_MAX = 0.6; // s: sounds of one reply follow each other, never further
const IDLE_SUSPEND_MS = 5000; // a quiet table lets the audio device rest (a phone's battery)

export class TableSound {
  /**
   * @param {object} o  {isOn(): the setting, speak(name): the call's word to speak, or null}
   */
  constructor({ isOn, speakWord = null }) {
    this.isOn = isOn;
    this.speakWord = speakWord;
    this.ctx = null;
    this.noise = null;
    this.free = 0; // the context's time when the last scheduled sound has had its moment
    this.idle = null;
    this.requested = [];
    this.buzzed = [];
    try {
      if (navigator.audioSession) navigator.audioSession.type = "ambient";
    } catch {
      /* an older shape of the API: the default session */
    }
    const wake = () => this.wake();
    addEventListener("pointerdown", wake, { capture: true, passive: true });
    addEventListener("keydown", wake, { capture: true, passive: true });
    document.addEventListener("visibilitychange", () => {
      if (!this.ctx) return;
      if (document.hidden) this.ctx.suspend().catch(() => {});
      else this.wake();
    });
  }

  /** Whether nothing may sound or buzz now. */
  get silent() {
    return !this.isOn() || document.visibilityState === "hidden";
  }

  /** The AudioContext, made (or resumed) on a gesture or a deal; none while muted. */
  wake() {
    if (this.silent) return null;
    try {
      if (!this.ctx) {
        const Ctx = window.AudioContext || window.webkitAudioContext;
        if (!Ctx) return null;
        this.ctx = new Ctx({ latencyHint: "interactive" });
      }
      if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
      this.restLater(0);
    } catch {
      this.ctx = null;
    }
    return this.ctx;
  }

  /** Suspend the context once nothing has sounded for a while (`busy` s still to play). */
  restLater(busy) {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.ctx?.state === "running") this.ctx.suspend().catch(() => {});
    }, IDLE_SUSPEND_MS + busy * 1000);
  }

  /** The setting changed (the toggle): stop at once when muted. */
  setOn(on) {
    if (!this.ctx) return;
    if (on) this.wake();
    else {
      this.ctx.suspend().catch(() => {});
      globalThis.speechSynthesis?.cancel();
    }
  }

  /** The engine's new events as the table shows them; `obs` is the observation they came with. */
  events(fresh, obs) {
    for (const e of fresh) {
      switch (e.type) {
        case "deal":
          this.play("shuffle");
          break;
        case "play":
        case "cover":
          this.play("card");
          break;
        case "raise":
          this.play(`call:${e.name}`, { word: e.name });
          // Aimed at the player: the other side asked, and the player answers.
          if (e.seat % 2 !== obs.seat % 2 && obs.pending?.answerer === obs.seat) this.buzz("raise");
          break;
        case "accept":
          this.play("answer:accept");
          break;
        case "run":
          this.play("answer:run");
          break;
        default:
          break;
      }
    }
  }

  /** The player's turn (a raise to answer has buzzed already). */
  yourTurn(obs) {
    if (obs.pending?.answerer === obs.seat) return;
    this.buzz("turn");
  }

  buzz(kind) {
    if (this.silent || typeof navigator.vibrate !== "function") return;
    // Before the player's first tap (a link's autostart; an opening dealt with its "your turn")
    // the browser refuses it and says so in the console: not asked.
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
    try {
      navigator.vibrate(BUZZ[kind]);
      this.buzzed.push(kind);
      if (this.buzzed.length > LOG_MAX) this.buzzed.shift();
    } catch {
      /* refused (no user activation yet): nothing */
    }
  }

  /** Ask for one sound: recorded, then synthesized where the page can. */
  play(name, { word = null } = {}) {
    if (this.silent) return;
    this.requested.push(name);
    if (this.requested.length > LOG_MAX) this.requested.shift();
    const ctx = this.wake();
    if (!ctx) return;
    try {
      const now = ctx.currentTime + 0.01;
      const at = Math.min(Math.max(now, this.free), now + SCHEDULE_AHEAD_MAX);
      const [kind, detail] = name.split(":");
      const length = SYNTHS[kind](this, ctx, at, detail);
      this.free = at + length * 0.7;
      this.restLater(length);
      if (word && this.speakWord) this.speakWord(word);
    } catch {
      /* a browser without some node: silence, the game goes on */
    }
  }

  /** One second of white noise, made once. */
  noiseBuffer(ctx) {
    if (!this.noise) {
      const buf = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
      const data = buf.getChannelData(0);
      for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
      this.noise = buf;
    }
    return this.noise;
  }
}

// ------------------------------------------------------------------ the synthesizer
/** A gain node with an attack-decay envelope from `at`: peak `level` after `attack` s. */
function envelope(ctx, at, level, attack, decay) {
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(level, at + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, at + attack + decay);
  g.connect(ctx.destination);
  return g;
}

/** An oscillator gliding from `from` to `to` Hz over `glide` s, into `out`, for `length` s. */
function sweep(ctx, at, { type = "sine", detune = 0, from, to, glide, length, out }) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.detune.value = detune;
  osc.frequency.setValueAtTime(from, at);
  osc.frequency.exponentialRampToValueAtTime(to, at + glide);
  osc.connect(out);
  osc.start(at);
  osc.stop(at + length);
}

/** A burst of noise through a filter, into `out`. */
function noiseBurst(sound, ctx, at, { type, freq, q = 1, length, out }) {
  const src = ctx.createBufferSource();
  src.buffer = sound.noiseBuffer(ctx);
  const filter = ctx.createBiquadFilter();
  filter.type = type;
  filter.frequency.value = freq;
  filter.Q.value = q;
  src.connect(filter).connect(out);
  src.start(at, Math.random() * 0.5);
  src.stop(at + length);
}

/** A card on the felt: a papery slap and a soft thump. */
function card(sound, ctx, at) {
  noiseBurst(sound, ctx, at, { type: "bandpass", freq: 1900, q: 0.7, length: 0.12, out: envelope(ctx, at, 0.5, 0.003, 0.09) });
  sweep(ctx, at, { from: 150, to: 55, glide: 0.07, length: 0.1, out: envelope(ctx, at, 0.35, 0.004, 0.08) });
  return 0.12;
}

/** The deal: a riffle of ticks that slows down, and the deck squared on the table. */
function shuffle(sound, ctx, at) {
  let t = at;
  for (let i = 0; i < 16; i++) {
    const level = 0.12 + Math.random() * 0.12;
    noiseBurst(sound, ctx, t, { type: "highpass", freq: 2600 + Math.random() * 1400, length: 0.03, out: envelope(ctx, t, level, 0.002, 0.02) });
    t += 0.022 + i * 0.0025;
  }
  card(sound, ctx, t + 0.05);
  return t + 0.17 - at;
}

// Two vowels of a shout, "u" then "o" (formant frequencies in Hz), for every call.
const VOWELS = [[320, 800], [500, 950]];

/** A voiced syllable: two detuned saws through the vowel's formants, a brassy attack. */
function syllable(ctx, at, { freq, glide, length, vowel, level }) {
  const out = envelope(ctx, at, level, 0.025, length);
  const mix = ctx.createGain();
  mix.gain.value = 1;
  for (const [i, formant] of vowel.entries()) {
    const f = ctx.createBiquadFilter();
    f.type = "bandpass";
    f.frequency.value = formant;
    f.Q.value = 4;
    const g = ctx.createGain();
    g.gain.value = i === 0 ? 1.6 : 1;
    mix.connect(f).connect(g).connect(out);
  }
  const bright = ctx.createBiquadFilter(); // the brass: the high end opens with the attack
  bright.type = "lowpass";
  bright.frequency.setValueAtTime(500, at);
  bright.frequency.exponentialRampToValueAtTime(3200, at + 0.04);
  bright.frequency.exponentialRampToValueAtTime(900, at + length);
  bright.connect(mix);
  for (const cents of [-7, 7]) {
    sweep(ctx, at, { type: "sawtooth", detune: cents, from: freq, to: freq * glide, glide: length, length: length + 0.05, out: bright });
  }
}

/** A raise: "Tru-co!", a step higher (and longer) for each step of the ladder. */
function call(sound, ctx, at, name) {
  const step = STEPS[name] ?? 1;
  const base = 175 * 2 ** ((step * 3) / 12);
  syllable(ctx, at, { freq: base, glide: 1.05, length: 0.11, vowel: VOWELS[0], level: 0.4 });
  const second = at + 0.14;
  const hold = 0.26 + step * 0.05;
  syllable(ctx, second, { freq: base * 1.26, glide: 0.85, length: hold, vowel: VOWELS[1], level: 0.48 });
  return second + hold - at;
}

/** An answer: "accept" rises by a fourth, "run" sighs downwards. */
function answer(sound, ctx, at, kind) {
  if (kind === "run") {
    sweep(ctx, at, { type: "triangle", from: 330, to: 150, glide: 0.4, length: 0.46, out: envelope(ctx, at, 0.3, 0.03, 0.4) });
    return 0.45;
  }
  syllable(ctx, at, { freq: 220, glide: 1, length: 0.09, vowel: VOWELS[1], level: 0.4 });
  syllable(ctx, at + 0.11, { freq: 293.7, glide: 1.02, length: 0.18, vowel: VOWELS[1], level: 0.45 });
  return 0.3;
}

const SYNTHS = { card, shuffle, call, answer };

/**
 * Speak a call's word ("Truco!", said in Portuguese in every language, as on the table)
 * where the browser has a Portuguese voice; nothing elsewhere.
 */
export function speakCall(word) {
  const synth = globalThis.speechSynthesis;
  if (!synth || typeof SpeechSynthesisUtterance === "undefined") return;
  const voice = synth.getVoices().find((v) => v.lang?.toLowerCase().startsWith("pt"));
  if (!voice) return;
  const u = new SpeechSynthesisUtterance(`${word.charAt(0).toUpperCase()}${word.slice(1)}!`);
  u.voice = voice;
  u.lang = voice.lang;
  u.rate = 1.15;
  u.volume = 0.9;
  synth.cancel();
  synth.speak(u);
}
