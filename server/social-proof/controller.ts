import { Elysia } from "elysia";
import type { AppDeps } from "../deps";

/** GET /api/social-proof (issue 5). */
export function socialProofController(_deps: AppDeps) {
  return new Elysia({ name: "social-proof" });
}
