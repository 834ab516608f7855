import { openDb } from "../../db/client";

// Run as its own process by restore.system.test.ts: records a lead for argv[3] in the database at argv[2],
// then dies as a server killed outright does, its last commit left in the write-ahead log.
const db = openDb(process.argv[2] ?? "", { autoCheckpoint: false });
db.$client
  .query("INSERT INTO email_leads (email, source, locale, created_at) VALUES (?, 'landing_form', 'fr', ?)")
  .run(process.argv[3] ?? "", Date.now());
process.kill(process.pid, "SIGKILL");
