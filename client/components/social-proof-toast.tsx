/** Recent real purchases, bottom-left (issue 5). */
export function SocialProofToast() {
  return null;
}
