// The page's language, chosen before anything is drawn (a classic script in <head>: the
// CSP forbids inline scripts, and a module would run after the first paint).
//
// - A language the player chose (the switch in the header, remembered under `truco:lang`
//   by lang_switch.js) wins: a page in another language goes to the same page in it.
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
