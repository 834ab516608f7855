import type { Passkey } from "../passkeys";
import type { OwnerSession } from "../sessions";
import { RecoveryCodesPanel } from "./auth-pages";
import { type PageContext, PasskeyButton, renderPage } from "./layout";

export type SecurityData = {
  current: number;
  sessions: OwnerSession[];
  passkeys: Passkey[];
  codesLeft: number;
  /** Set right after a recovery code signed in: how many are left. */
  justUsedCode: number | null;
  /** Whether this session may add or remove a passkey now (a fresh check: sessions.ts, mayAddPasskey). */
  mayAddPasskey: boolean;
};

/** Sessions (end any), passkeys (add, remove) and what is left of the recovery codes. */
export function securityPage(ctx: PageContext, data: SecurityData): string {
  const { t } = ctx;
  return renderPage(
    ctx,
    t("admin.security.title"),
    "security",
    <>
      {data.justUsedCode !== null && (
        <p className="success" role="status">
          {t("admin.security.codeUsed", { count: data.justUsedCode })}
        </p>
      )}
      <h2>{t("admin.security.sessions")}</h2>
      <div className="table-wrap" tabIndex={0} role="region" aria-label={t("admin.tableRegion")}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("admin.security.browser")}</th>
              <th scope="col">{t("admin.security.signedInAt")}</th>
              <th scope="col">{t("admin.security.lastSeen")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("admin.security.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.sessions.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.label} {s.id === data.current && <span className="badge">{t("admin.security.thisSession")}</span>}
                </td>
                <td>{ctx.fmt.when(s.createdAt)}</td>
                <td>{ctx.fmt.when(s.lastSeenAt)}</td>
                <td>
                  <form method="post" action={`/admin/sessions/${s.id}/end`}>
                    <button type="submit" className="secondary" aria-label={t("admin.security.endLabel", { browser: s.label })}>
                      {t("admin.security.end")}
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>{t("admin.security.passkeys")}</h2>
      <ul>
        {data.passkeys.map((p) => (
          <li key={p.id}>
            <strong>{p.name}</strong> — {t("admin.security.addedOn", { date: ctx.fmt.when(p.createdAt) })}
            {p.lastUsedAt !== null && <> · {t("admin.security.lastUsed", { date: ctx.fmt.when(p.lastUsedAt) })}</>}
            {data.passkeys.length > 1 && data.mayAddPasskey && (
              <form method="post" action={`/admin/passkeys/${p.id}/remove`} className="inline">
                {" "}
                <button type="submit" className="secondary" aria-label={t("admin.security.removeLabel", { name: p.name })}>
                  {t("admin.security.remove")}
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
      {data.passkeys.length === 1 && <p className="note">{t("admin.security.lastPasskey")}</p>}
      <section className="card">
        <h2>{t("admin.security.addPasskey")}</h2>
        {data.mayAddPasskey ? (
          <>
            <label htmlFor="passkey-name">{t("admin.passkey.nameLabel")}</label>
            <input type="text" id="passkey-name" name="name" maxLength={60} placeholder={t("admin.passkey.namePlaceholder")} />
            <p />
            <PasskeyButton t={t} kind="register" label={t("admin.security.addPasskeyButton")} />
          </>
        ) : (
          <>
            <p className="note">{t("admin.fresh.neededPasskey")}</p>
            <PasskeyButton t={t} kind="confirm" label={t("admin.fresh.button")} />
          </>
        )}
      </section>
      <RecoveryCodesPanel ctx={ctx} />
      <h2>{t("admin.security.recoveryCodes")}</h2>
      <p>{t("admin.security.codesLeft", { count: data.codesLeft })}</p>
    </>,
  );
}
