// Character sheet: Escape cancels an in-place edit, Ctrl+Enter saves a text area, focus follows
// the swapped field, destructive buttons ask first, « Imprimer » prints. No inline JS anywhere.
(function () {
  "use strict";

  document.addEventListener("keydown", function (event) {
    const form = event.target.closest && event.target.closest(".inplace-form");
    if (!form) return;
    if (event.key === "Escape") {
      event.preventDefault();
      const cancel = form.querySelector(".inplace-cancel");
      if (!cancel) return;
      // Asked of htmx directly: a link swapped in a moment ago may not be wired by htmx yet, and
      // a plain click would only jump to its #anchor, leaving the field open.
      const url = cancel.getAttribute("hx-get");
      const section = form.closest("section");
      if (window.htmx && url && section) {
        window.htmx.ajax("GET", url, { source: cancel, target: section, swap: "outerHTML" });
      } else {
        cancel.click();
      }
    } else if (event.key === "Enter" && event.target.tagName === "TEXTAREA" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  // After a swap, put the caret in the field being edited, or back on the field just saved.
  // The element whose request this swap answers (htmx puts it in the request's config).
  function sourceOf(event) {
    return event.detail.requestConfig ? event.detail.requestConfig.elt : null;
  }

  // Only the request a field made counts: the live notifications badge polls in between.
  let lastField = null;
  let lastSource = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    const field = event.detail.elt.closest && event.detail.elt.closest(".sheet-field");
    if (field) {
      lastField = field.dataset.field;
      lastSource = event.detail.elt;
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!lastField || sourceOf(event) !== lastSource) return;
    const slot = document.getElementById("f-" + lastField);
    if (!slot) return;
    const target = slot.querySelector("input:not([type=hidden]), select, textarea") || slot.querySelector("a.editable");
    if (target) {
      target.focus();
      if (target.select && target.type !== "checkbox") target.select();
    }
  });

  // « Imprimer » prints the sheet (the print stylesheet keeps it to two A4 pages); without
  // JavaScript the button stays hidden and the browser's own Print does the same.
  document.querySelectorAll("[data-print]").forEach(function (button) { button.hidden = false; });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) window.print();
  });

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
  document.addEventListener("htmx:confirm", function (event) {
    const form = event.detail.elt;
    if (form.dataset && form.dataset.confirm && !form.dataset.confirmed) {
      event.preventDefault();
      if (window.confirm(form.dataset.confirm)) event.detail.issueRequest(true);
    }
  });
})();
