import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { licenses } from "../../db/schema";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard, testClock } from "../support/purchase";

// docs/licenses.md shows the app's offline check in TypeScript. This runs that very code, as the
// app's developer would copy it, against a site's real tokens and JWKS.

const ROOT = join(import.meta.dir, "..", "..");
const BASE = "https://shop.example";
const DAY = 24 * 60 * 60 * 1000;

type OfflineCheck = (token: string, jwks: unknown, myInstanceId: string) => Promise<Record<string, unknown> | null>;

/** The documentation's example as a module: its placeholder address set to the site's, `jose` found in this checkout. */
async function documentedCheck(): Promise<{ licenceOffline: OfflineCheck; cleanup: () => void }> {
  const doc = readFileSync(join(ROOT, "docs", "licenses.md"), "utf8");
  const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  expect(blocks).toHaveLength(1);
  const code = blocks[0] ?? "";
  expect(code).toContain('"https://your-site"');
  const dir = mkdtempSync(join(tmpdir(), "licence-doc-"));
  const file = join(dir, "offline.ts");
  writeFileSync(
    file,
    code
      .replaceAll('"https://your-site"', JSON.stringify(BASE))
      .replace('from "jose"', `from ${JSON.stringify(Bun.resolveSync("jose", ROOT))}`),
  );
  const module: { licenceOffline: OfflineCheck } = await import(file);
  return { licenceOffline: module.licenceOffline, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

test("the offline check of docs/licenses.md accepts the site's token for its own instance, and nothing else", async () => {
  const clock = testClock();
  const s = (site = await createTestSite({ env: { PUBLIC_BASE_URL: BASE, LICENSE_TOKEN_DAYS: "3" }, now: clock.now }));
  const { licenceOffline, cleanup } = await documentedCheck();
  try {
    await payWithTestCard(s, { locale: "en", email: "developer@example.com" });
    const key = s.db.select().from(licenses).get()?.key ?? "";
    const activate = async () => {
      const response = await s.request("/api/licenses/activate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key, instanceName: "Living-room TV" }),
      });
      return (await response.json()) as { instanceId: string; token: string };
    };
    const { instanceId, token } = await activate();
    const jwks = await (await s.request("/.well-known/jwks.json")).json();

    expect(await licenceOffline(token, jwks, instanceId)).toMatchObject({ sub: instanceId, status: "active", activationLimit: 5 });
    // Another installation's token, a token altered by one character, a JWKS without the site's key.
    expect(await licenceOffline(token, jwks, "ins_another000000000000000")).toBeNull();
    const altered = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(await licenceOffline(altered, jwks, instanceId)).toBeNull();
    expect(await licenceOffline(token, { keys: [] }, instanceId)).toBeNull();

    // A token issued 4 days ago with LICENSE_TOKEN_DAYS=3 has expired on the app's own clock.
    clock.advance(-4 * DAY);
    const old = await activate();
    expect(await licenceOffline(old.token, jwks, old.instanceId)).toBeNull();
  } finally {
    cleanup();
  }
});
