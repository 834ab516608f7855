import { expect, test } from "bun:test";
import { serveOptions } from "../../server/platform/http/serve-options";
import { createLogger } from "../../server/platform/log";
import { logEntries } from "../support/logs";

// What Bun.serve itself is given, whichever way the server is started.

test("Bun's development error page (the server's source code) is never used, and an escaped error is a plain 500 with the site's headers", async () => {
  const lines: string[] = [];
  const options = serveOptions(createLogger("debug", (line) => lines.push(line)));
  expect(options.development).toBe(false);
  const response = options.error(new Error("boom at /srv/site/server/secret.ts:12"));
  expect(response.status).toBe(500);
  expect(await response.json()).toEqual({ error: "Internal error" });
  expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
  expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
  expect(logEntries(lines).some((e) => e.level === "error" && e.msg === "unhandled server error" && String(e.error).includes("boom"))).toBe(
    true,
  );
});
