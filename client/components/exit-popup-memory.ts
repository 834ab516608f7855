// When the exit popup opens, and whether this visitor has seen it (or already left an address) on
// this browser: read by the islands' loader before it loads the popup at all, and by the forms that
// make it moot. No React here, so the loader can read it without loading React.

/** The popup opens once, 30 s after the page loaded (docs/product.md, "Behaviour the pages keep"). */
export const EXIT_POPUP_DELAY_MS = 30_000;

const SHOWN_KEY = "exit-popup-shown";

export function exitPopupWasShown(): boolean {
  try {
    return window.localStorage.getItem(SHOWN_KEY) !== null;
  } catch {
    return false; // storage disabled: the popup may show once per page view at worst
  }
}

export function markExitPopupShown(): void {
  try {
    window.localStorage.setItem(SHOWN_KEY, String(Date.now()));
  } catch {
    // storage disabled or full: nothing to remember it in
  }
}
