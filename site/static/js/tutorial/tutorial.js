// The rules tutorial: one lesson on screen at a time (chosen by the address's #hash), its
// live exercises and its quiz, progress kept per lesson, and the "Incorporar" dialog that
// gives the <iframe> snippet of an exercise. Lesson text and pictures are rendered by the
// build; this module brings the tables to life.
//
// The engine is not downloaded until the reader touches an exercise or a quiz (or the address
// says `engine=now`): until then each exercise shows its first position from the page's data.
// Once it has been started, a lesson opened starts its first exercise not done yet, as before.

import { applyStoredDeckColours } from "../shared/cards.js";
import { connectEngine } from "../engine/engine_status.js";
import { Exercise } from "./exercise.js";
import { t } from "../shared/i18n.js";
import { Quiz } from "./quiz.js";
import { Progress } from "./tutorial_progress.js";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

const data = JSON.parse($("#tutorial-data").textContent);
const lessons = data.lessons;
const params = new URLSearchParams(location.search);
const fast = params.get("fast") === "1";
applyStoredDeckColours();
const engine = connectEngine($("#engine-status"));
if (params.get("engine") === "now") engine.start();
const progress = new Progress(lessons);
const exercises = new Map(); // id -> Exercise
const quizzes = new Map(); // slug -> Quiz
let current = null;

document.documentElement.classList.add("js");

/** Smooth scrolling, unless the system asks for less motion. */
function smoothScroll() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}

function lessonBySlug(slug) {
  return lessons.find((l) => l.slug === slug) || null;
}

function firstOpenLesson() {
  return lessons.find((l) => !progress.complete(l)) || lessons[0];
}

// ------------------------------------------------------------------ progress on screen
function renderProgress() {
  let complete = 0;
  for (const lesson of lessons) {
    const { done, total } = progress.count(lesson);
    const state = done === total ? "done" : done > 0 ? "partial" : "new";
    if (state === "done") complete++;
    const link = $(`.tut-toc a[data-lesson="${lesson.slug}"]`);
    if (link) {
      link.dataset.state = state;
      const label = state === "done" ? t("tutorial.state.done") : state === "partial"
        ? t("tutorial.state.partial", { done, total }) : t("tutorial.state.new");
      $(".toc-state", link).textContent = label;
    }
    const article = document.getElementById(lesson.slug);
    if (article) {
      article.dataset.state = state;
      const count = $(".lesson-count", article);
      if (count) count.textContent = t("tutorial.lesson.count", { done, total });
      for (const id of lesson.exercises) {
        const badge = $(`#ex-${id} .ex-done`);
        if (badge) badge.hidden = !progress.exerciseDone(lesson.slug, id);
      }
    }
  }
  const box = $("#tut-progress");
  box.textContent = t("tutorial.progress", { done: complete, total: lessons.length });
  const bar = $("#tut-progress-bar");
  if (bar) {
    bar.value = complete;
    bar.max = lessons.length;
  }
  document.documentElement.dataset.lessonsDone = String(complete);
}

// ------------------------------------------------------------------ one lesson on screen
/**
 * A lesson's body, built when the lesson is first opened: the page holds every lesson but
 * the first in a <noscript>, one string while scripts run (see tutorial.html), so the page
 * starts with one lesson's elements instead of all twelve. Returns whether it was built now.
 */
function materialize(article) {
  const kept = article?.querySelector(":scope > noscript.lesson-body");
  if (!kept) return false;
  const tpl = document.createElement("template");
  tpl.innerHTML = kept.textContent;
  kept.replaceWith(tpl.content);
  delete article.dataset.deferred;
  return true;
}

/** The lesson holding the element `id` (a heading, a quiz), built or not; null if none. */
function lessonHolding(id) {
  const el = document.getElementById(id);
  const built = el?.closest(".lesson");
  if (built) return lessonBySlug(built.id);
  const needle = `id="${id.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`;
  const kept = $$(".lesson > noscript.lesson-body").find((ns) => ns.textContent.includes(needle));
  return kept ? lessonBySlug(kept.parentElement.id) : null;
}

function setupLesson(lesson) {
  const article = document.getElementById(lesson.slug);
  for (const id of lesson.exercises) {
    if (exercises.has(id)) continue;
    const section = document.getElementById(`ex-${id}`);
    const host = $(".ex-host", section);
    const ex = data.exercises[id];
    exercises.set(id, new Exercise(host, ex, engine, {
      fast,
      label: ex.title,
      onResult: (verdict) => {
        section.dataset.verdict = verdict;
        if (verdict === "right") {
          progress.markExercise(lesson.slug, id);
          renderProgress();
        }
      },
      onEmbed: openEmbed,
      onNext: () => goNext(lesson, id),
    }));
  }
  if (!quizzes.has(lesson.slug)) {
    const host = $(".quiz-host", article);
    quizzes.set(lesson.slug, new Quiz(host, lesson.quiz, engine, {
      done: progress.quizDone(lesson.slug),
      manilhaNames: data.manilha_names?.[lesson.quiz[0]?.preset || "mineiro"] || data.manilha_names?.mineiro || [],
      onRight: (index) => {
        progress.markQuiz(lesson.slug, index);
        renderProgress();
      },
    }));
  }
}

/** After an exercise done right: the lesson's next exercise, or its quiz. */
function goNext(lesson, id) {
  const i = lesson.exercises.indexOf(id);
  const nextId = lesson.exercises[i + 1];
  if (nextId) {
    const section = document.getElementById(`ex-${nextId}`);
    section.scrollIntoView({ behavior: smoothScroll(), block: "start" });
    exercises.get(nextId).start({ focus: true });
  } else {
    const quiz = $(`#quiz-${lesson.slug}-title`);
    quiz.setAttribute("tabindex", "-1");
    quiz.scrollIntoView({ behavior: smoothScroll(), block: "start" });
    quiz.focus({ preventScroll: true });
  }
}

