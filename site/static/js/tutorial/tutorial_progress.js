// The tutorial's progress in localStorage under `truco:tutorial`: per lesson, the exercises
// done right and the quiz rounds answered right. Read back validated against this build's
// lessons (an unknown lesson, exercise or quiz index is dropped; anything unreadable counts
// as no progress), written as a versioned envelope {v, savedAt, data}. Without storage
// (private mode, a blocked or full quota) progress lives for the page's life only.

export const KEY = "truco:tutorial";
const VERSION = 1;

function storage() {
  try {
    const s = window.localStorage;
    s.getItem(KEY);
    return s;
  } catch {
    return null;
  }
}

/** Keep what `raw` (the stored text) says that fits `lessons` ([{slug, exercises, quiz}]). */
export function parseProgress(raw, lessons) {
  const empty = { lessons: {}, last: null };
  if (typeof raw !== "string") return empty;
  let env;
  try {
    env = JSON.parse(raw);
  } catch {
    return empty;
  }
  if (!env || typeof env !== "object" || env.v !== VERSION || !env.data || typeof env.data !== "object") return empty;
  const stored = env.data.lessons && typeof env.data.lessons === "object" ? env.data.lessons : {};
  const out = { lessons: {}, last: null };
  for (const lesson of lessons) {
    const entry = Object.prototype.hasOwnProperty.call(stored, lesson.slug) ? stored[lesson.slug] : null;
    if (!entry || typeof entry !== "object") continue;
    const ex = Array.isArray(entry.ex) ? [...new Set(entry.ex.filter((id) => lesson.exercises.includes(id)))] : [];
    const quiz = Array.isArray(entry.quiz)
      ? [...new Set(entry.quiz.filter((i) => Number.isInteger(i) && i >= 0 && i < lesson.quiz.length))]
      : [];
    if (ex.length || quiz.length) out.lessons[lesson.slug] = { ex, quiz };
  }
  if (lessons.some((l) => l.slug === env.data.last)) out.last = env.data.last;
  return out;
}

export class Progress {
  constructor(lessons) {
    this.lessons = lessons;
    this.store = storage();
    let raw = null;
    try {
      raw = this.store ? this.store.getItem(KEY) : null;
    } catch {
      raw = null;
    }
    this.data = parseProgress(raw, lessons);
    this.persistent = this.store !== null;
  }

  entry(slug) {
    if (!this.data.lessons[slug]) this.data.lessons[slug] = { ex: [], quiz: [] };
    return this.data.lessons[slug];
  }

  save() {
    if (!this.store) return false;
    try {
      this.store.setItem(KEY, JSON.stringify({ v: VERSION, savedAt: Date.now(), data: this.data }));
      return true;
    } catch {
      return false; // full or refused: keep going in memory
    }
  }

  markExercise(slug, id) {
    const e = this.entry(slug);
    if (e.ex.includes(id)) return;
    e.ex.push(id);
    this.save();
  }

  markQuiz(slug, index) {
    const e = this.entry(slug);
    if (e.quiz.includes(index)) return;
    e.quiz.push(index);
    this.save();
  }

  setLast(slug) {
    if (this.data.last === slug) return;
    this.data.last = slug;
    this.save();
  }

  exerciseDone(slug, id) {
    return (this.data.lessons[slug]?.ex || []).includes(id);
  }

  quizDone(slug) {
    return new Set(this.data.lessons[slug]?.quiz || []);
  }

  /** {done, total} steps of a lesson (exercises + quiz rounds). */
  count(lesson) {
    const e = this.data.lessons[lesson.slug] || { ex: [], quiz: [] };
    return { done: e.ex.length + e.quiz.length, total: lesson.exercises.length + lesson.quiz.length };
  }

  complete(lesson) {
    const { done, total } = this.count(lesson);
    return done === total;
  }

  reset() {
    this.data = { lessons: {}, last: null };
    try {
      this.store?.removeItem(KEY);
    } catch {
      /* nothing to do */
    }
  }
}
