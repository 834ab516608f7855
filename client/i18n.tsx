import { createContext, useContext, useMemo, type ReactNode } from "react";
import { siteTranslator, type Translate } from "../shared/i18n";
import type { PageData } from "./page-data";

type I18n = { t: Translate; locale: PageData["locale"]; facts: PageData["facts"]; data: PageData };

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ data, children }: { data: PageData; children: ReactNode }) {
  const value = useMemo<I18n>(() => {
    const t = siteTranslator(data.locale, data.messages, data.facts);
    return { t, locale: data.locale, facts: data.facts, data };
  }, [data]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (value === null) throw new Error("useI18n outside I18nProvider");
  return value;
}
