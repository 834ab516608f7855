import type { MessageKey, MessageValues } from "../../../shared/i18n";
import { HttpError } from "../../platform/http/body";

/**
 * A console action refused for a reason the owner reads: a key of the site's message catalogue,
 * written in the owner's language when the answer is made (a page, or the JSON whose `error` the
 * console's script shows beside its button).
 */
export class ConsoleRefusal extends HttpError {
  constructor(
    status: HttpError["status"],
    readonly key: MessageKey,
    readonly values: MessageValues = {},
    headers: Record<string, string> = {},
  ) {
    super(status, key, headers);
    this.name = "ConsoleRefusal";
  }
}
