import { type PageContext, PasskeyButton, renderPage } from "./layout";

export type SignInNotice = "none" | "bad-code" | "rate-limited" | "signed-out" | "expired";

/** The sign-in page: a passkey, or one of the recovery codes. */
export function signInPage(ctx: PageContext, notice: SignInNotice): string {
  const { t } = ctx;
  return renderPage(
    ctx,
    t("admin.signIn.title"),
    null,
    <>
      {notice === "signed-out" && <p className="success">{t("admin.signIn.signedOut")}</p>}
      {notice === "expired" && <p className="note">{t("admin.signIn.expired")}</p>}
      <section className="card" aria-labelledby="passkey-heading">
        <h2 id="passkey-heading">{t("admin.signIn.passkeyHeading")}</h2>
        <PasskeyButton t={t} kind="sign-in" label={t("admin.signIn.passkeyButton")} />
      </section>
      <section className="card" aria-labelledby="recovery-heading">
        <h2 id="recovery-heading">{t("admin.signIn.recoveryHeading")}</h2>
        <form method="post" action="/admin/sign-in/recovery">
          <label htmlFor="recovery-code">{t("admin.signIn.recoveryLabel")}</label>
          <input
            type="text"
            id="recovery-code"
            name="code"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            required
            maxLength={40}
            aria-describedby={notice === "bad-code" || notice === "rate-limited" ? "recovery-error" : undefined}
          />
          {notice === "bad-code" && (
            <p id="recovery-error" className="error">
              {t("admin.signIn.badCode")}
            </p>
          )}
          {notice === "rate-limited" && (
            <p id="recovery-error" className="error">
              {t("admin.signIn.rateLimited")}
            </p>
          )}
          <p>
            <button type="submit">{t("admin.signIn.recoveryButton")}</button>
          </p>
        </form>
      </section>
    </>,
  );
}

/** The page an invite link opens: register a passkey, then see the recovery codes once. */
export function invitePage(ctx: PageContext, token: string): string {
  const { t } = ctx;
  return renderPage(
    ctx,
    t("admin.invite.title"),
    null,
    <>
      <p>{t("admin.invite.intro")}</p>
      <section className="card">
        <label htmlFor="passkey-name">{t("admin.passkey.nameLabel")}</label>
        <input type="text" id="passkey-name" name="name" maxLength={60} placeholder={t("admin.passkey.namePlaceholder")} />
        <p />
        <PasskeyButton t={t} kind="register" label={t("admin.invite.button")} invite={token} />
      </section>
      <RecoveryCodesPanel ctx={ctx} />
    </>,
  );
}

/** Filled by the script with the codes the server sends once; hidden until then. */
export function RecoveryCodesPanel({ ctx }: { ctx: PageContext }) {
  const { t } = ctx;
  return (
    <section id="recovery-codes" className="card" hidden tabIndex={-1} aria-labelledby="codes-heading">
      <h2 id="codes-heading">{t("admin.codes.title")}</h2>
      <p>{t("admin.codes.intro")}</p>
      <ul id="recovery-code-list" />
      <p>
        <a id="recovery-continue" className="button" href="/admin">
          {t("admin.codes.continue")}
        </a>
      </p>
    </section>
  );
}

/** A page that only says something (an invite that cannot be used, a refused action). */
export function messagePage(ctx: PageContext, title: string, text: string, link: { href: string; label: string }): string {
  return renderPage(
    ctx,
    title,
    null,
    <>
      <p>{text}</p>
      <p>
        <a href={link.href}>{link.label}</a>
      </p>
    </>,
  );
}
