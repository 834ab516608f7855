import * as v from "valibot";
import type { Bytes } from "./http/compress";

/** Bytes in memory, checked when they arrive from another process (structured clone keeps Uint8Array). */
export const BytesSchema = v.custom<Bytes>((x) => x instanceof Uint8Array && x.buffer instanceof ArrayBuffer, "bytes");
