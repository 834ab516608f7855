// What this browser tab remembers of the purchase notifications: whether the visitor dismissed them
// (for the rest of the visit), and which orders it has shown (social-proof-toast.tsx). The
// islands' loader reads the first before it even asks the API. No React here, so it can.

const DISMISSED_KEY = "social-proof-dismissed";

export function readSession(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeSession(key: string, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // storage disabled: remembered for this page view only
  }
}

export const socialProofDismissed = (): boolean => readSession(DISMISSED_KEY) !== null;

export const dismissSocialProof = (): void => writeSession(DISMISSED_KEY, "1");
