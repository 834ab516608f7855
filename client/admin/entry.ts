// The console's only script: the passkey ceremonies (which need the browser's WebAuthn API) and the
// overview's chart. Every other action of the console is a plain form.
import "./console.css";
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";

type Answer = { next?: string; codes?: string[]; error?: string };

// The server's JSON is taken as it comes: the ceremony functions check the options they are given.
// biome-ignore lint/suspicious/noExplicitAny: the WebAuthn options are read by @simplewebauthn/browser, which validates them
async function post(path: string, body: unknown): Promise<{ ok: boolean; answer: Answer & Record<string, any> }> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const answer = await response.json().catch(() => ({}));
  return { ok: response.ok, answer };
}

function say(button: HTMLElement, text: string) {
  const status = document.getElementById(button.dataset.status ?? "console-status");
  if (status !== null) status.textContent = text;
}

/**
 * After a passkey is made: the name field and the button that made it are hidden (a second press
 * would only be refused), the success message stays, and the codes follow it.
 */
function showCodes(codes: string[], next: string, made: HTMLButtonElement) {
  const name = document.getElementById("passkey-name");
  for (const spent of [made, name, name === null ? null : document.querySelector(`label[for="${name.id}"]`)])
    if (spent instanceof HTMLElement) spent.hidden = true;
  const panel = document.getElementById("recovery-codes");
  const list = document.getElementById("recovery-code-list");
  const go = document.getElementById("recovery-continue");
  if (panel === null || list === null || !(go instanceof HTMLAnchorElement)) {
    location.assign(next);
    return;
  }
  list.replaceChildren(
    ...codes.map((code) => {
      const item = document.createElement("li");
      item.textContent = code;
      return item;
    }),
  );
  go.href = next;
  panel.hidden = false;
  panel.focus();
}

async function ceremony(button: HTMLButtonElement, run: () => Promise<void>) {
  // Browsers offer passkeys only on HTTPS or localhost: on plain http under another name every
  // ceremony fails, and "try again" would not help.
  if (!window.isSecureContext) return say(button, button.dataset.insecure ?? button.dataset.failed ?? "Error");
  button.disabled = true;
  say(button, button.dataset.working ?? "…");
  try {
    await run();
  } catch {
    say(button, button.dataset.failed ?? "Error");
  } finally {
    button.disabled = false;
  }
}

function register(button: HTMLButtonElement) {
  const invite = button.dataset.invite;
  const nameInput = document.getElementById("passkey-name");
  return ceremony(button, async () => {
    const options = await post("/admin/api/passkeys/register-options", { invite });
    if (!options.ok) return say(button, options.answer.error ?? button.dataset.failed ?? "");
    const response = await startRegistration({ optionsJSON: options.answer.options });
    const name = nameInput instanceof HTMLInputElement ? nameInput.value : "";
    const done = await post("/admin/api/passkeys/register", { invite, name, response });
    if (!done.ok) return say(button, done.answer.error ?? button.dataset.failed ?? "");
    say(button, button.dataset.done ?? "");
    if (done.answer.codes !== undefined && done.answer.codes.length > 0) showCodes(done.answer.codes, done.answer.next ?? "/admin", button);
    else location.assign(done.answer.next ?? "/admin");
  });
}

function authenticate(button: HTMLButtonElement, kind: "sign-in" | "confirm") {
  return ceremony(button, async () => {
    const options = await post(`/admin/api/${kind}/options`, {});
    if (!options.ok) return say(button, options.answer.error ?? button.dataset.failed ?? "");
    const response = await startAuthentication({ optionsJSON: options.answer.options });
    const done = await post(`/admin/api/${kind}`, { response });
    if (!done.ok) return say(button, done.answer.error ?? button.dataset.failed ?? "");
    say(button, button.dataset.done ?? "");
    if (kind === "confirm") location.reload();
    else location.assign(done.answer.next ?? "/admin");
  });
}

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-passkey]")) {
  // The buttons are in the page without JavaScript, disabled with a note; they come alive here.
  button.disabled = false;
  button.closest("[data-needs-script]")?.querySelector("[data-no-script]")?.remove();
  button.addEventListener("click", () => {
    const kind = button.dataset.passkey;
    if (kind === "register") void register(button);
    if (kind === "sign-in" || kind === "confirm") void authenticate(button, kind);
  });
}

const chart = document.getElementById("revenue-chart");
if (chart !== null) void import("./chart").then(({ drawChart }) => drawChart(chart));
const audienceChart = document.getElementById("audience-chart");
if (audienceChart !== null) void import("./audience-chart").then(({ drawAudienceChart }) => drawAudienceChart(audienceChart));

// A refused form comes back with its problems listed at the top: focus goes there, so that a
// keyboard user reads what went wrong and follows its links to the fields.
document.querySelector<HTMLElement>("[data-focus-on-load]")?.focus();
