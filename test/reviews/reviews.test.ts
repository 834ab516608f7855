import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { licenses, mailOutbox, orders, ownerActivity, reviewInvites, reviews } from "../../db/schema";
import { mailLinks } from "../../server/shop/licenses/tokens";
import { composeMail } from "../../server/shop/mail/compose";
import { runReviewCheck } from "../../server/shop/reviews/invites";
import { reviewCapability } from "../../server/shop/reviews/links";
import { ownerCookie } from "../console/owner";
import { createTestSite, SITE_SECRET, type TestSite } from "../support/app";
import { PRODUCTION_READY_ENV } from "../support/production-env";
import { payWithTestCard, testClock } from "../support/purchase";

// Reviews from verified buyers (docs/reviews.md): one invitation REVIEW_INVITE_DAYS after a paid,
// activated, unrefunded order; the review posted from the order's link (a plain form: what a
// browser without JavaScript sends); the owner publishes it; the landing pages show it.

const DAY = 24 * 60 * 60 * 1000;
const FORM = { "content-type": "application/x-www-form-urlencoded" };
let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function shop(env: Record<string, string> = {}) {
  const clock = testClock();
  site = await createTestSite({ env, now: clock.now });
  return { s: site, clock };
}

async function buy(s: TestSite, email: string, options: { locale?: string; name?: string } = {}) {
  await payWithTestCard(s, { locale: options.locale ?? "en", email, name: options.name ?? "Ana Lopez", city: "Sevilla" });
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, email)).get();
  if (order === undefined) throw new Error("no order");
  const license = s.db.select().from(licenses).where(eq(licenses.orderId, order.id)).get();
  return { order, key: license?.key ?? "" };
}

const activate = (s: TestSite, key: string) =>
  s.request("/api/licenses/activate", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, instanceName: "Living-room TV" }),
  });

const check = (s: TestSite, clock: ReturnType<typeof testClock>) =>
  runReviewCheck({ db: s.db, write: s.write, config: s.config, now: clock.now });

const invitesIn = (s: TestSite) => s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "review-invite")).all();

const reviewForm = (order: string, k: string, fields: Record<string, string>) =>
  new URLSearchParams({ order, k, locale: "en", ...fields }).toString();

const GOOD = {
  rating: "4",
  text: "Set up on the TV in five minutes, works offline on the train.",
  nameStyle: "first-initial",
  city: "Sevilla",
  consent: "yes",
};

