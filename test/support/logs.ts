import * as v from "valibot";

// The server's log lines are JSON (server/platform/log.ts); tests read them back as entries.

const EntrySchema = v.looseObject({ level: v.string(), time: v.string(), msg: v.string() });
export type LogEntry = v.InferOutput<typeof EntrySchema>;

/** The log entries among `lines`; anything that is not one of our JSON lines is skipped. */
export function logEntries(lines: readonly string[]): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of lines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (v.is(EntrySchema, parsed)) entries.push(parsed);
  }
  return entries;
}

/** Entries at warn level or above. */
export const problems = (lines: readonly string[]) => logEntries(lines).filter((e) => e.level === "warn" || e.level === "error");
