import { LOCALE_TAGS, LOCALES } from "../../shared/locales";
import { useI18n } from "../i18n";
import { Flag } from "./flags";

/**
 * Four flags, one choice. Each other language is a plain link to the same page in that language
 * (works without JavaScript); the active one is marked with aria-current and is not a link, so
 * choosing it does nothing.
 */
export function LanguageSwitcher() {
  const { t, locale, data } = useI18n();
  const alternates = data.alternates;
  return (
    <nav className="lang-switcher" aria-label={t("nav.language")}>
      <ul role="list">
        {LOCALES.map((l) => {
          const name = LOCALE_TAGS[l].name;
          return (
            <li key={l}>
              {l === locale ? (
                <span className="lang lang--active" aria-current="true" title={name} lang={l}>
                  <Flag locale={l} />
                  <span className="sr-only">{name}</span>
                </span>
              ) : (
                <a className="lang" href={alternates?.[l] ?? (l === "fr" ? "/" : `/${l}`)} hrefLang={l} lang={l} title={name}>
                  <Flag locale={l} />
                  <span className="sr-only">{name}</span>
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