test("a paid order, activated, 7 days later: exactly one invitation, then the review, the owner's publish and the landing pages", async () => {
  const { s, clock } = await shop();
  const { order, key } = await buy(s, "ana@example.com");
  // Before its licence is used: no invitation, however long after.
  clock.advance(8 * DAY);
  expect(await check(s, clock)).toMatchObject({ invited: 0 });
  expect((await activate(s, key)).status).toBe(201);
  expect(await check(s, clock)).toMatchObject({ invited: 1 });
  // Never twice, whoever looks again.
  expect(await check(s, clock)).toMatchObject({ invited: 0 });
  clock.advance(30 * DAY);
  expect(await check(s, clock)).toMatchObject({ invited: 0 });
  const invites = invitesIn(s);
  expect(invites.map((row) => [row.recipient, row.locale])).toEqual([["ana@example.com", "en"]]);

  // The e-mail in the order's language, with the review link and a one-click stop.
  const links = mailLinks(s.licenseKeys, s.config.publicBaseUrl, clock.now, SITE_SECRET);
  const row = invites[0];
  if (row === undefined) throw new Error("no invitation");
  const mail = await composeMail(row, s.config, s.content.current(), undefined, links);
  const k = reviewCapability(SITE_SECRET, order.reference, "review");
  expect(mail?.subject).toContain("How is");
  expect(mail?.text).toContain(`/en/mon-avis?order=${order.reference}&k=${k}`);
  expect(mail?.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

  // The review page from the link; a bad post stores nothing and says which field is wrong.
  const page = await s.request(`/en/mon-avis?order=${order.reference}&k=${k}`);
  expect(page.status).toBe(200);
  expect(page.headers.get("cache-control")).toBe("no-store");
  expect(await page.text()).toContain("Ana L.");
  const bad = await s.request("/api/reviews", {
    method: "POST",
    headers: FORM,
    body: reviewForm(order.reference, k, { ...GOOD, text: "Too short", consent: "" }),
  });
  // Post/Redirect/Get: back to the review page (a GET: a reload posts nothing), errors shown, the typed text kept.
  expect(bad.status).toBe(303);
  const badLocation = bad.headers.get("location") ?? "";
  expect(badLocation.startsWith(`/en/mon-avis?order=${order.reference}&k=${k}&status=invalid&`)).toBe(true);
  const badGet = await s.request(badLocation);
  expect(badGet.status).toBe(200);
  const badPage = await badGet.text();
  expect(badPage).toContain("Write at least 20 characters.");
  expect(badPage).toContain("Tick the box to agree");
  expect(badPage).toContain(">Too short</textarea>");
  // Reloaded: the same page again, still nothing stored.
  expect(await (await s.request(badLocation)).text()).toContain("Write at least 20 characters.");
  expect(s.db.select().from(reviews).all()).toEqual([]);
  const posted = await s.request("/api/reviews", { method: "POST", headers: FORM, body: reviewForm(order.reference, k, GOOD) });
  expect(posted.status).toBe(303);
  expect(posted.headers.get("location")).toBe(`/en/mon-avis?order=${order.reference}&k=${k}&status=saved`);
  const stored = s.db.select().from(reviews).all();
  expect(stored.map((r) => [r.status, r.rating, r.displayName, r.city, r.locale])).toEqual([["pending", 4, "Ana L.", "Sevilla", "en"]]);

  // Waiting for the owner: not on the pages yet.
  expect(await (await s.request("/en")).text()).not.toContain("works offline on the train");
  const cookie = await ownerCookie(s);
  const console = await (await s.request("/admin/reviews", { headers: { cookie } })).text();
  expect(console).toContain("works offline on the train");
  const publish = await s.request(`/admin/reviews/${stored[0]?.id}/publish`, { method: "POST", headers: { cookie, ...FORM }, body: "" });
  expect(publish.status).toBe(303);
  expect(s.db.select().from(ownerActivity).where(eq(ownerActivity.action, "review-published")).all().length).toBe(1);

  // Another process sees the new stamp at its next look (test: now); the pages' bytes change.
  s.content.refresh();
  for (const path of ["/", "/en"]) {
    const html = await (await s.request(path)).text();
    expect({ path, shown: html.includes("works offline on the train") }).toEqual({ path, shown: true });
    // The pages' typesetting puts narrow no-break spaces before French colons.
    expect(html).toMatch(/data-testid="reviews-count"[^>]*>(1[\s\u00a0\u202f]avis publié|1 published review)</);
    expect(html).toMatch(
      /data-testid="reviews-average"[^>]*>(Note moyenne[\s\u00a0\u202f]: 4,0[\s\u00a0\u202f]sur 5|Average rating: 4\.0 out of 5)</,
    );
    expect(html).toMatch(/Achat vérifié|Verified purchase/);
    // The section's heading as a French reader expects it above several reviews (not "L'avis").
    expect(html).toMatch(/id="reviews-title"[^>]*>(Ce qu(&#x27;|'|’)en disent nos acheteurs|What our buyers say)</);
    expect(html).toContain('"aggregateRating":{"@type":"AggregateRating","ratingValue":4,"reviewCount":1');
  }
  // On the French page an English review says its language.
  expect(await (await s.request("/")).text()).toContain("Avis rédigé en anglais");
});

test("a refused review is not shown, and its author gets the reason by e-mail", async () => {
  const { s, clock } = await shop();
  const { order } = await buy(s, "bob@example.com", { name: "Bob Martin" });
  const k = reviewCapability(SITE_SECRET, order.reference, "review");
  await s.request("/api/reviews", {
    method: "POST",
    headers: FORM,
    body: reviewForm(order.reference, k, { ...GOOD, text: "Call me on 06 12 34 56 78 for a cheap deal!!" }),
  });
  const [review] = s.db.select().from(reviews).all();
  const cookie = await ownerCookie(s);
  const refused = await s.request(`/admin/reviews/${review?.id}/refuse`, {
    method: "POST",
    headers: { cookie, ...FORM },
    body: "reason=personal-data",
  });
  expect(refused.status).toBe(303);
  const mails = s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "review-refused")).all();
  expect(mails.map((m) => m.recipient)).toEqual(["bob@example.com"]);
  const mail = await composeMail(
    mails[0] ?? mails[0]!,
    s.config,
    s.content.current(),
    undefined,
    mailLinks(s.licenseKeys, s.config.publicBaseUrl, clock.now, SITE_SECRET),
  );
  expect(mail?.text).toContain("Personal data (yours or someone else's)");
  s.content.refresh();
  expect(await (await s.request("/en")).text()).not.toContain("cheap deal");
  // A reason the law does not list is refused, and changes nothing.
  const odd = await s.request(`/admin/reviews/${review?.id}/refuse`, {
    method: "POST",
    headers: { cookie, ...FORM },
    body: "reason=negative",
  });
  expect(odd.status).toBe(400);

  // The activity log: the decision in the owner's words, with links to the review and its order.
  await s.request(`/admin/reviews/${review?.id}/reply`, {
    method: "POST",
    headers: { cookie, ...FORM },
    body: "reply=Thank you, write to support and we will help.",
  });
  const log = await (await s.request("/admin/activity", { headers: { cookie, "accept-language": "fr" } })).text();
  const rows = log.split("<tr>");
  expect(rows[2]).toContain("Réponse à un avis");
  expect(rows[2]).toContain("réponse : “Thank you, write to support and we will help.”");
  expect(rows[3]).toContain("Avis refusé");
  expect(rows[3]).toContain(`<a href="/admin/reviews#review-${review?.id}">Avis n° ${review?.id}</a>`);
  expect(rows[3]).toContain(`<a href="/admin/orders/${order.id}">commande ${order.reference}</a>`);
  expect(rows[3]).toContain("motif : Données personnelles");
  expect(log).not.toContain("personal-data");
  expect(await (await s.request("/admin/reviews", { headers: { cookie } })).text()).toContain(`id="review-${review?.id}"`);
});

test("no invitation for a refunded order nor for a licence never activated; the stop link stops them", async () => {
  const { s, clock } = await shop({ REVIEW_INVITE_DAYS: "0" });
  const refunded = await buy(s, "refund@example.com");
  await activate(s, refunded.key);
  await s.write((tx) =>
    tx.update(orders).set({ status: "refunded", refundedAt: clock.now() }).where(eq(orders.id, refunded.order.id)).run(),
  );
  await buy(s, "idle@example.com");
  const stopped = await buy(s, "stop@example.com");
  await activate(s, stopped.key);
  // The stop link (from an earlier e-mail): a GET only asks, the POST stops.
  const stopK = reviewCapability(SITE_SECRET, stopped.order.reference, "review-stop");
  const ask = await s.request(`/reviews/stop?order=${stopped.order.reference}&k=${stopK}&lang=en`);
  expect(ask.status).toBe(200);
  expect(s.db.select().from(reviewInvites).all()).toEqual([]);
  const stop = await s.request(`/reviews/stop?order=${stopped.order.reference}&k=${stopK}&lang=en`, {
    method: "POST",
    headers: FORM,
    body: "List-Unsubscribe=One-Click",
  });
  expect(stop.status).toBe(200);
  expect(await stop.text()).toContain("we will not invite you to review again");
  // REVIEW_INVITE_DAYS=0: the next look after the first activation.
  const ok = await buy(s, "ok@example.com");
  await activate(s, ok.key);
  expect(await check(s, clock)).toMatchObject({ invited: 1 });
  expect(invitesIn(s).map((row) => row.recipient)).toEqual(["ok@example.com"]);
});

test("a guessed or another order's review link is refused and stores nothing", async () => {
  const { s } = await shop();
  const mine = await buy(s, "me@example.com");
  const other = await buy(s, "other@example.com");
  const otherK = reviewCapability(SITE_SECRET, other.order.reference, "review");
  // Another order's key with my reference, a made-up key, a reference alone.
  for (const [order, k] of [
    [mine.order.reference, otherK],
    [mine.order.reference, "AAAAAAAAAAAAAAAAAAAAAA"],
    [mine.order.reference, ""],
  ] as const) {
    const page = await s.request(`/en/mon-avis?order=${order}&k=${k}`);
    expect({ k, status: page.status }).toEqual({ k, status: 404 });
    const post = await s.request("/api/reviews", { method: "POST", headers: FORM, body: reviewForm(order, k, GOOD) });
    if (k === "") {
      // A post no page's form sends goes back to the review page, which says the link is not valid.
      const location = post.headers.get("location") ?? "";
      expect({ status: post.status, location }).toEqual({ status: 303, location: expect.stringContaining("/en/mon-avis?") });
      expect((await s.request(location)).status).toBe(404);
    } else expect({ k, status: post.status }).toEqual({ k, status: 403 });
  }
  expect(s.db.select().from(reviews).all()).toEqual([]);
});

test("production with no published review shows no rating, no count, no sample, and JSON-LD without a rating", async () => {
  const { s } = await shop({ ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" });
  for (const path of ["/", "/en", "/it", "/es"]) {
    const html = await (await s.request(path)).text();
    expect({
      path,
      section: html.includes('id="reviews"'),
      sample: html.includes("review-sample"),
      count: html.includes("reviews-count"),
      jsonLd: html.includes('"@type":"Product"'),
      rating: html.includes("aggregateRating"),
    }).toEqual({ path, section: false, sample: false, count: false, jsonLd: true, rating: false });
  }
  // The page saying how reviews are checked exists in every language.
  for (const path of ["/avis", "/en/avis", "/it/avis", "/es/avis"])
    expect({ path, status: (await s.request(path)).status }).toEqual({ path, status: 200 });
});

test("the buyer edits (back to moderation, off the pages) and deletes the review from the same link", async () => {
  const { s } = await shop();
  const { order } = await buy(s, "ed@example.com", { name: "Édouard Bernard" });
  const k = reviewCapability(SITE_SECRET, order.reference, "review");
  await s.request("/api/reviews", {
    method: "POST",
    headers: FORM,
    body: reviewForm(order.reference, k, { ...GOOD, nameStyle: "initials" }),
  });
  const [review] = s.db.select().from(reviews).all();
  expect(review?.displayName).toBe("É. B.");
  const cookie = await ownerCookie(s);
  await s.request(`/admin/reviews/${review?.id}/publish`, { method: "POST", headers: { cookie, ...FORM }, body: "" });
  s.content.refresh();
  expect(await (await s.request("/en")).text()).toContain("works offline on the train");
  await s.request("/api/reviews", {
    method: "POST",
    headers: FORM,
    body: reviewForm(order.reference, k, { ...GOOD, text: "Edited: still works offline, support answered fast." }),
  });
  s.content.refresh();
  const after = await (await s.request("/en")).text();
  expect(after).not.toContain("works offline on the train");
  expect(after).not.toContain("Edited: still works");
  expect(
    s.db
      .select()
      .from(reviews)
      .all()
      .map((r) => r.status),
  ).toEqual(["pending"]);
  const deleted = await s.request("/api/reviews/delete", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ order: order.reference, k, locale: "en" }).toString(),
  });
  expect(deleted.status).toBe(303);
  expect(s.db.select().from(reviews).all()).toEqual([]);
});

test("the receipt page and the devices page offer the order's review link", async () => {
  const { s, clock } = await shop();
  const { successPath } = await payWithTestCard(s, { locale: "en", email: "rec@example.com", name: "Rita Costa", city: "Porto" });
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, "rec@example.com")).get();
  const k = reviewCapability(SITE_SECRET, order?.reference ?? "", "review");
  const receipt = await (await s.request(successPath)).text();
  expect(receipt).toMatch(new RegExp(`data-testid="review-link"|href="/en/mon-avis\\?order=${order?.reference}&amp;k=${k}"`));
  expect(receipt).toContain(`/en/mon-avis?order=${order?.reference}&amp;k=${k}`);
  const devicesUrl = await mailLinks(s.licenseKeys, "", clock.now, SITE_SECRET).devices(order?.reference ?? "", "en");
  const devices = await (await s.request(devicesUrl)).text();
  expect(devices).toContain(`/en/mon-avis?order=${order?.reference}&amp;k=${k}`);
});

