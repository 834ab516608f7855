// Why the configuration cannot be used: thrown by loadConfig, caught by the entry, which prints the
// message and exits (no stack trace for a setting the owner mistyped).

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = "ConfigError";
  }
}

export type ConfigProblem = { variable: string; detail: string };

/** Production start-up refused: every setting still to fix, in one message, so one round fixes all. */
export class NotReadyForProductionError extends ConfigError {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems[0]?.variable ?? "environment", problems[0]?.detail ?? "");
    this.name = "NotReadyForProductionError";
    this.message = [
      `Not ready for production (NODE_ENV=production): ${problems.length} setting${problems.length === 1 ? "" : "s"} to fix before the site may start.`,
      ...problems.map((p) => `  - ${p.variable} ${p.detail}`),
    ].join("\n");
  }
}
