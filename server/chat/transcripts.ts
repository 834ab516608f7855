import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { chatMessages } from "../../db/schema";
import type { ChatRole } from "../../shared/schemas/chat";
import type { Locale } from "../../shared/locales";

// Every exchange is kept so the owner can read what visitors asked (issue 5); `site chats export`
// (server/export-csv.ts) prints them as CSV.

export type TranscriptLine = { conversationId: string; role: ChatRole; content: string; locale: Locale; at: Date };

export function recordChatMessage(db: Db, line: TranscriptLine): void {
  db.insert(chatMessages)
    .values({ conversationId: line.conversationId, role: line.role, content: line.content, locale: line.locale, createdAt: line.at })
    .run();
}

export function readConversation(db: Db, conversationId: string) {
  return db
    .select({ role: chatMessages.role, content: chatMessages.content, locale: chatMessages.locale, createdAt: chatMessages.createdAt })
    .from(chatMessages)
    .where(eq(chatMessages.conversationId, conversationId))
    .orderBy(asc(chatMessages.id))
    .all();
}