test("production with the test checkout: no invitation, the review page refuses, a test order's review is never public nor counted, the console marks it TEST", async () => {
  const { s, clock } = await shop({ ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true", REVIEW_INVITE_DAYS: "0" });
  const { successPath } = await payWithTestCard(s, { locale: "en", email: "tester@example.com", name: "Tess Ter", city: "Sevilla" });
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, "tester@example.com")).get();
  if (order === undefined) throw new Error("no order");
  const key = s.db.select().from(licenses).where(eq(licenses.orderId, order.id)).get()?.key ?? "";
  expect(order.provider).toBe("test");
  // Neither its receipt nor its devices page offers a review that would be refused.
  const receipt = await (await s.request(successPath)).text();
  expect(receipt).toContain(order.reference);
  expect(receipt).not.toContain("/en/mon-avis?");
  const devicesUrl = await mailLinks(s.licenseKeys, "", clock.now, SITE_SECRET).devices(order.reference, "en");
  const devices = await (await s.request(devicesUrl)).text();
  expect(devices).toContain("My devices");
  expect(devices).not.toContain("/en/mon-avis?");
  expect((await activate(s, key)).status).toBe(201);
  clock.advance(8 * DAY);
  // Activated, paid long ago: still no invitation, since nobody paid anything.
  expect(await check(s, clock)).toMatchObject({ invited: 0 });
  expect(invitesIn(s)).toEqual([]);

  // The link (from the receipt or devices page) says reviews come from real purchases, and a post stores nothing.
  const k = reviewCapability(SITE_SECRET, order.reference, "review");
  const page = await s.request(`/en/mon-avis?order=${order.reference}&k=${k}`);
  expect(page.status).toBe(200);
  const text = await page.text();
  expect(text).toContain("Reviews come from real purchases only.");
  expect(text).not.toContain('name="rating"');
  const posted = await s.request("/api/reviews", { method: "POST", headers: FORM, body: reviewForm(order.reference, k, GOOD) });
  expect(posted.status).toBe(403);
  expect(await posted.text()).toContain("Reviews come from real purchases only.");
  expect(s.db.select().from(reviews).all()).toEqual([]);

  // A review of a test order already in the database (written before, or published by hand in SQL):
  // never on the pages, nor in the count, the average or the JSON-LD.
  const now = clock.now();
  s.db
    .insert(reviews)
    .values({
      orderId: order.id,
      locale: "en",
      rating: 5,
      text: "Brilliant, a review nobody paid for at all.",
      displayName: "Tess T.",
      nameStyle: "first-initial",
      status: "published",
      consentAt: now,
      createdAt: now,
      updatedAt: now,
      publishedAt: now,
    })
    .run();
  s.content.refresh();
  for (const path of ["/", "/en"]) {
    const html = await (await s.request(path)).text();
    expect({
      path,
      shown: html.includes("nobody paid for"),
      rated: html.includes("aggregateRating"),
      verified: /Achat vérifié|Verified purchase/.test(html),
    }).toEqual({
      path,
      shown: false,
      rated: false,
      verified: false,
    });
  }

  // The console marks it TEST and offers no publish; publishing is refused.
  const cookie = await ownerCookie(s);
  const stored = s.db.select().from(reviews).get();
  await s.request(`/admin/reviews/${stored?.id}/refuse`, { method: "POST", headers: { cookie, ...FORM }, body: "reason=unrelated" });
  const console = await (await s.request("/admin/reviews", { headers: { cookie } })).text();
  expect(console).toContain("data-test-order");
  expect(console).not.toContain(`/admin/reviews/${stored?.id}/publish`);
  const publish = await s.request(`/admin/reviews/${stored?.id}/publish`, { method: "POST", headers: { cookie, ...FORM }, body: "" });
  expect(publish.status).toBe(409);
  expect(s.db.select().from(reviews).get()?.status).toBe("refused");
});

test("no language file keeps the texts of the specification's invented testimonials section", async () => {
  for (const locale of ["fr", "en", "it", "es"]) {
    const texts: Record<string, string> = await Bun.file(`locales/${locale}.json`).json();
    expect({ locale, keys: Object.keys(texts).filter((key) => /^testimonial(s|\d)/.test(key)) }).toEqual({ locale, keys: [] });
  }
});
