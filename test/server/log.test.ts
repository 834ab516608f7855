import { expect, test } from "bun:test";
import { configSecrets, createLogger } from "../../server/platform/log";
import { testConfig } from "../support/config";
import { logEntries } from "../support/logs";

const capture = (level: Parameters<typeof createLogger>[0] = "debug", secrets?: string[]) => {
  const lines: string[] = [];
  return { lines, log: createLogger(level, (line) => lines.push(line), { secrets }) };
};

test("each event is one JSON line: level name, ISO time, message and the fields", () => {
  const { lines, log } = capture();
  log.info("listening on http://localhost:3000", { data: "data/site.db", port: 3000 });
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toContain("\n");
  const entry = JSON.parse(lines[0]!);
  expect(entry).toEqual({
    level: "info",
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    msg: "listening on http://localhost:3000",
    data: "data/site.db",
    port: 3000,
  });
  // The e2e harness finds the server's address on standard output with this pattern.
  expect(/listening on (http:\/\/localhost:\d+)/.exec(lines[0]!)?.[1]).toBe("http://localhost:3000");
});

test("events below the level are not written; silent writes nothing", () => {
  const warn = capture("warn");
  warn.log.debug("d");
  warn.log.info("i");
  warn.log.warn("w");
  warn.log.error("e");
  expect(logEntries(warn.lines).map((e) => [e.level, e.msg])).toEqual([
    ["warn", "w"],
    ["error", "e"],
  ]);
  const silent = capture("silent");
  silent.log.error("nothing");
  expect(silent.lines).toEqual([]);
});

test("e-mail addresses are masked in the message and in every string field, however deep", () => {
  const { lines, log } = capture();
  log.info("lead jane.doe@example.com signed up", {
    email: "jane.doe@example.com",
    to: ["a@b.example.org"],
    detail: { note: "reply to Bob.Smith+tag@mail.example.co.uk" },
  });
  const line = lines[0]!;
  expect(line).not.toMatch(/jane\.doe|Bob\.Smith|"a@b/);
  const entry = JSON.parse(line);
  expect(entry.msg).toBe("lead j***@example.com signed up");
  expect(entry.email).toBe("j***@example.com");
  expect(entry.to).toEqual(["a***@b.example.org"]);
  expect(entry.detail.note).toBe("reply to B***@mail.example.co.uk");
});

test("secrets never reach the log: fields named like one, configured values, keys and passwords in URLs", () => {
  const config = testConfig(
    {
      STRIPE_SECRET_KEY: "sk_live_51ABCDEFabcdef0123456789",
      STRIPE_WEBHOOK_SECRET: "whsec_0123456789abcdefABCDEF",
      ANTHROPIC_API_KEY: "sk-ant-api03-0123456789abcdef",
      SMTP_URL: "smtps://mailer:Tr0ub4dor%263@smtp.example.com:465",
      IP_HASH_SECRET: "0123456789abcdef0123456789abcdef",
    },
    "/tmp/unused",
  );
  const secrets = configSecrets(config);
  expect(secrets).toContain("Tr0ub4dor&3");
  const { lines, log } = capture("debug", secrets);
  log.error("provider failed", {
    password: "hunter2",
    nested: { apiKey: "anything", token: "abc" },
    error: `auth with sk_live_51ABCDEFabcdef0123456789 and sk-ant-api03-0123456789abcdef refused (whsec_0123456789abcdefABCDEF)`,
    smtp: "connect smtps://mailer:Tr0ub4dor%263@smtp.example.com:465 failed; password Tr0ub4dor&3",
    hash: "keyed with 0123456789abcdef0123456789abcdef",
    license: "key ABCDE-23456-FGHJK-MNPQR-STUVW sent",
    other: "sk_test_zzzzzzzzzzzz rk_live_yyyyyyyyyyyy",
  });
  const line = lines[0]!;
  for (const secret of [
    "hunter2",
    "anything",
    '"abc"',
    "sk_live_51",
    "sk-ant-api03",
    "whsec_0123",
    "Tr0ub4dor",
    "0123456789abcdef0123456789abcdef",
    "ABCDE-23456",
    "sk_test_z",
    "rk_live_y",
  ]) {
    expect(line).not.toContain(secret);
  }
  const entry = JSON.parse(line);
  expect(entry.password).toBe("[redacted]");
  expect(entry.nested).toEqual({ apiKey: "[redacted]", token: "[redacted]" });
  expect(entry.smtp).toContain("smtps://mailer:***@smtp.example.com:465");
  expect(entry.license).toBe("key [redacted] sent");
});

test("a field JSON cannot write (a big integer, a loop deeper than masking copies) still gives its one line", () => {
  const { lines, log } = capture();
  const loop: Record<string, unknown> = { name: "loop" };
  let deep: Record<string, unknown> = loop;
  for (let i = 0; i < 8; i++) deep = { inner: deep };
  loop.self = loop;
  log.warn("odd fields", { count: 12345678901234567890n, deep });
  expect(lines).toHaveLength(1);
  const entry = JSON.parse(lines[0]!);
  expect(entry).toMatchObject({ level: "warn", msg: "odd fields", count: "12345678901234567890" });
  expect(lines[0]).toContain('"self":"[Circular]"');
});
