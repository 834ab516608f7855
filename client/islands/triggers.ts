/** The demo links (client/components/demo-button.tsx), outside the demo island that opens them. */
export const DEMO_BUTTON = "[data-demo-button]";
