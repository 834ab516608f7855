import { LOCALES } from "../../shared/locales";
import { SOURCE_MESSAGES } from "./locales";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The page the HTTP port answers while the first HTTPS certificate is pending (DOMAIN set): the
 * same bytes for every visitor, so all four languages at once, French first, each marked with its
 * language for screen readers. No script, no style sheet to load: it works whatever else is down.
 */
export function tlsPendingPage(siteName: string): string {
  const sections = LOCALES.map((locale) => {
    const texts = SOURCE_MESSAGES[locale];
    return `<section lang="${locale}"><h2>${escapeHtml(texts["tlsPending.title"])}</h2><p>${escapeHtml(texts["tlsPending.body"])}</p></section>`;
  }).join("\n");
  return `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(siteName)}</title></head>
<body>
<main>
<h1>${escapeHtml(siteName)}</h1>
${sections}
</main>
</body>
</html>
`;
}
