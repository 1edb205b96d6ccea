import type { Hono } from "hono";
import type { PortalEnv } from "./context";

/**
 * Progressive enhancement for every portal form (issue 21 item 8): once a form is submitted its
 * submit buttons disable themselves and say so, so a second click sends nothing. The server's rule
 * (each rendered form's token is single-use for its action, require-viewer.ts) is what counts; this
 * only spares the member the wait. A page restored from the back/forward cache is enabled again.
 * It also brings the outcome of the last action (the page's notice or error, `data-outcome`) into view
 * and gives it the focus (issue 23 item 8), unless the page already focused a refused field: a screen
 * reader reads it, and nobody has to scroll for it.
 * Copy buttons (`data-copy`, kit/copy.tsx, hidden until the clipboard is writable) copy the value of the
 * read-only field they name and say "Copied" in the control's live region; a focused field selects its value.
 * Served by the Worker itself, so the portal's `script-src 'self'` holds.
 */
export const FORMS_SCRIPT_PATH = "/portal/assets/forms.js";

const FORMS_SCRIPT = `(function () {
  "use strict";
  var SENDING = "Sending\\u2026";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || event.defaultPrevented) return;
    if (form.dataset.sending === "yes") { event.preventDefault(); return; }
    form.dataset.sending = "yes";
    form.setAttribute("aria-busy", "true");
    // After this turn, so the clicked button's own name and value are still sent.
    setTimeout(function () {
      form.querySelectorAll("button[type=submit], button:not([type]), input[type=submit]").forEach(function (button) {
        button.disabled = true;
        if (button.tagName === "BUTTON") { button.dataset.label = button.textContent; button.textContent = SENDING; }
      });
    }, 0);
  });
  // A refused field (the page marks it autofocus) keeps the focus. Browsers apply autofocus when they
  // next render, which may be after this script ran, so the field is focused here rather than read
  // from document.activeElement (that race gave the focus to the outcome now and then).
  var outcome = document.querySelector("[data-outcome]");
  var refused = document.querySelector("input[autofocus], select[autofocus], textarea[autofocus]");
  if (refused) {
    refused.focus();
  } else if (outcome) {
    outcome.focus();
    outcome.scrollIntoView({ block: "center" });
  }
  // The one copy control (kit/copy.tsx): a read-only field (selectable without this script) and a
  // "Copy" button (data-copy = the field's id) shown only where the clipboard can be written; the
  // outcome is said in the control's live region (data-copy-status), so a screen reader hears it.
  document.querySelectorAll("input.copy-field").forEach(function (field) {
    field.addEventListener("focus", function () { field.select(); });
  });
  if (navigator.clipboard && window.isSecureContext !== false) {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      var source = document.getElementById(button.dataset.copy);
      var status = document.querySelector('[data-copy-status="' + button.dataset.copy + '"]');
      if (!source) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        var value = "value" in source ? source.value : source.textContent.trim();
        var say = function (words) {
          if (!status) return;
          status.textContent = "";
          // A fresh text node after a tick, so the same words twice are announced twice.
          setTimeout(function () { status.textContent = words; }, 50);
        };
        navigator.clipboard.writeText(value).then(function () { say("Copied"); }, function () {
          if ("select" in source) source.select();
          say("Select the text and copy it");
        });
      });
    });
  }
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-sending]").forEach(function (form) {
      delete form.dataset.sending;
      form.removeAttribute("aria-busy");
      form.querySelectorAll("button, input[type=submit]").forEach(function (button) {
        button.disabled = false;
        if (button.dataset.label !== undefined) { button.textContent = button.dataset.label; delete button.dataset.label; }
      });
    });
  });
})();
`;

export function registerFormsAsset(portal: Hono<PortalEnv>) {
  portal.get("/assets/forms.js", (c) => c.body(FORMS_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8" }));
}
