import { expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { PasskeyButton } from "../../server/owner/console/views/layout";
import { COMPILED } from "../../server/site/locales";
import { createTranslator } from "../../shared/i18n";
import { useDom } from "../support/dom";

useDom();
// Loaded here, as the other component tests do: the cleanup after each test uses it.
await import("@testing-library/react");

// Browsers offer passkeys only over HTTPS or on localhost. An owner trying production under a
// made-up name over plain http (http://shop.test:3000) pressed the invite's button and read "The
// passkey could not be checked. Try again.", which no retry could fix. The page says why instead,
// and asks the browser nothing.

test("on a page that is no secure context, the passkey button says passkeys need HTTPS and starts no ceremony", async () => {
  const t = createTranslator("en", COMPILED.en, { siteName: "Lifetime Stream" });
  document.body.innerHTML = renderToStaticMarkup(<PasskeyButton t={t} kind="register" label="Create my passkey" invite="abc" />);
  Object.defineProperty(window, "isSecureContext", { value: false, configurable: true });
  const asked: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    asked.push(String(input));
    return new Response("{}", { status: 500 });
  }) as typeof fetch;
  try {
    await import("../../client/admin/entry");
    const button = document.querySelector<HTMLButtonElement>("button[data-passkey]");
    expect(button?.disabled).toBe(false);
    button?.click();
    await Bun.sleep(0);
    expect(document.getElementById("console-status")?.textContent).toBe(
      "Passkeys work only over HTTPS (or on localhost), and this page was opened over plain http: open the console at its https:// address.",
    );
    expect(asked).toEqual([]);
  } finally {
    globalThis.fetch = realFetch;
  }
});
