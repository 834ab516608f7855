import { type ReactNode, useEffect } from "react";
import type { CompiledMessages, MessageKey, MessageValues } from "../shared/i18n";
import type { Locale } from "../shared/locales";
import { TextProvider } from "./i18n";

/**
 * What surrounds every island, the same on the server and in the browser so that hydration finds
 * the markup it renders. `onHydrated` runs once the browser has hydrated it (effects run after).
 */
export function IslandRoot({
  locale,
  messages,
  values,
  listed,
  onHydrated,
  children,
}: {
  locale: Locale;
  messages: CompiledMessages;
  values: MessageValues;
  /** The texts the island lists, where known (see TextProvider). */
  listed?: readonly MessageKey[];
  onHydrated?: () => void;
  children: ReactNode;
}) {
  useEffect(() => onHydrated?.(), [onHydrated]);
  return (
    <TextProvider locale={locale} messages={messages} values={values} listed={listed}>
      {children}
    </TextProvider>
  );
}
