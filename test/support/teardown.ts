import { afterAll } from "bun:test";
import { closeSharedBrowser } from "../e2e/shared-browser";

// Loaded before every test file (bunfig.toml's preload): an afterAll here runs once, after the last
// file, so the browser the journeys share is closed and its temporary files go with it.
afterAll(closeSharedBrowser);
