// The page's language, chosen before the page asks for anything: written inline into <head>
// by the build (pages.py's inline_script; the CSP allows it by its sha256, listed in
// netlify.toml), ahead of every script, style and icon, so a visitor sent to another
// language loads nothing of this page but its HTML (issue 43: the external script cost
// Lighthouse 1.4-2.6 s). On Netlify, [[redirects]] with a Language condition send a browser
// whose first language is Spanish or English from / to /es/ or /en/ before any HTML at all.
//
// - A language the player chose (the switch in the header, remembered under `truco:lang`
//   by lang_switch.js) wins: a page in another language goes to the same page in it. The
//   choice is copied into the `nf_lang` cookie, which Netlify's Language redirects obey
//   instead of the browser's languages (so a player who chose Portuguese stays on /).
// - Otherwise, on a first visit to a Portuguese page (the default, at the site's root), the
//   browser's languages decide: the first of them that the site has (pt, es or en).
// The same page in each language is a <link rel="alternate" hreflang> above this script;
// the query and the hash go along (?fast=1, #lesson...).
(function () {
  "use strict";
  var KEY = "truco:lang";
  var here = document.documentElement.lang;
  // No prototype: a stored value like "__proto__" or "toString" must name no page.
  var pages = Object.create(null);
  // data-href: the page's relative address (href may name the deployed site's origin, for
  // search engines: a copy served from elsewhere, or offline, must stay where it is).
  var links = document.querySelectorAll('link[rel="alternate"][hreflang][data-href]');
  for (var i = 0; i < links.length; i++) pages[links[i].hreflang] = new URL(links[i].getAttribute("data-href"), location.href).href;
  var chosen = null;
  try {
    chosen = localStorage.getItem(KEY);
  } catch (e) {
    /* storage blocked: the browser's languages still decide */
  }
  var target = null;
  if (chosen && typeof pages[chosen] === "string") {
    target = chosen;
    var cookie = "nf_lang=" + chosen.split("-")[0];
    if (document.cookie.split("; ").indexOf(cookie) < 0) {
      document.cookie = cookie + "; path=/; max-age=31536000; samesite=lax";
    }
  } else if (here === "pt-BR") {
    var wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
    for (var j = 0; j < wanted.length && !target; j++) {
      var base = String(wanted[j]).toLowerCase().split("-")[0];
      if (base === "pt") target = "pt-BR";
      else if (base === "es" || base === "en") target = base;
    }
  }
  if (target && target !== here && typeof pages[target] === "string") {
    location.replace(pages[target] + location.search + location.hash);
  }
})();
