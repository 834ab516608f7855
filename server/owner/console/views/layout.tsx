import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { Translate } from "../../../../shared/i18n";
import { LOCALE_TAGS, type Locale } from "../../../../shared/locales";
import type { Formats } from "../../../../shared/owner-formats";
import type { BuildInfo } from "../../../platform/version";

export type ConsoleSection =
  | "overview"
  | "catalogue"
  | "audience"
  | "orders"
  | "codes"
  | "partners"
  | "reviews"
  | "leads"
  | "support"
  | "mail"
  | "content"
  | "activity"
  | "security";

export type PageContext = {
  t: Translate;
  locale: Locale;
  fmt: Formats;
  /** The console bundle's script and stylesheet URLs. */
  script: string;
  style: string;
  /** This program's build, for the footer: the version an owner quotes when asking for help. */
  build: BuildInfo;
};

const SECTIONS: { id: ConsoleSection; path: string }[] = [
  { id: "overview", path: "/admin" },
  { id: "audience", path: "/admin/audience" },
  { id: "orders", path: "/admin/orders" },
  { id: "codes", path: "/admin/codes" },
  { id: "partners", path: "/admin/partners" },
  { id: "reviews", path: "/admin/reviews" },
  { id: "leads", path: "/admin/leads" },
  { id: "support", path: "/admin/support" },
  { id: "mail", path: "/admin/mail" },
  { id: "content", path: "/admin/content" },
  { id: "catalogue", path: "/admin/catalogue" },
  { id: "activity", path: "/admin/activity" },
  { id: "security", path: "/admin/security" },
];

/** A whole console document; `section` is null on the pages seen before signing in. */
export function renderPage(ctx: PageContext, title: string, section: ConsoleSection | null, body: ReactNode): string {
  const { t } = ctx;
  return renderToStaticMarkup(
    <html lang={LOCALE_TAGS[ctx.locale].bcp47}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        {/* No icon of its own: without this the browser asks for /favicon.ico. */}
        <link rel="icon" href="data:," />
        <title>{`${title} — ${t("admin.title")}`}</title>
        <link rel="stylesheet" href={ctx.style} />
        <script type="module" src={ctx.script} />
      </head>
      <body>
        <a className="skip" href="#content">
          {t("admin.skip")}
        </a>
        <header className="bar">
          <span className="brand">{t("admin.title")}</span>
          {section !== null && (
            <>
              <nav className="main" aria-label={t("admin.nav.label")}>
                <ul>
                  {SECTIONS.map((s) => (
                    <li key={s.id}>
                      <a href={s.path} aria-current={s.id === section ? "page" : undefined}>
                        {t(`admin.nav.${s.id}`)}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
              <form method="post" action="/admin/sign-out">
                <button type="submit" className="secondary">
                  {t("admin.signOut")}
                </button>
              </form>
            </>
          )}
        </header>
        <main id="content" tabIndex={-1}>
          <h1>{title}</h1>
          {body}
        </main>
        {section !== null && (
          <footer className="foot">
            {t("admin.footer.version", {
              version: ctx.build.version,
              commit: ctx.build.commit,
              date: ctx.fmt.when(new Date(ctx.build.date)),
            })}
          </footer>
        )}
      </body>
    </html>,
  );
}

/** A button that needs the passkey script: disabled with a note until the script takes it over. */
export function PasskeyButton(props: { t: Translate; kind: "register" | "sign-in" | "confirm"; label: string; invite?: string }) {
  const { t } = props;
  return (
    <div data-needs-script="">
      <button
        type="button"
        data-passkey={props.kind}
        data-invite={props.invite}
        data-working={t("admin.passkey.working")}
        data-failed={t("admin.passkey.failed")}
        data-insecure={t("admin.passkey.insecure")}
        data-done={t("admin.passkey.done")}
        disabled
      >
        {props.label}
      </button>
      <p className="note" data-no-script="">
        {t("admin.passkey.needsScript")}
      </p>
      <p id="console-status" role="status" aria-live="polite" />
    </div>
  );
}
