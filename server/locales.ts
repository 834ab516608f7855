import en from "../locales/en.json";
import es from "../locales/es.json";
import fr from "../locales/fr.json";
import it from "../locales/it.json";
import type { Messages } from "../shared/i18n";
import type { Locale } from "../shared/locales";

export const MESSAGES: Record<Locale, Messages> = { fr, en, it, es };
