import { afterAll, expect, test } from "bun:test";
import { GlobalRegistrator } from "@happy-dom/global-registrator";

// No component here: happy-dom's window alone (support/dom.ts also brings Testing Library).
const registeredHere = !GlobalRegistrator.isRegistered;
if (registeredHere) GlobalRegistrator.register({ url: "http://localhost:3000/" });
afterAll(async () => {
  if (registeredHere) await GlobalRegistrator.unregister();
});
const { carryParams } = await import("../../client/carry-params");

// `?code=` and `?ref=` arrive on any page; the page's script keeps them in the site's own links so
// that they reach the payment page (pages are the same bytes for all, and no cookie holds them).

test("a code and a partner in the address are kept in the site's links to other pages, not in other sites' links or the console's", () => {
  window.history.replaceState(null, "", "/?code=Spring20&ref=blog-anna&utm_source=x");
  document.body.innerHTML = `
    <a id="pay" href="/paiement">Pay</a>
    <a id="guide" href="/en/guide#tv">Guide</a>
    <a id="own" href="/paiement?code=OTHER">Own code</a>
    <a id="away" href="https://elsewhere.example/">Away</a>
    <a id="admin" href="/admin">Console</a>
    <a id="file" href="/assets/app.apk">Download</a>`;
  carryParams();
  const href = (id: string) => document.getElementById(id)?.getAttribute("href");
  expect(href("pay")).toBe("/paiement?code=Spring20&ref=blog-anna");
  expect(href("guide")).toBe("/en/guide?code=Spring20&ref=blog-anna#tv");
  expect(href("own")).toBe("/paiement?code=OTHER&ref=blog-anna");
  expect(href("away")).toBe("https://elsewhere.example/");
  expect(href("admin")).toBe("/admin");
  expect(href("file")).toBe("/assets/app.apk");
});

test("without either in the address, no link changes", () => {
  window.history.replaceState(null, "", "/en?utm_source=news");
  document.body.innerHTML = `<a id="pay" href="/en/paiement">Pay</a>`;
  carryParams();
  expect(document.getElementById("pay")?.getAttribute("href")).toBe("/en/paiement");
});
