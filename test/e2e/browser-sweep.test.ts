import { sweep } from "./sweep";

// The every-page sweep (test/e2e/sweep.ts says what it reads) on the phones, and the chat, exit
// popup and demo journeys at 320 px; the wider screens are browser-sweep-wide.test.ts's.
sweep({ widths: [320, 360, 390, 412], journeyWidths: [320] });
