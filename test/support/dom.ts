import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, afterEach, beforeAll } from "bun:test";

/**
 * Registers happy-dom's window as the global scope for one test file and removes it afterwards, so
 * that server tests in the same `bun test` process keep Bun's own fetch/Request/Response.
 */
export function useDom() {
  beforeAll(() => {
    GlobalRegistrator.register({ url: "http://localhost:3000/" });
  });
  afterEach(async () => {
    const { cleanup } = await import("@testing-library/react");
    cleanup();
  });
  afterAll(async () => {
    await GlobalRegistrator.unregister();
  });
}