function show(slug, { focus = false } = {}) {
  const lesson = lessonBySlug(slug) || firstOpenLesson();
  if (current === lesson.slug) return;
  current = lesson.slug;
  for (const article of $$(".lesson")) article.hidden = article.id !== lesson.slug;
  for (const link of $$(".tut-toc a[data-lesson]")) {
    if (link.dataset.lesson === lesson.slug) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  // On a phone the list is a row of numbers: bring the current one into view.
  const list = $(".toc-list");
  const link = $(`.tut-toc a[data-lesson="${lesson.slug}"]`);
  if (list && link && list.scrollWidth > list.clientWidth) {
    const a = link.getBoundingClientRect();
    const b = list.getBoundingClientRect();
    list.scrollLeft += a.left - b.left - (b.width - a.width) / 2;
  }
  $(".tut-intro").hidden = lesson.n !== 1;
  document.title = `${lesson.title} — ${t("tutorial.title")}`;
  progress.setLast(lesson.slug);
  if (materialize(document.getElementById(lesson.slug))) renderProgress(); // its badges
  if (Exercise.active && !lesson.exercises.includes(Exercise.active.ex.id)) Exercise.active.suspend();
  setupLesson(lesson);
  // Once the engine was started, the first exercise not done yet starts by itself (from its
  // first position on screen; the others wait for a move or "Começar").
  const next = lesson.exercises.find((id) => !progress.exerciseDone(lesson.slug, id)) || lesson.exercises[0];
  const ex = exercises.get(next);
  const live = engine.started && engine.state !== "failed";
  if (ex && live && ex.state === "idle") ex.start();
  else if (ex && live && ex.state === "preview") ex.start({ quiet: true });
  if (focus) {
    const h = $(`#${lesson.slug}-title`);
    h?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }
}

/** The address's #fragment, decoded; a malformed one (#%E0%A4%A) names no lesson. */
function hashSlug() {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return "";
  }
}

function route({ focus = false } = {}) {
  const slug = hashSlug();
  if (slug && !lessonBySlug(slug)) {
    // An anchor inside a lesson (an exercise's #ex-id, a quiz) opens its lesson, then goes there.
    const id = slug.startsWith("ex-") ? slug.slice(3) : null;
    const owner = id && Object.hasOwn(data.exercises, id) ? data.exercises[id].lesson : lessonHolding(slug)?.slug;
    show(owner || progress.data.last || firstOpenLesson().slug, { focus });
    if (owner) document.getElementById(slug)?.scrollIntoView();
    return;
  }
  show(slug || progress.data.last || firstOpenLesson().slug, { focus });
}

window.addEventListener("hashchange", () => route({ focus: true }));

// ------------------------------------------------------------------ "Incorporar"
const dialog = $("#embed-dialog");

/** The snippet a rules page pastes: the iframe, and an optional script that fits its height. */
export function embedSnippet(ex, base = location.href) {
  const url = new URL(`embed.html?scenario=${encodeURIComponent(ex.id)}`, base).href;
  const title = `Truco Mineiro: ${ex.title || ex.lesson_title}`.replace(/"/g, "&quot;");
  return `<iframe src="${url}" title="${title}" loading="lazy" style="width:100%;max-width:560px;height:540px;border:0"></iframe>\n` +
    "<script>addEventListener(\"message\",function(e){var d=e.data;if(!d||d.type!==\"truco-embed:height\")return;" +
    "document.querySelectorAll(\"iframe\").forEach(function(f){if(f.contentWindow===e.source)f.style.height=d.height+\"px\"})})</script>";
}

function openEmbed(ex) {
  $("#embed-code").value = embedSnippet(ex);
  const open = $("#embed-open");
  open.href = new URL(`embed.html?scenario=${encodeURIComponent(ex.id)}`, location.href).href;
  $("#embed-copied").textContent = "";
  $("#embed-exercise").textContent = ex.title || ex.prompt;
  dialog.showModal();
  $("#embed-code").select();
  $("#embed-code").scrollTop = 0;
}

$("#embed-copy").addEventListener("click", async () => {
  const text = $("#embed-code").value;
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    $("#embed-code").select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
  }
  $("#embed-copied").textContent = ok ? t("tutorial.embed.copied") : t("tutorial.embed.select");
});
$("#embed-close").addEventListener("click", () => dialog.close());

$("#reset-progress")?.addEventListener("click", () => {
  if (!window.confirm(t("tutorial.reset.confirm"))) return;
  progress.reset();
  for (const [slug, quiz] of quizzes) {
    quiz.opts.done = progress.quizDone(slug);
    quiz.render();
  }
  renderProgress();
});

// ------------------------------------------------------------------ start
renderProgress();
// The lesson's tables and quiz in a task of their own: the modules' evaluation and the
// lesson's set-up in one task made the page's longest (issue 43: blocking time). Its text is
// on screen already (the HTML's).
await new Promise((resolve) => setTimeout(resolve, 0));
route();

// For the tests and the console.
window.__tutorial = Object.freeze({
  get progress() {
    return JSON.parse(JSON.stringify(progress.data));
  },
  get current() {
    return current;
  },
  exercise(id) {
    const ex = exercises.get(id);
    return ex ? { state: ex.state, verdict: ex.verdict, actions: [...(ex.actions || [])], obs: ex.obs || null } : null;
  },
  engine,
});

// The page has started: boot_watch.js stands down (from here the page says what goes wrong).
document.documentElement.dataset.pageStarted = "";
