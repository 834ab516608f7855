import { afterAll, beforeAll, expect, test } from "bun:test";
import { publish, readPublished } from "../../server/site/content/store";
import { buildSiteFacts } from "../../shared/site-facts";
import { createTestSite, type TestSite } from "../support/app";
import { askThroughEndpoint } from "./questions/ask-through-endpoint";
import { createJudge } from "./questions/judge";

// The offline assistant through POST /api/chat on the kinds of question a new-user trial missed:
// a second question left without its "?", the offer's end named by its day, a refund asked past
// the guarantee, a key not received said in few words, installing on a named TV (from the owner's
// guide, as published), and a question the site has no answer to.

let site: TestSite;
beforeAll(async () => {
  // Each test's conversation comes from its own address, as the per-visitor rate limit is not what these check.
  site = await createTestSite({ env: { TRUST_PROXY: "true" } });
});
afterAll(() => site.close());

test("'are there ads? and does it work offline' gets both facts in one reply", async () => {
  const question = { q: "are there ads? and does it work offline", lang: "en", intent: "ads", also: "offline", no: true } as const;
  const { reply } = await askThroughEndpoint(site.request, question, "198.51.100.21");
  expect(reply).toContain("no ads");
  expect(reply).toContain("Download");
  expect(createJudge(site.config)(question, reply).problems).toEqual([]);
});

test("the offer's end day named in a follow-up ('what happens after dec 12?') gets the offer: its end and the price", async () => {
  const facts = buildSiteFacts(site.content.current().site, "en");
  if (!facts.offer.on) throw new Error("the test site runs an offer");
  // "12 December 2026" -> "dec 12", as a visitor types it.
  const [day = "", month = ""] = facts.offer.endsOn.split(" ");
  const { reply } = await askThroughEndpoint(
    site.request,
    {
      before: ["is there a discount right now?"],
      q: `what happens after ${month.slice(0, 3).toLowerCase()} ${day}?`,
      lang: "en",
      intent: "offer",
    },
    "198.51.100.22",
  );
  expect(reply).toContain(facts.offer.endsOn);
  expect(reply).toContain(facts.price);
});

test("a refund follow-up past the guarantee ('et si ça fait 10 jours ?') gets the 7-day guarantee, the 14-day right and the support address", async () => {
  const { reply } = await askThroughEndpoint(
    site.request,
    { before: ["je peux me faire rembourser ?"], q: "et si ça fait 10 jours ?", lang: "fr", intent: "withdrawal" },
    "198.51.100.23",
  );
  expect(reply).toContain("7 jours");
  expect(reply).toContain("14 jours");
  expect(reply).toContain(site.config.site.supportEmail);
});

test("'non mi è arrivata la chiave' gets the access recovery page and the support address, in Italian", async () => {
  const question = { q: "non mi è arrivata la chiave", lang: "it", intent: "not-received" } as const;
  const { reply } = await askThroughEndpoint(site.request, question, "198.51.100.24");
  expect(reply).toContain("/it/access");
  expect(createJudge(site.config)(question, reply).problems).toEqual([]);
});

test("'when was the last version released', which the site does not say, gets the support address and no other topic's text", async () => {
  const question = { q: "when was the last version released", lang: "en", intent: "unanswerable" } as const;
  const { reply } = await askThroughEndpoint(site.request, question, "198.51.100.25");
  expect(reply).toContain(site.config.site.supportEmail);
  expect(reply).not.toContain("Android");
  const verdict = createJudge(site.config)(question, reply);
  expect(verdict.problems).toEqual([]);
  expect(verdict.handedOver).toBe(true);
});

test("installing on a Samsung TV gets the guide's TV steps as the owner published them, and their new words once changed", async () => {
  const question = { q: "how do I install it on my Samsung TV?", lang: "en", intent: "installation" } as const;
  const before = await askThroughEndpoint(site.request, question, "198.51.100.26");
  expect(before.reply).toContain("Apps on Samsung and LG");
  expect(before.reply).toContain("/en/guide#tv");
  expect(before.reply).not.toContain("Microsoft Store");
  expect(createJudge(site.config)(question, before.reply).problems).toEqual([]);

  // The owner rewrites the TV's first step in the console: the chat quotes the published words.
  const opened = readPublished(site.db);
  const devices = opened.document.guide.devices.map((device) =>
    device.id !== "tv"
      ? device
      : {
          ...device,
          steps: [{ builtIn: null, text: { en: "On a Samsung or LG TV, open Apps and find the search icon." } }, ...device.steps.slice(1)],
        },
  );
  await publish(site.write, {
    document: { ...opened.document, guide: { devices } },
    openedVersion: opened.version,
    by: "test",
    now: new Date(),
  });
  site.content.refresh();
  const after = await askThroughEndpoint(site.request, question, "198.51.100.27");
  expect(after.reply).toContain("On a Samsung or LG TV, open Apps and find the search icon.");
  expect(after.reply).not.toContain("Apps on Samsung and LG");
});
