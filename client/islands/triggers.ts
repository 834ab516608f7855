/** The demo links (client/components/demo-button.tsx), outside the demo island that opens them. */
export const DEMO_BUTTON = "[data-demo-button]";

/** The payment page's help button (client/components/layout.tsx), outside the support island that it opens. */
export const SUPPORT_BUTTON_ATTRIBUTE = "data-support-button";
export const SUPPORT_BUTTON = `[${SUPPORT_BUTTON_ATTRIBUTE}]`;
