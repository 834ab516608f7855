import { Elysia } from "elysia";
import type { AppDeps } from "../deps";

/** POST /api/chat (issue 5). */
export function chatController(_deps: AppDeps) {
  return new Elysia({ name: "chat" });
}
