// Turns drags, taps, clicks and keys into meaning-level intents:
//   {type: "card", index, cover}   play (or cover) the card at `index` of the hand
//   {type: "action", action}       "raise" | "accept" | "run" | "exchange" | "toggle-cover"
// Pointer events cover mouse, touch and pen alike. It never decides legality: the table
// only enables what the observation allows, and the engine has the last word.

const DRAG_THRESHOLD = 8; // px a pointer must travel before a press becomes a drag

export class InputManager {
  constructor(root, onIntent) {
    this.root = root;
    this.onIntent = onIntent;
    this.hand = root.querySelector("#hand");
    this.actions = root.querySelector("#actions");
    this.playZone = root.querySelector("#drop-zone");
    this.coverZone = root.querySelector("#cover-zone");
    this.drag = null;
    this.suppressClick = false;
    this.enabled = true;
    this.coverAllowed = false;
    this.coverMode = false;

    this.hand.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    this.hand.addEventListener("pointermove", (e) => this.onPointerMove(e));
    this.hand.addEventListener("pointerup", (e) => this.onPointerUp(e));
    this.hand.addEventListener("pointercancel", () => this.cancelDrag());
    this.hand.addEventListener("click", (e) => this.onCardClick(e));
    this.hand.addEventListener("keydown", (e) => this.onHandKey(e));
    this.actions.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-action]");
      if (b && !b.disabled) this.onIntent({ type: "action", action: b.dataset.action });
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  /** Called after each render: whether covering is allowed now, and the toggle's state. */
  update({ coverAllowed, coverMode }) {
    this.coverAllowed = coverAllowed;
    this.coverMode = coverMode;
    this.coverZone.hidden = !coverAllowed;
  }

  cardButton(target) {
    const el = target.closest(".card.in-hand");
    return el && !el.disabled ? el : null;
  }

  onPointerDown(e) {
    if (!this.enabled || e.button > 0) return;
    const el = this.cardButton(e.target);
    if (!el) return;
    this.drag = { el, id: e.pointerId, x0: e.clientX, y0: e.clientY, moving: false };
    try {
      el.setPointerCapture(e.pointerId);
    } catch {
      /* the pointer may already be gone */
    }
  }

  onPointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const dx = e.clientX - d.x0;
    const dy = e.clientY - d.y0;
    if (!d.moving && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    if (!d.moving) {
      d.moving = true;
      d.el.classList.add("dragging");
      this.root.classList.add("is-dragging");
    }
    e.preventDefault();
    d.el.style.transform = `translate(${dx}px, ${dy}px) rotate(${dx / 40}deg)`;
    const zone = this.zoneAt(e.clientX, e.clientY);
    this.playZone.classList.toggle("over", zone === "play");
    this.coverZone.classList.toggle("over", zone === "cover");
  }

  onPointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    if (!d.moving) return; // a tap: the click handler plays it
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const zone = this.zoneAt(e.clientX, e.clientY);
    this.endDrag(d.el, zone !== null);
    if (zone) {
      this.onIntent({ type: "card", index: Number(d.el.dataset.index), cover: zone === "cover" || this.coverMode });
    }
  }

  cancelDrag() {
    if (this.drag?.moving) this.endDrag(this.drag.el, false);
    this.drag = null;
  }

  endDrag(el, dropped) {
    this.root.classList.remove("is-dragging");
    this.playZone.classList.remove("over");
    this.coverZone.classList.remove("over");
    el.classList.remove("dragging");
    if (dropped) {
      el.classList.add("dropped");
    } else {
      // Back to the hand: the transition in CSS animates the return.
      el.classList.add("returning");
      el.style.transform = "";
      el.addEventListener("transitionend", () => el.classList.remove("returning"), { once: true });
      setTimeout(() => el.classList.remove("returning"), 400);
    }
  }

  zoneAt(x, y) {
    const inside = (el) => {
      if (!el || el.hidden) return false;
      const r = el.getBoundingClientRect();
      return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
    };
    if (this.coverAllowed && inside(this.coverZone)) return "cover";
    if (inside(this.playZone)) return "play";
    return null;
  }

  onCardClick(e) {
    if (this.suppressClick || !this.enabled) return;
    const el = this.cardButton(e.target);
    if (!el) return;
    this.onIntent({ type: "card", index: Number(el.dataset.index), cover: this.coverMode });
  }

  onHandKey(e) {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const cards = [...this.hand.querySelectorAll(".card.in-hand")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    e.preventDefault();
    const next = cards[(i + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
    next.focus();
  }

  onKey(e) {
    if (!this.enabled || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest?.("input, select, textarea, dialog")) return;
    const k = e.key.toLowerCase();
    if (/^[1-9]$/.test(k)) {
      const el = this.hand.querySelector(`.card.in-hand[data-index="${Number(k) - 1}"]`);
      if (el && !el.disabled) {
        e.preventDefault();
        this.onIntent({ type: "card", index: Number(k) - 1, cover: this.coverMode });
      }
      return;
    }
    const byKey = { t: "raise", a: "accept", c: "run", b: "toggle-cover" };
    const action = byKey[k];
    if (!action) return;
    const b = this.actions.querySelector(`button[data-action="${action}"]`);
    if (b && !b.disabled) {
      e.preventDefault();
      this.onIntent({ type: "action", action });
    }
  }
}
