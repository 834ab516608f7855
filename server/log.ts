type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Logger = Record<Level, (message: string, fields?: Record<string, unknown>) => void>;

/** One line per event: time, level, message, then key=value fields (JSON-encoded values). */
export function createLogger(level: Level | "silent" = "info", write: (line: string) => void = (l) => console.log(l)): Logger {
  const make = (lvl: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const extra = fields
      ? Object.entries(fields)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(" ")
      : "";
    write(`${new Date().toISOString()} ${lvl.toUpperCase()} ${message}${extra ? ` ${extra}` : ""}`);
  };
  return { debug: make("debug"), info: make("info"), warn: make("warn"), error: make("error") };
}
