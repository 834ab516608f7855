// A 360 x 740 phone in Debian's Chromium with an empty cache, for the benches that load a page as a
// first-time visitor on a phone: its page, the DevTools session to measure it, and a way to close it.
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";

export type Phone = { browser: Browser; page: Page; cdp: CDPSession };

export async function openPhone(options: { scale: number }): Promise<Phone> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: options.scale,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    return { browser, page, cdp };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
