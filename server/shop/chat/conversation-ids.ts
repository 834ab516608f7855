import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Conversation ids are issued by the server, never chosen by the browser: whoever could name
 * another visitor's conversation could write into its transcript and into what the model is shown.
 * An id is 16 random bytes followed by 16 bytes of their HMAC, base64url (44 characters), so the
 * server recognises its own ids without storing them, across restarts and processes.
 */
export type ConversationIds = {
  issue(): string;
  /** True only for an id this site issued (same key), in the exact form it was issued. */
  isIssued(id: string): boolean;
};

const RANDOM_BYTES = 16;
const MAC_BYTES = 16;
/** Length of 16 bytes in base64url, without padding. */
const PART_LENGTH = 22;

/** `secret` is read on first use (the site's IP-hash secret, from the configuration or DATA_DIR). */
export function createConversationIds(secret: () => string): ConversationIds {
  let key: Buffer | undefined;
  // A key of its own, derived from the site secret: a conversation id never reveals an IP hash.
  const keyOf = () => (key ??= createHmac("sha256", secret()).update("chat conversation id").digest());
  const idFor = (random: Buffer) =>
    random.toString("base64url") + createHmac("sha256", keyOf()).update(random).digest().subarray(0, MAC_BYTES).toString("base64url");

  return {
    issue: () => idFor(randomBytes(RANDOM_BYTES)),
    isIssued(id) {
      if (id.length !== 2 * PART_LENGTH) return false;
      const random = Buffer.from(id.slice(0, PART_LENGTH), "base64url");
      if (random.length !== RANDOM_BYTES) return false;
      const expected = Buffer.from(idFor(random));
      const given = Buffer.from(id);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
