// The table page: the log's cursor (pushed rows, or the poll while the stream is down), de-duplicated rows and a bounded live log; where focus goes
// when htmx replaces what held it; what a screen reader hears of new rows and of the Moral.
// Loaded as a static file (the CSP forbids inline scripts); htmx does the requests.
(function () {
  "use strict";
  var MAX_ROWS = 200;
  var MAX_ANNOUNCED = 5;

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

  function rowIds() {
    var ids = {};
    var list = log();
    if (list) {
      list.querySelectorAll("li[data-event-id]").forEach(function (row) { ids[row.dataset.eventId] = true; });
    }
    return ids;
  }

  // Each poll asks for what is newer than the newest row this page has seen.
  document.body.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.elt === poller()) { evt.detail.parameters.after = String(cursor()); }
  });

  // A page left open in a background tab stops polling, and catches up when shown again.
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if (evt.detail.elt === poller() && document.hidden) { evt.preventDefault(); }
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && poller()) { htmx.trigger(document.body, "table-poll"); }
  });

  // --- announcements ------------------------------------------------------------------------

  // A new row is said by its sentence (« Aelis : 12 contre 6, réussite »), never with the
  // buttons it carries. Rows of this page's own roll are not: focus moves to the result under
  // « Lancer », which a screen reader reads then.
  function announceRows(rows) {
    var live = document.getElementById("roll-log-live");
    if (!live || !rows.length) { return; }
    rows.sort(function (a, b) { return parseInt(a.dataset.eventId, 10) - parseInt(b.dataset.eventId, 10); });
    rows.forEach(function (row) {
      if (!row.dataset.announce) { return; }
      var line = document.createElement("p");
      line.textContent = row.dataset.announce;
      live.appendChild(line);
    });
    while (live.children.length > MAX_ANNOUNCED) { live.removeChild(live.firstElementChild); }
  }

  // The Moral panel's figures before a swap, to say what moved after it.
  function moraleFigures(panel) {
    var figures = { group: {}, members: [] };
    if (!panel) { return figures; }
    panel.querySelectorAll("[data-morale]").forEach(function (el) {
      figures.group[el.dataset.morale] = el.textContent.trim();
    });
    panel.querySelectorAll("li.member[data-character]").forEach(function (member) {
      var name = member.querySelector("strong");
      var values = {};
      member.querySelectorAll("[data-personal]").forEach(function (el) {
        values[el.dataset.personal] = el.textContent.trim();
      });
      figures.members.push({ id: member.dataset.character, name: name ? name.textContent.trim() : "", values: values });
    });
    return figures;
  }

  function moraleChanges(before, after, labels) {
    var sentences = [];
    var group = [];
    ["hope", "despair"].forEach(function (key) {
      var a = before.group[key], b = after.group[key];
      if (a !== undefined && b !== undefined && a !== b) { group.push(labels[key] + " " + a + " → " + b); }
    });
    if (group.length) { sentences.push(labels.group + " : " + group.join(", ")); }
    Object.keys(after.group).forEach(function (key) {
      var a = before.group[key], b = after.group[key];
      if (key === "hope" || key === "despair" || a === undefined || a === b) { return; }
      sentences.push((labels[key] || key) + " : " + a + " → " + b);
    });
    after.members.forEach(function (member) {
      var old = before.members.filter(function (m) { return m.id === member.id; })[0];
      if (!old) { return; }
      var parts = [];
      ["hope", "despair"].forEach(function (key) {
        var a = old.values[key], b = member.values[key];
        if (a !== undefined && b !== undefined && a !== b) { parts.push(labels["personal-" + key] + " " + a + " → " + b); }
      });
      if (parts.length) { sentences.push(member.name + " : " + parts.join(", ")); }
    });
    return sentences.join(". ");
  }

  function announceMorale(text) {
    var status = document.getElementById("morale-status");
    if (!status || !text) { return; }
    // Emptied first, so that the same sentence twice is said twice.
    status.textContent = "";
    window.setTimeout(function () { status.textContent = text; }, 50);
  }

  function moraleLabels() {
    var status = document.getElementById("morale-status");
    var d = status ? status.dataset : {};
    return {
      group: d.group || "Moral", hope: d.hope || "espoir", despair: d.despair || "désespoir",
      fate: d.fate || "Fatalité", "personal-hope": d.personalHope || "espoir personnel",
      "personal-despair": d.personalDespair || "désespoir personnel"
    };
  }

  // --- focus --------------------------------------------------------------------------------

  // htmx replaces the Moral panel and a row of the log whole (outerHTML): the focused button
  // goes with them and focus falls to <body>. Before the swap we note which control had it
  // (by its form's hidden fields and its place in that form), and which <details> were open;
  // after it we reopen those and focus the same control in the new content, or the new
  // content itself.
  function formSignature(form) {
    var parts = [form.getAttribute("action") || ""];
    form.querySelectorAll("input[type=hidden]").forEach(function (input) {
      if (input.name !== "csrfmiddlewaretoken") { parts.push(input.name + "=" + input.value); }
    });
    return parts.join("&");
  }

  function pathIn(container, el) {
    var path = [];
    for (var e = el; e && e !== container; e = e.parentElement) {
      path.unshift(Array.prototype.indexOf.call(e.parentElement.children, e));
    }
    return path;
  }

  function atPath(container, path) {
    var e = container;
    for (var i = 0; e && i < path.length; i++) { e = e.children[path[i]]; }
    return e || null;
  }

  function focusKey(container, el) {
    var form = el.closest("form");
    if (form && container.contains(form)) {
      return {
        form: formSignature(form), index: Array.prototype.indexOf.call(form.elements, el),
        tag: el.tagName, name: el.name || "", text: el.tagName === "BUTTON" ? el.textContent.trim() : ""
      };
    }
    return { path: pathIn(container, el) };
  }

  function findByKey(container, key) {
    if (key.form !== undefined) {
      var forms = container.querySelectorAll("form");
      for (var i = 0; i < forms.length; i++) {
        if (formSignature(forms[i]) !== key.form) { continue; }
        // The same control by what it is (a select may have appeared before the button)...
        var same = Array.prototype.filter.call(forms[i].elements, function (el) {
          return el.tagName === key.tag && (el.name || "") === key.name &&
            (key.tag !== "BUTTON" || el.textContent.trim() === key.text);
        });
        // ...or else by its place.
        return same[0] || forms[i].elements[key.index] || forms[i];
      }
      return null;
    }
    return atPath(container, key.path);
  }

  function detailsKey(container, details) {
    var scope = details.parentElement.closest("[data-character]") || container;
    var id = scope === container ? "" : scope.dataset.character;
    return id + ":" + Array.prototype.indexOf.call(scope.querySelectorAll("details"), details);
  }

  function focusable(el) {
    return el && !el.disabled && el.getClientRects().length > 0;
  }

  function focusContainer(el) {
    if (!el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "-1"); }
    el.focus();
  }

  // A refresh of the Moral panel asked before one of its own actions was answered may bring
  // figures older than that answer's: it is not drawn (the next refresh is).
  var asked = new WeakMap();
  var panelActionAnswered = 0;
  function isPanel(el) { return el && el.id === "morale-panel"; }
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if (isPanel(evt.detail.elt) && evt.detail.xhr) { asked.set(evt.detail.xhr, performance.now()); }
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var config = evt.detail.requestConfig || {};
    if (config.verb === "post" && isPanel(evt.detail.target) && evt.detail.successful) {
      panelActionAnswered = performance.now();
    }
  });
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var when = evt.detail.xhr ? asked.get(evt.detail.xhr) : undefined;
    if (isPanel(evt.detail.elt) && when !== undefined && when < panelActionAnswered) {
      evt.detail.shouldSwap = false;
    }
  });

  // What a swap is about to replace, noted before htmx does it.
  var pending = null;

  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || !evt.detail.shouldSwap) { return; }
    if (evt.detail.requestConfig && evt.detail.requestConfig.elt === poller()) {
      pending = { xhr: evt.detail.xhr, poll: true, seen: rowIds() };
      return;
    }
    var replaced = target.id === "morale-panel" || target.matches("li.log-row, li.older");
    if (!replaced) { return; }
    var active = document.activeElement;
    var note = { xhr: evt.detail.xhr, id: target.id, older: target.matches("li.older") ? target.previousElementSibling : null, open: [] };
    if (active && active !== document.body && target.contains(active)) {
      note.focus = focusKey(target, active);
    }
    target.querySelectorAll("details[open]").forEach(function (d) { note.open.push(detailsKey(target, d)); });
    if (target.id === "morale-panel") { note.figures = moraleFigures(target); }
    pending = note;
  });

  // The Moral panel also refreshes on its own (`morale-changed`): what moved is said either way.
  document.body.addEventListener("htmx:afterSwap", function (evt) {
    var note = pending && pending.xhr === evt.detail.xhr ? pending : null;
    if (note) { pending = null; }
    var list = log();
    if (note && note.poll) {
      var fresh = [];
      if (list) {
        list.querySelectorAll("li[data-event-id]").forEach(function (row) {
          if (!note.seen[row.dataset.eventId]) { fresh.push(row); }
        });
      }
      announceRows(fresh);
    } else if (note && (note.id || note.focus || note.older !== null)) {
      var container = note.id ? document.getElementById(note.id) : null;
      if (container) {
        container.querySelectorAll("details").forEach(function (d) {
          if (note.open.indexOf(detailsKey(container, d)) >= 0) { d.open = true; }
        });
        if (note.figures) { announceMorale(moraleChanges(note.figures, moraleFigures(container), moraleLabels())); }
        if (note.focus) {
          var again = findByKey(container, note.focus);
          if (focusable(again)) { again.focus(); } else { focusContainer(container); }
        }
      } else if (note.older && note.older.nextElementSibling) {
        // « Jets plus anciens » was replaced by the older rows: focus the first of them.
        focusContainer(note.older.nextElementSibling);
      }
    }
    dedupe();
  });

  // The tracker refreshes itself when the fight changes (`combat-changed`, from anyone's action):
  // a panel someone had open stays open, what they typed or chose in it stays, and so does their
  // focus — nothing a player is typing is lost to another's move. Hidden fields (the step read)
  // come from the refresh: a form sent with them still answers to the fight as it is now.
  var trackerNote = null;

  function panelKey(details) {
    var panel = details.closest("[data-combat]");
    return (panel ? panel.dataset.combat : "") + "/" + details.className;
  }

  function typedIn(tracker) {
    var typed = [];
    tracker.querySelectorAll("form").forEach(function (form) {
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.type === "hidden" || el.type === "submit" || el.tagName === "BUTTON") { return; }
        typed.push({
          form: form.getAttribute("action") || "", name: el.name, type: el.type,
          value: el.value, checked: el.checked
        });
      });
    });
    return typed;
  }

  function putBack(tracker, note) {
    tracker.querySelectorAll("details").forEach(function (d) {
      if (note.open.indexOf(panelKey(d)) >= 0) { d.open = true; }
    });
    var forms = {};
    tracker.querySelectorAll("form").forEach(function (form) { forms[form.getAttribute("action") || ""] = form; });
    note.typed.forEach(function (was) {
      var form = forms[was.form];
      if (!form) { return; }
      Array.prototype.forEach.call(form.elements, function (el) {
        if (el.name !== was.name || el.type !== was.type) { return; }
        if (el.type === "radio") { if (el.value === was.value) { el.checked = was.checked; } }
        else if (el.type === "checkbox") { el.checked = was.checked; }
        else { el.value = was.value; }
      });
    });
    if (note.focus && forms[note.focus.form]) {
      var again = Array.prototype.find.call(forms[note.focus.form].elements, function (el) {
        return el.name === note.focus.name && (el.type !== "radio" || el.value === note.focus.value);
      });
      if (focusable(again)) { again.focus(); }
    }
  }

  // A click on the tracker is never lost to a redraw. An action posted from it aborts a refresh
  // in flight, and a refresh asked for while an action is in flight waits for the action's
  // answer, then runs (the fight may have moved meanwhile). A refresh that brings the fight as
  // the page already shows it (this page's own action, seen again by the poll) is not swapped in.
  var action = null;
  var refreshWanted = false;

  function isTracker(el) { return el && el.id === "combat-tracker"; }

  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    var config = evt.detail.requestConfig || {};
    if (!isTracker(evt.detail.target)) { return; }
    if (config.verb === "get" && config.elt === evt.detail.target) {
      if (action && action.readyState !== 4) { refreshWanted = true; evt.preventDefault(); }
      return;
    }
    htmx.trigger(evt.detail.target, "htmx:abort");
    action = evt.detail.xhr;
    action.addEventListener("loadend", function () {
      if (!refreshWanted) { return; }
      refreshWanted = false;
      htmx.trigger(document.body, "combat-changed");
    });
  });

  function fightShown(el) {
    var copy = el.cloneNode(true);
    // Tokens drawn afresh for every answer: the CSRF token and each form's idempotency key.
    copy.querySelectorAll("input[name=csrfmiddlewaretoken], input[name$=idempotency_key]").forEach(function (i) {
      i.removeAttribute("value");
    });
    copy.querySelectorAll("details").forEach(function (d) { d.removeAttribute("open"); });
    [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("[class]"))).forEach(function (n) {
      Array.prototype.slice.call(n.classList).forEach(function (c) {
        if (c.indexOf("htmx-") === 0) { n.classList.remove(c); }
      });
    });
    return copy.outerHTML;
  }

  function sameFight(target, html) {
    var parsed = document.createElement("template");
    parsed.innerHTML = html;
    var fresh = parsed.content.querySelector("#combat-tracker");
    return !!fresh && fightShown(fresh) === fightShown(target);
  }

  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    var config = evt.detail.requestConfig || {};
    if (!target || target.id !== "combat-tracker" || config.elt !== target || config.verb !== "get") { return; }
    if (evt.detail.xhr.status === 200 && sameFight(target, evt.detail.serverResponse)) {
      evt.detail.shouldSwap = false;
      return;
    }
    var note = { xhr: evt.detail.xhr, open: [], typed: typedIn(target) };
    target.querySelectorAll("details[open]").forEach(function (d) { note.open.push(panelKey(d)); });
    var active = document.activeElement;
    if (active && active.form && target.contains(active)) {
      note.focus = { form: active.form.getAttribute("action") || "", name: active.name, value: active.value };
    }
    trackerNote = note;
  });

  document.body.addEventListener("htmx:afterSwap", function (evt) {
    if (!trackerNote || trackerNote.xhr !== evt.detail.xhr) { return; }
    var note = trackerNote;
    trackerNote = null;
    var tracker = document.getElementById("combat-tracker");
    if (tracker) { putBack(tracker, note); }
  });

  // A row may arrive twice (the POST's answer, then the poll): keep one; bound the live log.
  // Rows from this page's own POST do not move the cursor: only the poll's header does, so what
  // others committed just before is still fetched.
  function dedupe() {
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
  }

  // Rows pushed by the stream: htmx's SSE extension puts each at the top of the log; they are
  // announced like the poll's, and move the cursor the fallback poll and a reconnection use.
  var seenBeforePush = null;
  document.body.addEventListener("htmx:sseBeforeMessage", function (evt) {
    if (evt.target === log()) { seenBeforePush = rowIds(); }
  });
  document.body.addEventListener("htmx:sseMessage", function (evt) {
    var list = log();
    if (!list || evt.target !== list) { return; }
    var seen = seenBeforePush || {};
    seenBeforePush = null;
    dedupe();
    var fresh = [];
    list.querySelectorAll("li[data-event-id]").forEach(function (row) {
      if (!seen[row.dataset.eventId]) { fresh.push(row); }
    });
    announceRows(fresh);
    advance(evt.detail && evt.detail.lastEventId);
    htmx.trigger(document.body, "live-cursor", { cursor: cursor() });
  });

  // After « Lancer » the button is disabled during the request (hx-disabled-elt), so focus has
  // already left it: it goes to the result under the form, or to what the form says is wrong.
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail.xhr;
    if (evt.detail.elt === poller() && xhr) {
      advance(xhr.getResponseHeader("X-Table-Cursor"));
      return;
    }
    // The form's own event: a form replaced by its errors hears it through its parent, whose
    // detail.elt then is that parent.
    var config = evt.detail.requestConfig || {};
    if (!config.elt || config.elt.id !== "roll-form" || config.verb !== "post") { return; }
    if (!evt.detail.successful) { return; }
    var form = document.getElementById("roll-form");
    var wrong = form && form.querySelector(".errors, .has-error input, .has-error select, .has-error textarea");
    if (wrong) {
      var folded = wrong.closest("details");
      if (folded) { folded.open = true; }
      if (wrong.classList.contains("errors")) { focusContainer(wrong); } else { wrong.focus(); }
      return;
    }
    var result = document.getElementById("roll-result");
    if (result && !result.hidden) { result.focus(); }
  });
})();
