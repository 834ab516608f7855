import { useEffect } from "react";
import type { IslandProps } from "../../shared/page-data";

// Islands that show nothing: what a page does in the browser besides its HTML.

/**
 * A pending order's success page: look again every few seconds until the provider's confirmation
 * has arrived, for two minutes at most (then the visitor has the refresh button and the e-mail that
 * will follow). It looks at `path`, the order's signed link, so the address shows its reference.
 */
export function PendingRefresh({ path, reference }: IslandProps["pending-refresh"]) {
  useEffect(() => {
    const key = `pending-refresh:${reference}`;
    let started = Date.now();
    try {
      started = Number(window.sessionStorage.getItem(key) ?? Date.now());
      window.sessionStorage.setItem(key, String(started));
    } catch {
      // no storage: refresh for two minutes from this load
    }
    if (Date.now() - started > 120_000) return;
    const timer = setTimeout(() => window.location.replace(path), 4000);
    return () => clearTimeout(timer);
  }, [path, reference]);
  return null;
}

/**
 * The unknown path is logged to the console (docs/product.md, "Pages and routes"). (The page itself
 * does not carry the path, so the server renders it once per language.)
 */
export function NotFoundLog() {
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", window.location.pathname);
  }, []);
  return null;
}
