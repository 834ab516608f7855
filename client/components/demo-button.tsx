import type { ReactNode } from "react";
import { useI18n } from "../i18n";

/**
 * A link to the video file (works without JavaScript). The demo island opens it in its dialog
 * instead, and its loader starts loading that island when a visitor reaches for one of these.
 */
export function DemoButton({ className, children }: { className: string; children: ReactNode }) {
  const { data } = useI18n();
  return (
    <a href={data.assets.video} className={className} aria-haspopup="dialog" data-demo-button="">
      {children}
    </a>
  );
}
