// The portal's one script (served by the Worker at /portal/assets/passkeys.js, built by
// scripts/build-portal-script.mjs with @simplewebauthn/browser inside): runs the WebAuthn
// ceremony of the page's [data-passkey-ceremony] block. Pages work without it only as far as
// saying that passkeys need it.
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";

const block = document.querySelector("[data-passkey-ceremony]");
if (block) {
  const button = block.querySelector("button[data-passkey-start]");
  const status = block.querySelector("[data-passkey-status]");
  const say = (message, isError) => {
    status.textContent = message;
    status.className = isError ? "error" : "notice";
    status.hidden = false;
  };

  if (!browserSupportsWebAuthn()) {
    button.disabled = true;
    say("This browser cannot use passkeys (WebAuthn). Open this page in an up-to-date browser such as Chrome, Edge, Firefox or Safari.", true);
  } else {
    button.addEventListener("click", async () => {
      button.disabled = true;
      say("Waiting for your passkey…", false);
      try {
        const post = async (url, body) => {
          const res = await fetch(url, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json", Accept: "application/json", ...(block.dataset.formToken ? { "X-Form-Token": block.dataset.formToken } : {}) }, body: JSON.stringify(body) });
          const answer = await res.json().catch(() => ({}));
          if (!res.ok) throw new Error(answer.message || `The server answered ${res.status}.`);
          return answer;
        };
        const { challenge_id, options } = await post(block.dataset.optionsUrl, {});
        const response =
          block.dataset.passkeyCeremony === "register" ? await startRegistration({ optionsJSON: options }) : await startAuthentication({ optionsJSON: options });
        const done = await post(block.dataset.verifyUrl, { challenge_id, response });
        say(block.dataset.doneMessage || "Signed in. Opening the portal…", false);
        window.location.assign(done.redirect);
      } catch (error) {
        const cancelled = error && (error.name === "NotAllowedError" || error.name === "AbortError");
        say(cancelled ? "The passkey prompt was closed or timed out. Press the button to try again." : error.message || "Something went wrong. Reload the page and try again.", true);
        button.disabled = false;
      }
    });
  }
}
