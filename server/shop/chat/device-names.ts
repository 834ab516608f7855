import { words } from "./words";

// "Does it work on my PlayStation?": the site says which devices the app runs on (the FAQ, the
// installation guide, both the owner's published content), and a question about one it does not
// name has no answer there. Answering it with the list of devices the site does name reads as a
// yes (or a no) the site never gave; the right reply hands the question to the support team.
// The classifier cannot tell these apart (a console and a phone are both "which devices"), so the
// devices people ask about are listed here by family, in the words buyers use in the four
// languages, and a family counts as named when the site's own device texts hold one of its words:
// once the owner adds an Apple TV guide, "Apple TV" is answered from it.

/** Families of devices people may ask about, each as the words or word sequences that name it. */
export const DEVICE_FAMILIES: Record<string, readonly string[]> = {
  "apple-tv": ["apple tv", "appletv", "tvos"],
  playstation: ["playstation", "play station", "ps3", "ps4", "ps5", "psvita", "ps vita"],
  xbox: ["xbox"],
  nintendo: ["nintendo", "wii"],
  roku: ["roku"],
  chromecast: ["chromecast"],
  linux: ["linux", "ubuntu", "debian", "fedora"],
  chromebook: ["chromebook", "chrome os", "chromeos"],
  kindle: ["kindle", "liseuse", "e reader", "ereader"],
  car: [
    "carplay",
    "android auto",
    "my car",
    "the car",
    "car screen",
    "car display",
    "voiture",
    "macchina",
    "in auto",
    "dell auto",
    "coche",
    "carro",
  ],
  projector: ["projector", "projecteur", "videoprojecteur", "video projecteur", "proiettore", "videoproiettore", "proyector", "beamer"],
  watch: ["apple watch", "smartwatch", "smart watch", "montre connectee", "orologio", "reloj", "wear os", "garmin"],
  "tv-box": [
    "freebox",
    "livebox",
    "bbox",
    "decodeur",
    "decoder",
    "decodificador",
    "set top box",
    "sky q",
    "tivo",
    "mag box",
    "nvidia shield",
  ],
  headset: [
    "oculus",
    "meta quest",
    "vision pro",
    "casque vr",
    "visore",
    "gafas vr",
    "realite virtuelle",
    "virtual reality",
    "realta virtuale",
    "realidad virtual",
  ],
  phone: ["blackberry", "windows phone", "nokia 3310"],
  // A phone without Google's store or services (recent Huawei and Honor phones, HarmonyOS): the
  // site names Android phones and tells to install from Google Play, which says nothing of these.
  "no-google-play": [
    "huawei",
    "harmonyos",
    "harmony os",
    "appgallery",
    "app gallery",
    "without google",
    "without the google",
    "no google",
    "not google",
    "without play store",
    "without the play store",
    "no play store",
    "without gms",
    "no gms",
    "sans google",
    "pas de google",
    "pas google",
    "sans play store",
    "sans le play store",
    "pas de play store",
    "sans les services google",
    "sans services google",
    "senza google",
    "niente google",
    "non ha google",
    "senza play store",
    "senza il play store",
    "niente play store",
    "senza i servizi google",
    "senza servizi google",
    "sin google",
    "no tiene google",
    "sin play store",
    "sin la play store",
    "sin el play store",
    "sin servicios de google",
    "sin los servicios de google",
  ],
  console: ["console", "consola", "game console"],
};

/**
 * Families that are a kind of a device the site does name ("a Huawei phone" is a phone): the named
 * device's answer would read as a yes for this one, so the whole question goes to the team.
 */
export const KINDS_OF_NAMED: ReadonlySet<string> = new Set(["no-google-play"]);

const sequences = (phrases: readonly string[]) => phrases.map((phrase) => words(phrase));

/** True when `said` holds the words of `phrase` one after the other. */
function holds(said: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  for (let i = 0; i + phrase.length <= said.length; i++) {
    let all = true;
    for (let k = 0; k < phrase.length && all; k++) all = said[i + k] === phrase[k];
    if (all) return true;
  }
  return false;
}

export type DeviceNames = {
  /** The family of a device the question names and the site's texts do not, or null. */
  unnamed(said: readonly string[]): string | null;
};

/** `siteTexts`: every text in which the site names the devices it runs on, in every language. */
export function deviceNames(siteTexts: readonly string[]): DeviceNames {
  const site = siteTexts.map((text) => words(text));
  const unnamedFamilies = Object.entries(DEVICE_FAMILIES)
    .map(([family, phrases]) => ({ family, phrases: sequences(phrases) }))
    .filter(({ phrases }) => !phrases.some((phrase) => site.some((text) => holds(text, phrase))));
  return {
    unnamed(said) {
      for (const { family, phrases } of unnamedFamilies) if (phrases.some((phrase) => holds(said, phrase))) return family;
      return null;
    },
  };
}
