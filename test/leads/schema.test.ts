import { expect, test } from "bun:test";
import * as v from "valibot";
import { checkLeadEmail, emailIssueKey, LeadSchema } from "../../shared/schemas/leads";

const parse = (value: unknown) => v.safeParse(LeadSchema, value);
const firstMessage = (value: unknown) => {
  const result = parse(value);
  return result.success ? null : result.issues[0].message;
};
const lead = (email: unknown) => ({ email, source: "exit_popup", ip_hash: null });

test("the address is trimmed and lowercased", () => {
  const result = parse(lead("  Jean.Dupont@Example.FR \n"));
  expect(result.success).toBe(true);
  if (result.success) expect(result.output.email).toBe("jean.dupont@example.fr");
});

test("the spec's three-field payload is accepted and the locale defaults to French", () => {
  const result = parse(lead("a@b.co"));
  expect(result.success && result.output).toEqual({ email: "a@b.co", source: "exit_popup", ip_hash: null, locale: "fr" });
});

test("5 characters is the shortest address accepted, counted after trimming", () => {
  expect(parse(lead("a@b.c")).success).toBe(false); // a one-letter TLD is not a valid address anyway
  expect(parse(lead("a@b.co")).success).toBe(true);
  // Too short to be an address is first of all not an address: the message says so.
  expect(firstMessage(lead("a@b"))).toBe("Invalid email address");
  expect(firstMessage(lead("  a@b  "))).toBe("Invalid email address");
});

test("255 characters is the longest address accepted", () => {
  const at255 = `${"a".repeat(60)}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.${"e".repeat(8)}.fr`;
  expect(at255.length).toBe(255);
  expect(parse(lead(at255)).success).toBe(true);
  const at256 = `x${at255}`;
  expect(firstMessage(lead(at256))).toBe("Email too long");
  // Surrounding spaces do not count.
  expect(parse(lead(`   ${at255.toUpperCase()}   `)).success).toBe(true);
});

test("malformed addresses are refused with the spec's message", () => {
  for (const bad of [
    "plainaddress",
    "jean@",
    "@example.com",
    "jean dupont@example.com",
    "jean@example",
    "jean@@example.com",
    "jean@exa mple.com",
  ]) {
    expect(firstMessage(lead(bad))).toBe("Invalid email address");
  }
});

test("an empty or missing address is required", () => {
  expect(firstMessage(lead(""))).toBe("Email is required");
  expect(firstMessage(lead("   "))).toBe("Email is required");
  expect(parse({ source: "exit_popup" }).success).toBe(false);
  expect(parse(lead(42)).success).toBe(false);
});

test("only known sources and locales are accepted, and ip_hash must be null", () => {
  expect(parse({ ...lead("a@b.co"), source: "newsletter" }).success).toBe(false);
  expect(parse({ ...lead("a@b.co"), locale: "de" }).success).toBe(false);
  expect(parse({ ...lead("a@b.co"), locale: "en" }).success).toBe(true);
  expect(parse({ ...lead("a@b.co"), ip_hash: "forged" }).success).toBe(false);
  expect(parse({ email: "a@b.co", source: "exit_popup" }).success).toBe(true);
});

test("the form check gives the normalised address or a message with its translation key", () => {
  expect(checkLeadEmail(" Me@Example.com ")).toEqual({ ok: true, email: "me@example.com" });
  const short = checkLeadEmail("a@b");
  expect(short.ok === false && emailIssueKey(short.message)).toBe("lead.emailInvalid");
  const long = checkLeadEmail(`${"a".repeat(250)}@example.com`);
  expect(long.ok === false && emailIssueKey(long.message)).toBe("lead.emailTooLong");
  const invalid = checkLeadEmail("not-an-address");
  expect(invalid.ok === false && emailIssueKey(invalid.message)).toBe("lead.emailInvalid");
  const empty = checkLeadEmail("");
  expect(empty.ok === false && emailIssueKey(empty.message)).toBe("lead.emailRequired");
});
