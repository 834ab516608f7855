import { asc, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { chatMessages } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import type { Locale } from "../../../shared/locales";
import type { ChatRole } from "../../../shared/schemas/chat";

// Every exchange is kept so the owner can read what visitors asked; `site chats export`
// (server/owner/export-csv.ts) prints them as CSV.

export type TranscriptLine = {
  conversationId: string;
  role: ChatRole;
  content: string;
  locale: Locale;
  at: Date;
  /** A reply that gave the question to the support address (listed for the owner). */
  handedOver?: boolean;
};

export async function recordChatMessage(write: Write, line: TranscriptLine): Promise<void> {
  await write((tx) =>
    tx
      .insert(chatMessages)
      .values({
        conversationId: line.conversationId,
        role: line.role,
        content: line.content,
        locale: line.locale,
        createdAt: line.at,
        handedOver: line.handedOver ?? false,
      })
      .run(),
  );
}

/** A whole conversation, oldest first (for the owner and tests; a request reads only its end). */
export function readConversation(db: Db, conversationId: string) {
  return db
    .select({
      role: chatMessages.role,
      content: chatMessages.content,
      locale: chatMessages.locale,
      createdAt: chatMessages.createdAt,
      handedOver: chatMessages.handedOver,
    })
    .from(chatMessages)
    .where(eq(chatMessages.conversationId, conversationId))
    .orderBy(asc(chatMessages.id))
    .all();
}

/**
 * The query of the last `limit` messages of a conversation, newest first: it walks the index on
 * (conversation_id, id) backwards and stops after `limit` rows, however long the conversation.
 */
export function recentMessagesQuery(db: Db, conversationId: string, limit: number) {
  return db
    .select({ role: chatMessages.role, content: chatMessages.content })
    .from(chatMessages)
    .where(eq(chatMessages.conversationId, conversationId))
    .orderBy(desc(chatMessages.id))
    .limit(limit);
}

/** The last `limit` messages of a conversation, oldest first, as the model reads them. */
export function readRecentMessages(db: Db, conversationId: string, limit: number): { role: ChatRole; content: string }[] {
  return recentMessagesQuery(db, conversationId, limit).all().reverse();
}

/**
 * The size of a conversation, looking at no more than its first `atMost` messages: how many there
 * are and how many of them are the visitor's. Bounded, so a conversation of any length costs the same.
 */
export function conversationSize(db: Db, conversationId: string, atMost: number): { messages: number; questions: number } {
  const firstOnes = db
    .select({ role: chatMessages.role })
    .from(chatMessages)
    .where(eq(chatMessages.conversationId, conversationId))
    .orderBy(asc(chatMessages.id))
    .limit(atMost)
    .as("first_ones");
  const row = db
    .select({ messages: count(), questions: sql<number>`coalesce(sum(case when ${firstOnes.role} = 'user' then 1 else 0 end), 0)` })
    .from(firstOnes)
    .get();
  return { messages: row?.messages ?? 0, questions: row?.questions ?? 0 };
}
