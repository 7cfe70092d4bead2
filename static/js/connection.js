// Every page: an HTMX request that fails (no network, a 5xx) says so at the top of the page, and
// the next request that succeeds clears it. htmx swaps nothing on a failure, so what was typed
// stays in its field. The texts come translated from the banner's data attributes.
(function () {
  "use strict";

  function banner() { return document.getElementById("connection-status"); }

  function show(elt) {
    var b = banner();
    if (!b) { return; }
    var polling = elt && /\b(every|live-poll)\b/.test(elt.getAttribute("hx-trigger") || "");
    b.textContent = polling ? b.dataset.retrying : b.dataset.keptInput;
    b.hidden = false;
  }

  function clear() {
    var b = banner();
    if (b && !b.hidden) { b.hidden = true; b.textContent = ""; }
  }

  document.body.addEventListener("htmx:sendError", function (evt) { show(evt.detail.elt); });
  document.body.addEventListener("htmx:responseError", function (evt) {
    if (evt.detail.xhr && evt.detail.xhr.status >= 500) { show(evt.detail.elt); }
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail.successful) { clear(); }
  });
})();
