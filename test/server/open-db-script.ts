import { openDb } from "../../db/client";

// Run as its own process by db-concurrent-start.system.test.ts: opens (and migrates) the database at argv[2].
const db = openDb(process.argv[2]!);
db.$client.close();
