import type { TestCheckoutView } from "../page-data";

/** The built-in test checkout's hosted-style card page (issue 4). */
export function TestCheckoutPage(_props: { view: TestCheckoutView }) {
  return null;
}
