import { createHash, randomBytes } from "node:crypto";

/** A secret handed to the owner's browser (a session, an invite): 256 random bits, URL-safe. */
export const randomToken = (): string => randomBytes(32).toString("base64url");

/** What the database keeps of a secret: its SHA-256, so a copy of the file opens nothing. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");
