import { afterAll, afterEach } from "bun:test";
import { GlobalRegistrator } from "@happy-dom/global-registrator";

/**
 * Registers happy-dom's window as the global scope for one component-test file, right away (so
 * that Testing Library, imported after this call, finds `document`), and removes it when the file
 * is done, so that server tests in the same `bun test` process keep Bun's own fetch/Request.
 * Import Testing Library and components with `await import(...)` after calling this.
 */
export function useDom() {
  if (!GlobalRegistrator.isRegistered) {
    // React DOM keeps the queueMicrotask it finds when first loaded. A file's happy-dom window's
    // stops when the window is removed: in the next component-test file, React would never render
    // an update made after an await (pay-button.test.tsx failed after any other such file). So
    // React sees Bun's own.
    const own = { queueMicrotask };
    GlobalRegistrator.register({ url: "http://localhost:3000/" });
    Object.assign(globalThis, own);
  }
  // Testing Library binds `screen` to the document.body it saw when first imported; a later
  // component-test file in the same process has a new document, so bind it again.
  const dom: typeof import("@testing-library/dom") = require("@testing-library/dom");
  Object.assign(dom.screen, dom.getQueriesForElement(document.body));
  afterEach(async () => {
    const { cleanup } = await import("@testing-library/react");
    cleanup();
  });
  afterAll(async () => {
    // Work React still has scheduled (a render after a state change, effects) is done while the
    // window is there: run after it is removed, it fails on `window`, and bun test counts that
    // error against whichever file runs next in the process.
    const { act } = await import("@testing-library/react");
    await act(async () => {});
    await GlobalRegistrator.unregister();
  });
}
