import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "bun";
import { openDb } from "../../db/client";
import { MIGRATIONS } from "../../db/migrations";
import { OWN_SCHEMA, recordedSchema, saveCopyBeforeMigrating } from "../../db/versions";
import { VERSION } from "../../server/platform/version";
import { startServer } from "../e2e/harness";

const root = join(import.meta.dir, "..", "..");
const main = join(root, "server", "main.ts");
const work = mkdtempSync(join(tmpdir(), "site-upgrade-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const site = (args: string[], env: Record<string, string> = {}) => {
  const run = spawnSync({
    cmd: [process.execPath, "run", main, ...args],
    env: { PATH: process.env.PATH ?? "", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
};

const schemaOf = (path: string) => {
  const sqlite = new Database(path, { readonly: true });
  try {
    return recordedSchema(sqlite);
  } finally {
    sqlite.close();
  }
};

const leadEmails = (path: string) => {
  const sqlite = new Database(path, { readonly: true });
  try {
    return sqlite
      .query<{ email: string }, []>("SELECT email FROM email_leads ORDER BY id")
      .all()
      .map((r) => r.email);
  } finally {
    sqlite.close();
  }
};

const addLead = (db: Database, email: string) =>
  db.query("INSERT INTO email_leads (email, source, locale, created_at) VALUES (?, 'landing_form', 'fr', ?)").run(email, Date.now());

test("'site version' and '--version' name the version and the commit, even where the settings would stop the server", () => {
  const commit = spawnSync({ cmd: ["git", "-C", root, "log", "-1", "--format=%h"] })
    .stdout.toString()
    .trim();
  for (const flag of ["version", "--version"]) {
    const run = site([flag], { PORT: "eighty" });
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      new RegExp(`^site ${VERSION.replaceAll(".", "\\.")} \\(commit ${commit}(\\+changes)? of \\S+, run from source\\)\\n$`),
    );
  }
});

test("before migrating a database with data, a copy is saved beside it and reported (the server logs it); three copies are kept", () => {
  const dir = join(work, "migrate");
  mkdirSync(dir);
  const path = join(dir, "site.db");
  // A database as the version before the last migration left it.
  const old = new Database(path);
  old.exec("CREATE TABLE __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)");
  for (const m of MIGRATIONS.slice(0, -1)) {
    for (const statement of m.sql.split("--> statement-breakpoint")) if (statement.trim() !== "") old.exec(statement);
    old
      .query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)")
      .run(createHash("sha256").update(m.sql).digest("hex"), m.when);
  }
  addLead(old, "before@example.com");
  old.close();

  const saved: string[] = [];
  openDb(path, { version: "2.0.0", onSaved: (copy) => saved.push(copy) }).$client.close();
  expect(saved).toEqual([`${path}.before-2.0.0`]);
  expect(schemaOf(saved[0] ?? "")).toEqual({ schema: OWN_SCHEMA - 1, writtenBy: null });
  expect(leadEmails(saved[0] ?? "")).toEqual(["before@example.com"]);
  expect(schemaOf(path)).toEqual({ schema: OWN_SCHEMA, writtenBy: "2.0.0" });

  // Opened again, up to date: nothing to save.
  openDb(path, { version: "2.0.0", onSaved: (copy) => saved.push(copy) }).$client.close();
  expect(saved).toHaveLength(1);

  // Older copies give way: the newest three stay (their dates set apart, as releases are).
  // The file `site restore --force` keeps aside shares the prefix: it is not a copy of this kind, and stays.
  const keptByRestore = `${path}.before-restore-2026-11-27T10-00-00-000Z`;
  writeFileSync(keptByRestore, "");
  const sqlite = new Database(path);
  for (const [i, version] of ["2.1.0", "2.2.0", "2.3.0"].entries()) {
    utimesSync(saveCopyBeforeMigrating(sqlite, path, version), new Date(), new Date(Date.now() + (i + 1) * 60_000));
  }
  sqlite.close();
  expect(
    readdirSync(dir)
      .filter((name) => name.includes(".before-"))
      .sort(),
  ).toEqual(["site.db.before-2.1.0", "site.db.before-2.2.0", "site.db.before-2.3.0", "site.db.before-restore-2026-11-27T10-00-00-000Z"]);
});

test("a newer version's database stops this older build with both versions and the copy to roll back with; 'site rollback' restores it", async () => {
  const dataDir = join(work, "rollback");
  const path = join(dataDir, "site.db");
  mkdirSync(dataDir);
  const current = openDb(path);
  addLead(current.$client, "kept@example.com");
  // One e-mail sent before the upgrade (its file in the mail folder, as the file transport writes).
  current.$client.exec("INSERT INTO sqlite_sequence (name, seq) VALUES ('mail_outbox', 1)");
  mkdirSync(join(dataDir, "mail"));
  writeFileSync(join(dataDir, "mail", "1.eml"), "before the upgrade");
  // What version 9.9.9 would do on its first start: save a copy, then migrate to a schema this build
  // does not know (a new table, its migration and its version recorded).
  saveCopyBeforeMigrating(current.$client, path, "9.9.9");
  current.$client.exec("CREATE TABLE wishlists (id INTEGER PRIMARY KEY)");
  current.$client
    .query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)")
    .run((MIGRATIONS.at(-1)?.when ?? 0) + 86_400_000);
  current.$client
    .query("INSERT INTO __site_versions (version, schema, migrated_at) VALUES ('9.9.9', ?, ?)")
    .run(OWN_SCHEMA + 1, Date.now());
  addLead(current.$client, "after@example.com");
  // And one sent by 9.9.9: the rolled-back database will give its number (2) again.
  current.$client.exec("UPDATE sqlite_sequence SET seq = 2 WHERE name = 'mail_outbox'");
  writeFileSync(join(dataDir, "mail", "2.eml"), "access e-mail with a buyer's key, sent by 9.9.9");
  current.$client.close();
  const env = { DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1" };

  const refused = site([], env);
  expect(refused.code).toBe(1);
  expect(refused.err).toContain(
    `This executable is version ${VERSION} (database schema ${OWN_SCHEMA}); ${path} was migrated by version 9.9.9 to schema ${OWN_SCHEMA + 1}`,
  );
  expect(refused.err).toContain(`run \`site rollback\` with this executable: it restores ${path}.before-9.9.9`);
  expect(refused.err).not.toContain("    at ");
  // An owner's command refuses the same way, before reading anything.
  const exported = site(["leads", "export"], env);
  expect(exported.code).toBe(1);
  expect(exported.err).toContain("was migrated by version 9.9.9");

  // No one to answer the question (no terminal) and no --yes: nothing changes.
  const unasked = site(["rollback"], env);
  expect(unasked.code).toBe(1);
  expect(unasked.out).toContain(`will be replaced by ${path}.before-9.9.9 (schema ${OWN_SCHEMA})`);
  expect(unasked.err).toContain("Nothing was changed");
  expect(schemaOf(path).schema).toBe(OWN_SCHEMA + 1);

  const rolled = site(["rollback", "--yes"], env);
  expect(rolled.err).toBe("");
  expect(rolled.code).toBe(0);
  expect(rolled.out).toContain(`Rolled back: ${path} is the copy saved before 9.9.9`);
  expect(schemaOf(path)).toEqual({ schema: OWN_SCHEMA, writtenBy: VERSION });
  expect(leadEmails(path)).toEqual(["kept@example.com"]);
  // What the newer version wrote is set aside, not lost; the copy stays for another try.
  const aside = readdirSync(dataDir).filter((name) => name.startsWith("site.db.rolled-back-"));
  expect(aside).toHaveLength(1);
  expect(leadEmails(join(dataDir, aside[0] ?? ""))).toEqual(["kept@example.com", "after@example.com"]);
  expect(existsSync(`${path}.before-9.9.9`)).toBe(true);
  // Its e-mail files too: the next message numbered 2 must not overwrite that buyer's e-mail.
  expect(readdirSync(join(dataDir, "mail"))).toEqual(["1.eml"]);
  const mailAside = readdirSync(dataDir).filter((name) => name.startsWith("mail.rolled-back-"));
  expect(mailAside).toHaveLength(1);
  expect(readFileSync(join(dataDir, mailAside[0] ?? "", "2.eml"), "utf8")).toBe("access e-mail with a buyer's key, sent by 9.9.9");
  expect(rolled.out).toContain(`Kept in ${join(dataDir, mailAside[0] ?? "")}: 1 e-mail file written since then`);

  // Nothing left to roll back: said, not done again.
  const again = site(["rollback", "--yes"], env);
  expect(again.code).toBe(1);
  expect(again.err).toContain("there is nothing to roll back");

  // And this build starts on it.
  const server = await startServer({ dataDir, env: { WORKERS: "1" } });
  try {
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect(leadEmails(path)).toEqual(["kept@example.com"]);
  } finally {
    // How it stops is not under test: a graceful stop would wait out its drain (test/support/end-server.ts).
    server.process.kill("SIGKILL");
    await server.process.exited;
  }
}, 90_000);
