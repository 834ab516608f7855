import { afterEach, expect, test } from "bun:test";
import { runCommand } from "../../server/owner/cli";
import { createTestSite, type TestSite } from "../support/app";

// Each demo request records where it was made, so the owner can tell which form brings leads: the
// timed popup (the specification's `exit_popup`) or the form at the end of the landing page.

const sites: TestSite[] = [];
afterEach(() => {
  for (const site of sites.splice(0)) site.close();
});
async function site() {
  const s = await createTestSite();
  sites.push(s);
  return s;
}

type Row = { email: string; source: string };
const rows = (s: TestSite) => s.db.$client.query<Row, []>("SELECT email, source FROM email_leads ORDER BY id").all();
const demoMails = (s: TestSite) =>
  s.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM mail_outbox WHERE kind = 'demo'").get()?.n;

const postJson = (s: TestSite, body: unknown) =>
  s.request("/api/leads", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const postForm = (s: TestSite, fields: Record<string, string>) =>
  s.request("/api/leads", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

test("a request from the popup is stored as exit_popup, one from the landing page's form as landing_form", async () => {
  const s = await site();
  expect((await postJson(s, { email: "popup@example.com", source: "exit_popup", ip_hash: null })).status).toBe(201);
  expect((await postJson(s, { email: "form@example.com", source: "landing_form", ip_hash: null, locale: "it" })).status).toBe(201);
  // Without JavaScript the landing page's form posts its source as a field.
  expect((await postForm(s, { email: "plain@example.com", source: "landing_form", locale: "fr" })).status).toBe(303);
  expect(rows(s)).toEqual([
    { email: "popup@example.com", source: "exit_popup" },
    { email: "form@example.com", source: "landing_form" },
    { email: "plain@example.com", source: "landing_form" },
  ]);
});

test("an unknown source is refused with 400 and stores nothing", async () => {
  const s = await site();
  const res = await postJson(s, { email: "x@example.com", source: "footer", ip_hash: null });
  expect(res.status).toBe(400);
  expect(rows(s)).toEqual([]);
});

test("one address asking from both forms is one lead, keeps the source of its first request, and gets one demo", async () => {
  const s = await site();
  expect((await postJson(s, { email: "both@example.com", source: "exit_popup", ip_hash: null })).status).toBe(201);
  expect((await postJson(s, { email: "both@example.com", source: "landing_form", ip_hash: null })).status).toBe(201);
  expect(rows(s)).toEqual([{ email: "both@example.com", source: "exit_popup" }]);
  expect(demoMails(s)).toBe(1);
});

test("the leads export shows where each request was made", async () => {
  const s = await site();
  await postJson(s, { email: "popup@example.com", source: "exit_popup", ip_hash: null });
  await postJson(s, { email: "form@example.com", source: "landing_form", ip_hash: null });
  const out: string[] = [];
  expect(
    await runCommand(
      ["leads", "export"],
      s.config,
      (chunk) => out.push(chunk),
      () => {},
    ),
  ).toBe(0);
  const [header, ...lines] = out.join("").trim().split("\n");
  expect(header?.split(",")).toContain("source");
  expect(lines.map((line) => line.split(",").slice(1, 3))).toEqual([
    ["popup@example.com", "exit_popup"],
    ["form@example.com", "landing_form"],
  ]);
});
