// Every signed-in page: its event stream (htmx's SSE extension opens it from <body sse-connect>)
// turns into the events the page's parts already listen to; while it is down the page says so
// and asks every few seconds instead (`live-poll`). Loaded as a static file (the CSP forbids
// inline scripts).
(function () {
  "use strict";
  var SIGNALS = { morale: "morale-changed", combat: "combat-changed", notifications: "notifications-changed",
                  handouts: "handouts-changed" };
  var SHOW_DOWN_AFTER_MS = 3000;  // a stream that comes back at once is not worth a banner

  var body = document.body;
  var seconds = parseFloat(body.dataset.livePoll || "10") || 10;
  var streaming = body.hasAttribute("sse-connect");
  var open = false;
  var closed = false;
  var downTimer = null;

  function banner() { return document.getElementById("connection-status"); }

  function say(text) {
    var b = banner();
    if (!b) { return; }
    b.textContent = text;
    b.hidden = !text;
  }

  // The pages' panels listen to these names (they came from the poll's headers before).
  if (streaming && window.htmx && htmx.createEventSource) {
    var create = htmx.createEventSource;
    htmx.createEventSource = function (url) {
      var source = create(url);
      Object.keys(SIGNALS).forEach(function (name) {
        source.addEventListener(name, function () { htmx.trigger(body, SIGNALS[name]); });
      });
      source.addEventListener("sheet", function (evt) { sheetMoved(parseInt(evt.data, 10)); });
      source.addEventListener("closed", function () {
        closed = true;
        say(banner() ? banner().dataset.liveClosed : "");
      });
      return source;
    };
  }

  body.addEventListener("htmx:sseOpen", function () {
    open = true;
    window.clearTimeout(downTimer);
    downTimer = null;
    var b = banner();
    if (b && b.textContent === b.dataset.liveDown) { say(""); }
  });

  body.addEventListener("htmx:sseError", function () {
    open = false;
    if (closed || downTimer) { return; }
    downTimer = window.setTimeout(function () {
      downTimer = null;
      if (!open && !closed && banner()) { say(banner().dataset.liveDown); }
    }, SHOW_DOWN_AFTER_MS);
  });

  // Without a stream (or while it is down) the page asks instead: the table's poller and the
  // notifications badge listen to `live-poll`.
  window.setInterval(function () {
    if (closed || document.hidden) { return; }
    if (!streaming || !open) { htmx.trigger(body, "live-poll"); }
  }, seconds * 1000);

  // A reconnection made by the extension itself (after the server refused or went away) starts
  // from the newest row this page has: the stream's address carries the cursor.
  body.addEventListener("live-cursor", function (evt) {
    var url = body.getAttribute("sse-connect");
    if (!url || !evt.detail || !evt.detail.cursor) { return; }
    var parts = url.split("?");
    var query = new URLSearchParams(parts[1] || "");
    if (!query.has("after")) { return; }
    query.set("after", String(evt.detail.cursor));
    query.set("again", "1");
    body.setAttribute("sse-connect", parts[0] + "?" + query.toString());
  });

  // The sheet this page shows has a newer version than any of its forms: say so. Checked a
  // moment later, since this page's own save announces itself before its answer is swapped in.
  function pageVersion() {
    var newest = 0;
    document.querySelectorAll("[data-version], input[name=version]").forEach(function (el) {
      var value = parseInt(el.dataset.version || el.value || "0", 10) || 0;
      if (value > newest) { newest = value; }
    });
    return newest;
  }

  function sheetMoved(version) {
    window.setTimeout(function () {
      var notice = document.getElementById("sheet-moved");
      if (notice && version > pageVersion()) { notice.hidden = false; }
    }, 1000);
  }
})();
