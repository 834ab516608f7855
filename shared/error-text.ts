/** What went wrong, in words: an Error's message, or anything else thrown as a string. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
