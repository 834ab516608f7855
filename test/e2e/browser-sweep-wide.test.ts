import { sweep } from "./sweep";

// The every-page sweep (test/e2e/sweep.ts says what it reads) on the tablet, the laptop and the wide
// screen, and the chat, exit popup and demo journeys at 1280 px; the phones are
// browser-sweep.test.ts's.
sweep({ widths: [768, 1280, 1920], journeyWidths: [1280] });
