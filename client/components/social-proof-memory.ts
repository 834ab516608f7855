// Whether the visitor dismissed the purchase notifications: for the rest of the visit (issue 5),
// the browser tab's session. Read by the islands' loader, which then does not even ask the API.

const DISMISSED_KEY = "social-proof-dismissed";

export function socialProofDismissed(): boolean {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY) !== null;
  } catch {
    return false;
  }
}

export function dismissSocialProof(): void {
  try {
    window.sessionStorage.setItem(DISMISSED_KEY, "1");
  } catch {
    // storage disabled: hidden for this page view only
  }
}
