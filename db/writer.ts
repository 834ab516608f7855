import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type * as schema from "./schema";

/** The database or a transaction on it: what a function that only reads and writes rows needs. */
export type DbWriter = BaseSQLiteDatabase<"sync", void, typeof schema>;
