import { LOCALES, type Locale } from "../../../shared/locales";
import type { GuideDeviceFact } from "../../../shared/site-facts";
import { STOP_WORDS } from "./offline-vocabulary";
import { words } from "./words";

// "How do I install it on my Samsung?": the installation guide (the owner's published content)
// names each device and its store in its own words ("Apps on Samsung and LG, the Appstore on a Fire
// TV stick"). A question whose words single out one device of the guide gets that device's
// published steps rather than the general answer; one that names none, or two alike, gets the
// general answer. The guide's words are read in every language, as a visitor may name the device
// in another language than the page's (brand names are the same everywhere).

export type GuideMatcher = {
  /** The id of the one device the question's words point to, or null. */
  device(question: string): string | null;
};

/**
 * Each device's words from its title and steps in every language, each weighing 1 / the number of
 * devices whose text holds it: "samsung" names the TV alone, "android" half the phone and half the
 * TV, "app" or "open" nothing. The tips are left out: they mention other devices in passing.
 */
/**
 * Words of installing itself, in the four languages: a step's "touchez Installer" names no device,
 * and once the owner removes the other devices that use the word it would single one out of "how do
 * I install the app?".
 */
const INSTALLING = words(
  "install installs installing installed installation installer installez installe installation installare installa installi installazione instalar instala instale instalación instalacion " +
    "app apps application applications applicazione applicazioni aplicación aplicacion aplicaciones download télécharger telecharger téléchargez scaricare scarica descargar descarga " +
    "open ouvrez ouvrir apri aprire abre abrir",
);

export function guideMatcher(guides: Record<Locale, readonly GuideDeviceFact[]>, siteName: string): GuideMatcher {
  const ignored = new Set([...LOCALES.flatMap((locale) => words(STOP_WORDS[locale])), ...words(siteName), ...INSTALLING]);
  const byDevice = new Map<string, Set<string>>();
  for (const locale of LOCALES) {
    for (const device of guides[locale]) {
      const set = byDevice.get(device.id) ?? new Set<string>();
      for (const word of words([device.title, ...device.steps].join(" "))) if (!ignored.has(word) && word.length > 1) set.add(word);
      byDevice.set(device.id, set);
    }
  }
  const devicesWith = new Map<string, number>();
  for (const set of byDevice.values()) for (const word of set) devicesWith.set(word, (devicesWith.get(word) ?? 0) + 1);
  return {
    device(question) {
      const asked = new Set(words(question));
      let best: string | null = null;
      let bestScore = 0;
      let secondScore = 0;
      for (const [id, set] of byDevice) {
        let score = 0;
        for (const word of asked) if (set.has(word)) score += 1 / (devicesWith.get(word) ?? 1);
        if (score > bestScore) {
          secondScore = bestScore;
          bestScore = score;
          best = id;
        } else if (score > secondScore) {
          secondScore = score;
        }
      }
      // A whole word that names this device alone, and more of it than of any other device.
      return bestScore >= 1 && bestScore > secondScore ? best : null;
    },
  };
}
