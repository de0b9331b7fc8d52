// The language switch in the header: following one of its links remembers the choice
// (lang_redirect.js then keeps every page in that language, on this device).

export const LANG_KEY = "truco:lang";

function remember(code) {
  // Before the request: Netlify's Language redirects (netlify.toml) follow `nf_lang` rather
  // than the browser's languages, so an English browser that chose Portuguese gets /.
  document.cookie = `nf_lang=${code.split("-")[0]}; path=/; max-age=31536000; samesite=lax`;
  try {
    localStorage.setItem(LANG_KEY, code);
  } catch {
    /* storage blocked: the link still leads to the page in that language */
  }
}

document.addEventListener("click", (e) => {
  const link = e.target instanceof Element ? e.target.closest(".lang-switch a[data-lang]") : null;
  if (!link) return;
  remember(link.dataset.lang);
  // Keep the query and the hash (the same lesson, the same scenario).
  if (!link.hasAttribute("aria-current")) {
    e.preventDefault();
    // The page may leave word for its other-language self (the table: the match in play).
    document.dispatchEvent(new CustomEvent("truco:lang-switch", { detail: { lang: link.dataset.lang } }));
    location.assign(link.href.split(/[?#]/)[0] + location.search + location.hash);
  }
});
