// Campaign pages: copy an invitation link, reset a form after HTMX added its row. No inline JS.
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
