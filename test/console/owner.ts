import { issueRecoveryCodes } from "../../server/owner/console/recovery-codes";
import { findSession, markVerified } from "../../server/owner/console/sessions";
import type { TestSite } from "../support/app";

/** The cookie a response sets, as a browser would send it back ("name=value"). */
export function cookieOf(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  return header.split(";")[0] ?? "";
}

/** Fresh recovery codes for the site's owner (what the first passkey's registration hands out). */
export const recoveryCodes = (site: TestSite) => site.write((tx) => issueRecoveryCodes(tx, new Date()));

/** Signs in with a recovery code through the sign-in form, as the owner would without a passkey. */
export async function signInWithCode(site: TestSite, code: string, headers: Record<string, string> = {}): Promise<Response> {
  return site.request("/admin/sign-in/recovery", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ code }).toString(),
  });
}

/** A signed-in console session's cookie. */
export async function ownerCookie(site: TestSite): Promise<string> {
  const [code] = await recoveryCodes(site);
  const response = await signInWithCode(site, code ?? "");
  if (response.status !== 303) throw new Error(`sign-in failed: ${response.status}`);
  return cookieOf(response);
}

/** The passkey check a refund needs, as the console's confirm ceremony records it (the browser journey does it for real). */
export async function confirmWithPasskey(site: TestSite, cookie: string): Promise<void> {
  const token = cookie.split("=")[1] ?? "";
  const session = findSession(site.db, token, new Date());
  if (session === null) throw new Error("no live session for this cookie");
  await site.write((tx) => markVerified(tx, session.id, new Date()));
}
