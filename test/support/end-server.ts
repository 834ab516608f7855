import type { RunningServer } from "../e2e/harness";

/**
 * Ends a test's server whose way of stopping is not what the test is about: SIGKILL, its data
 * folder then removed as by `stop()`. A graceful stop (SIGTERM) answers on for at least a second,
 * and up to 4 s while a kept-alive connection may still be in use (server/platform/http/drain.ts):
 * seconds of waiting for every server the tests start. Its workers and page renderer go with it
 * (test/server/processes.system.test.ts shows it).
 */
export async function endServer(server: RunningServer | undefined): Promise<void> {
  await server?.stop("SIGKILL");
}
