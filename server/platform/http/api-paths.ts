/** The API paths that only take POST: any other method gets 405 with `Allow: POST`. */
export const POST_ONLY_API: ReadonlySet<string> = new Set([
  "/api/leads",
  "/api/payment",
  "/api/chat",
  "/api/stripe/webhook",
  "/api/licenses/verify",
  "/api/licenses/activate",
  "/api/licenses/deactivate",
  "/api/access/resend",
  "/api/devices/free",
]);

/** The API paths that only take GET: any other method gets 405 with `Allow: GET`. */
export const GET_ONLY_API: ReadonlySet<string> = new Set(["/api/social-proof"]);
