import { runCommand } from "../../server/owner/cli";
import type { TestSite } from "./app";

/** A `site` command run against a test site's settings, as the owner types it: its exit code and
 * everything it said (standard output and error together). */
export async function runSiteCommand(s: Pick<TestSite, "config">, ...argv: string[]): Promise<{ code: number; said: string }> {
  const out: string[] = [];
  const code = await runCommand(
    argv,
    s.config,
    (l) => out.push(l),
    (l) => out.push(l),
  );
  return { code, said: out.join("") };
}
