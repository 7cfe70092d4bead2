// Campaign pages: copy an invitation link, reset a form after HTMX added its row, keep the focus
// on a compendium row edited in place. No inline JS.
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-copy-target]");
    if (!button) return;
    const input = document.querySelector(button.dataset.copyTarget);
    if (!input) return;
    const done = function () {
      const label = button.textContent;
      button.textContent = button.dataset.copiedLabel || label;
      setTimeout(function () { button.textContent = label; }, 2000);
    };
    input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () {
        document.execCommand("copy");
        done();
      });
    } else {
      document.execCommand("copy");
      done();
    }
  });

  // The compendium's rows: opening one for editing puts the caret in its first field (or the
  // first one in error); saving it puts the focus on the saved row; deleting it, on its
  // section's heading — never on <body>, where the swapped-out link would have left it.
  // The element whose request this swap answers (htmx puts it in the request's config).
  function sourceOf(event) {
    return event.detail.requestConfig ? event.detail.requestConfig.elt : null;
  }

  // Only the request a row made counts: the live notifications badge polls in between.
  let entryRow = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    const row = event.detail.elt.closest && event.detail.elt.closest("li.entry");
    if (row) entryRow = { id: row.id, section: row.closest("section"), source: event.detail.elt };
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!entryRow || sourceOf(event) !== entryRow.source) return;
    const row = document.getElementById(entryRow.id);
    const section = entryRow.section;
    entryRow = null;
    if (!row) {
      const heading = section && section.querySelector("h2");
      if (heading) {
        heading.tabIndex = -1;
        heading.focus();
      }
      return;
    }
    if (row.classList.contains("editing")) {
      const field = row.querySelector("[aria-invalid=true]") ||
        row.querySelector("input:not([type=hidden]), select, textarea");
      if (field) field.focus();
    } else {
      row.tabIndex = -1;
      row.focus();
    }
  });

  // A form that adds a row is emptied once the row is in, unless the server sent the form
  // back with its errors (it then replaces the form itself).
  document.addEventListener("htmx:afterRequest", function (event) {
    const form = event.detail.elt;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-reset-on-success")) return;
    if (event.detail.successful && !event.detail.xhr.getResponseHeader("HX-Retarget")) {
      form.reset();
    }
  });
})();
