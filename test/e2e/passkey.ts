import type { BrowserContext, Page } from "playwright-core";

/**
 * Gives `page` a passkey authenticator as a phone or a laptop with a fingerprint reader has one
 * (platform, resident keys, the user verified at once): the console's sign-in and registration
 * then run as an owner's would, without a person at the keyboard.
 */
export async function addPasskeyAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
