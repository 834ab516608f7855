import { Elysia } from "elysia";
import type { AppDeps } from "../deps";

/** POST /api/leads (issue 3). */
export function leadsController(_deps: AppDeps) {
  return new Elysia({ name: "leads" });
}
