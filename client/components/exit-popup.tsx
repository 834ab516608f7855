/** Exit-intent lead capture (issue 3). Mounted on the landing page only. */
export function ExitPopup() {
  return null;
}
