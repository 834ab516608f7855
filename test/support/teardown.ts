import { afterAll } from "bun:test";
import { closeSharedBrowser } from "../e2e/shared-browser";

// Loaded before every test file (bunfig.toml's preload): an afterAll here runs after the last file
// of a plain `bun test`, and after each file in a --parallel worker (which never knows which file is
// its last), so the browser the journeys share is closed and its temporary files go with it.
afterAll(closeSharedBrowser);
