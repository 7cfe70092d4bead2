// The table page: the poll's cursor, de-duplicated rows and a bounded live log.
// Loaded as a static file (the CSP forbids inline scripts); htmx does the requests.
(function () {
  "use strict";
  var MAX_ROWS = 200;

  function poller() { return document.getElementById("table-poller"); }
  function log() { return document.getElementById("roll-log"); }

  function cursor() {
    var p = poller();
    return p ? parseInt(p.dataset.after || "0", 10) || 0 : 0;
  }

  function advance(value) {
    var p = poller();
    var next = parseInt(value || "0", 10) || 0;
    if (p && next > cursor()) { p.dataset.after = String(next); }
  }

  // Each poll asks for what is newer than the newest row this page has seen.
  document.body.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.elt === poller()) {
      evt.detail.parameters.after = String(cursor());
    }
  });

  // A page left open in a background tab stops polling, and catches up when shown again.
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if (evt.detail.elt === poller() && document.hidden) { evt.preventDefault(); }
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && poller()) { htmx.trigger(document.body, "table-poll"); }
  });

  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail.xhr;
    if (evt.detail.elt === poller() && xhr) {
      advance(xhr.getResponseHeader("X-Table-Cursor"));
    }
  });

  // A row may arrive twice (the POST's answer, then the poll): keep one; bound the live log.
  // Rows from this page's own POST do not move the cursor: only the poll's header does, so what
  // others committed just before is still fetched.
  document.body.addEventListener("htmx:afterSwap", function () {
    var list = log();
    if (!list) { return; }
    var seen = {};
    var rows = list.querySelectorAll("li[data-event-id]");
    rows.forEach(function (row) {
      var id = row.dataset.eventId;
      if (seen[id]) { row.remove(); } else { seen[id] = true; }
    });
    var empty = document.getElementById("log-empty");
    if (empty && rows.length) { empty.remove(); }
    rows = list.querySelectorAll("li[data-event-id]");
    for (var i = rows.length - 1; i >= MAX_ROWS; i--) { rows[i].remove(); }
  });
})();
