import type { Locale } from "../../shared/locales";

// SVG flags (not emoji: emoji flags do not render on Windows). 3:2, drawn at 24x16.
const FLAGS: Record<Locale, React.ReactNode> = {
  fr: (
    <>
      <rect width="3" height="2" fill="#fff" />
      <rect width="1" height="2" fill="#002654" />
      <rect x="2" width="1" height="2" fill="#ce1126" />
    </>
  ),
  it: (
    <>
      <rect width="3" height="2" fill="#fff" />
      <rect width="1" height="2" fill="#009246" />
      <rect x="2" width="1" height="2" fill="#ce2b37" />
    </>
  ),
  es: (
    <>
      <rect width="3" height="2" fill="#aa151b" />
      <rect y="0.5" width="3" height="1" fill="#f1bf00" />
    </>
  ),
  en: (
    <>
      <rect width="3" height="2" fill="#012169" />
      <path d="M0 0l3 2M3 0 0 2" stroke="#fff" strokeWidth="0.4" />
      <path d="M0 0l3 2M3 0 0 2" stroke="#c8102e" strokeWidth="0.16" />
      <path d="M1.5 0v2M0 1h3" stroke="#fff" strokeWidth="0.6" />
      <path d="M1.5 0v2M0 1h3" stroke="#c8102e" strokeWidth="0.36" />
    </>
  ),
};

export function Flag({ locale }: { locale: Locale }) {
  return (
    <svg className="flag" viewBox="0 0 3 2" width="24" height="16" aria-hidden="true" focusable="false" preserveAspectRatio="none">
      {FLAGS[locale]}
    </svg>
  );
}
