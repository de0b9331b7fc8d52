// Keep the screen on while the page is visible (Screen Wake Lock API). The browser drops
// the lock whenever the page is hidden, so it is asked for again on visibilitychange.
// Where the API is missing or refuses (no user gesture yet, low battery, an insecure
// origin), nothing happens and nothing is logged: the page works the same, just dimmable.

/**
 * Start keeping the screen awake. `onChange(active)` hears whether a lock is held.
 * Returns a function that stops (releases the lock and stops re-acquiring it).
 */
export function keepScreenOn(onChange = () => {}) {
  const api = typeof navigator !== "undefined" ? navigator.wakeLock : undefined;
  if (!api || typeof api.request !== "function") {
    onChange(false);
    return () => {};
  }
  let sentinel = null;
  let pending = false;
  let stopped = false;

  const acquire = async () => {
    if (stopped || pending || document.visibilityState !== "visible") return;
    if (sentinel && !sentinel.released) return;
    pending = true;
    try {
      const lock = await api.request("screen");
      sentinel = lock;
      onChange(true);
      lock.addEventListener("release", () => {
        if (sentinel === lock) onChange(false);
      });
      if (stopped) lock.release().catch(() => {});
    } catch {
      onChange(false);
    } finally {
      pending = false;
    }
  };

  const onVisibility = () => {
    if (document.visibilityState === "visible") acquire();
  };
  document.addEventListener("visibilitychange", onVisibility);
  // Some browsers only grant the lock after a user gesture: try again on the first taps.
  const onGesture = () => {
    if (!sentinel || sentinel.released) acquire();
  };
  document.addEventListener("pointerup", onGesture, { passive: true });
  document.addEventListener("keyup", onGesture);
  acquire();

  return () => {
    stopped = true;
    document.removeEventListener("visibilitychange", onVisibility);
    document.removeEventListener("pointerup", onGesture);
    document.removeEventListener("keyup", onGesture);
    if (sentinel && !sentinel.released) sentinel.release().catch(() => {});
  };
}
