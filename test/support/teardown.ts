import { afterAll } from "bun:test";
import { stopSharedServer } from "../e2e/harness";
import { browserOutlivesFiles, closeSharedBrowser } from "../e2e/shared-browser";

// Loaded before every test file (bunfig.toml's preload): an afterAll here runs after the last file
// of a plain `bun test`, and after each file in a --parallel worker (which never knows which file is
// its last). The browser the journeys share is closed there and its temporary files go with it,
// except in a worker that keeps its modules from file to file (npm test's), where the next file
// uses it and it goes with the worker (test/e2e/shared-browser.ts). The same for the server the
// journeys that only read the shop share (test/e2e/harness.ts, `useSharedSite`).
afterAll(async () => {
  if (!browserOutlivesFiles) await Promise.all([closeSharedBrowser(), stopSharedServer()]);
});
