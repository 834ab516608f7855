import type { SuccessOrder } from "../../client/page-data";
import type { AppDeps } from "../deps";

/** What the success page shows for `?session_id=` (issue 4 replaces this with a real lookup). */
export async function successOrder(_deps: AppDeps, sessionId: string | null): Promise<SuccessOrder> {
  return sessionId === null ? { state: "none" } : { state: "unknown" };
}
