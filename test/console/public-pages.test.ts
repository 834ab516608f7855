import { expect, test } from "bun:test";
import { LOCALES } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { createTestSite } from "../support/app";
import { ownerCookie } from "./owner";

test("public pages set no cookie, name nothing of the console, and keep their bytes once the owner has signed in", async () => {
  const site = await createTestSite();
  try {
    const paths = [...LOCALES.flatMap((l) => PAGE_IDS.map((p) => pathFor(p, l))), "/robots.txt", "/api/social-proof"];
    const fetchAll = async (cookie?: string) => {
      const bodies = new Map<string, string>();
      for (const path of paths) {
        const response = await site.request(path, { headers: cookie === undefined ? {} : { cookie } });
        expect({ path, cookie: response.headers.get("set-cookie") }).toEqual({ path, cookie: null });
        bodies.set(path, await response.text());
      }
      return bodies;
    };
    const before = await fetchAll();
    for (const [path, body] of before)
      if (path !== "/robots.txt") expect({ path, admin: body.includes("/admin") }).toEqual({ path, admin: false });
    const cookie = await ownerCookie(site);
    // The owner's own browser (which sends the console cookie on "/" over HTTPS) gets the same bytes as anyone.
    const after = await fetchAll(cookie.replace(/^owner=/, "__Host-owner="));
    const afterPlain = await fetchAll(cookie);
    for (const path of paths) {
      expect({ path, same: after.get(path) === before.get(path) }).toEqual({ path, same: true });
      expect({ path, same: afterPlain.get(path) === before.get(path) }).toEqual({ path, same: true });
    }
  } finally {
    await site.close();
  }
});
