import type { ReactNode } from "react";
import { pathFor } from "../../shared/routes";
import { useI18n } from "../i18n";

/**
 * A link to the demo page (the video with its captions in the page's language, without JavaScript
 * too). The demo island opens the same video in its dialog instead, and its loader starts loading
 * that island when a visitor reaches for one of these.
 */
export function DemoButton({ className, children }: { className: string; children: ReactNode }) {
  const { locale } = useI18n();
  return (
    <a href={pathFor("demo", locale)} className={className} aria-haspopup="dialog" data-demo-button="">
      {children}
    </a>
  );
}
