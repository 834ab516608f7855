import type { ChatQuestion } from "./judge";
export const HELD_OUT_NEW: readonly ChatQuestion[] = [];
