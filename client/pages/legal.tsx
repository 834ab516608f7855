import type { ReactNode } from "react";
import type { MessageKey } from "../../shared/i18n";
import { identityIncomplete, type LegalFacts, type LegalIdentity, TERMS_SECTIONS } from "../../shared/legal";
import { pathFor } from "../../shared/routes";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { LinkedText } from "../components/linked-text";
import { useI18n } from "../i18n";

// The legal notice, the terms of sale and the privacy policy: templates in
// locales/*.json filled from the running site's configuration (server/site/legal.ts), so that each
// sentence is true of this installation. A setting the owner has not given yet shows as a marked
// placeholder; production does not start until there are none (server/platform/production-readiness.ts).

type IdentityField = keyof LegalIdentity;

const LABELS: Record<IdentityField, MessageKey> = {
  sellerName: "legal.sellerName",
  sellerAddress: "legal.sellerAddress",
  sellerRegistration: "legal.sellerRegistration",
  sellerVatId: "legal.sellerVatId",
  sellerPhone: "legal.sellerPhone",
  publicationDirector: "legal.director",
  hostingProvider: "legal.host",
  mediatorName: "legal.mediatorName",
  mediatorUrl: "legal.mediatorUrl",
};

/** A field's value, or the marked placeholder that says which one the owner still has to give. */
function useIdentity(identity: LegalIdentity) {
  const { t } = useI18n();
  return (field: IdentityField): string => identity[field] ?? t("legal.todo", { what: t(LABELS[field]) });
}

function LegalPage({
  titleKey,
  introKey,
  legal,
  after,
  children,
}: {
  titleKey: MessageKey;
  introKey: MessageKey;
  legal: LegalFacts;
  after?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <>
      <SiteHeader />
      <Main className="page legal">
        <div className="container container--narrow">
          <h1 className="page__title">{t(titleKey)}</h1>
          <p className="page__subtitle">{t(introKey)}</p>
          {after}
          {identityIncomplete(legal.identity) ? (
            <p className="legal__incomplete" data-testid="legal-incomplete">
              {t("legal.incomplete")}
            </p>
          ) : null}
          {children}
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="legal__section" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

/** A term and its value; a value the owner has not set is shown as the marked placeholder. */
function Fact({ label, value, missing, children }: { label: string; value: string; missing: boolean; children?: ReactNode }) {
  return (
    <div className="legal__fact">
      <dt>{label}</dt>
      <dd className={missing ? "legal__todo" : undefined}>{children ?? value}</dd>
    </div>
  );
}

function SeeAlso({ pages }: { pages: ("legal-notice" | "terms" | "privacy")[] }) {
  const { t, locale } = useI18n();
  const names = { "legal-notice": "footer.legalNotice", terms: "footer.terms", privacy: "footer.privacy" } as const;
  return (
    <nav className="legal__see-also" aria-labelledby="see-also-title">
      <h2 id="see-also-title">{t("legal.seeAlso")}</h2>
      <ul role="list">
        {pages.map((page) => (
          <li key={page}>
            <a href={pathFor(page, locale)}>{t(names[page])}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function LegalNoticePage({ legal }: { legal: LegalFacts }) {
  const { t, facts } = useI18n();
  const value = useIdentity(legal.identity);
  const { identity } = legal;
  const fact = (field: IdentityField) => <Fact label={t(LABELS[field])} value={value(field)} missing={identity[field] === null} />;
  return (
    <LegalPage titleKey="legalNotice.title" introKey="legalNotice.intro" legal={legal}>
      <Section id="publisher" title={t("legalNotice.publisherTitle")}>
        <dl className="legal__facts">
          {fact("sellerName")}
          {fact("sellerAddress")}
          {fact("sellerRegistration")}
          {identity.sellerVatId !== null ? fact("sellerVatId") : null}
          {identity.sellerPhone !== null ? fact("sellerPhone") : null}
          <Fact label={t("legal.email")} value={facts.supportEmail} missing={false}>
            <a href={`mailto:${facts.supportEmail}`}>{facts.supportEmail}</a>
          </Fact>
          {fact("publicationDirector")}
        </dl>
      </Section>
      <Section id="host" title={t("legalNotice.hostTitle")}>
        <p>{t("legalNotice.hostText")}</p>
        <p className={identity.hostingProvider === null ? "legal__todo legal__block" : "legal__block"}>{value("hostingProvider")}</p>
      </Section>
      <Section id="contact" title={t("legalNotice.contactTitle")}>
        <p>{t("legalNotice.contactText")}</p>
      </Section>
      <SeeAlso pages={["terms", "privacy"]} />
    </LegalPage>
  );
}

export function TermsPage({ legal }: { legal: LegalFacts }) {
  const { t, locale } = useI18n();
  const value = useIdentity(legal.identity);
  const { identity } = legal;
  const text = (section: (typeof TERMS_SECTIONS)[number]): ReactNode => {
    switch (section) {
      case "payment":
        return <p>{t(legal.payment === "stripe" ? "terms.payment.stripe" : "terms.payment.test")}</p>;
      case "delivery":
        return (
          <p>
            <LinkedText text={t("terms.delivery.text")} href={pathFor("access", locale)} />
          </p>
        );
      case "licence":
        return <p>{t("terms.licence.text", { devices: legal.activationLimit })}</p>;
      case "price":
        return (
          <>
            <p>{t("terms.price.text")}</p>
            <p data-testid="terms-vat">{t(`terms.vat.${legal.vatScheme}`)}</p>
          </>
        );
      case "complaints":
        return (
          <>
            <p>{t("terms.complaints.text")}</p>
            <dl className="legal__facts">
              <Fact label={t("legal.mediatorName")} value={value("mediatorName")} missing={identity.mediatorName === null} />
              <Fact label={t("legal.mediatorUrl")} value={value("mediatorUrl")} missing={identity.mediatorUrl === null}>
                {identity.mediatorUrl !== null ? <a href={identity.mediatorUrl}>{identity.mediatorUrl}</a> : undefined}
              </Fact>
            </dl>
          </>
        );
      default:
        return <p>{t(`terms.${section}.text`)}</p>;
    }
  };
  return (
    <LegalPage
      titleKey="terms.title"
      introKey="terms.intro"
      legal={legal}
      after={
        <p className="muted legal__version" data-testid="terms-version">
          {t("terms.version", { version: legal.termsVersionDate })}
        </p>
      }
    >
      <Section id="seller" title={t("terms.seller.title")}>
        <p>
          {t("terms.seller.text", {
            sellerName: value("sellerName"),
            sellerAddress: value("sellerAddress"),
            sellerRegistration: value("sellerRegistration"),
          })}
          {identity.sellerVatId !== null ? ` ${t("terms.seller.vat", { vatId: identity.sellerVatId })}` : null}
        </p>
      </Section>
      {TERMS_SECTIONS.map((section) => (
        <Section key={section} id={section} title={t(`terms.${section}.title`)}>
          {text(section)}
        </Section>
      ))}
      <p className="legal__closing">
        <LinkedText text={t("terms.privacy")} href={pathFor("privacy", locale)} />
      </p>
      <SeeAlso pages={["legal-notice", "privacy"]} />
    </LegalPage>
  );
}

export function PrivacyPage({ legal }: { legal: LegalFacts }) {
  const { t } = useI18n();
  const value = useIdentity(legal.identity);
  const { leadDays, chatDays, analyticsDays } = legal.retention;
  const subsection = (id: string, title: string, paragraphs: string[]) => (
    <section className="legal__subsection" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      {paragraphs.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </section>
  );
  return (
    <LegalPage titleKey="privacy.title" introKey="privacy.intro" legal={legal}>
      <Section id="controller" title={t("privacy.controller.title")}>
        <p>{t("privacy.controller.text", { sellerName: value("sellerName"), sellerAddress: value("sellerAddress") })}</p>
      </Section>
      <Section id="stored" title={t("privacy.stored.title")}>
        {subsection("orders", t("privacy.orders.title"), [t("privacy.orders.text"), t("privacy.orders.socialProof")])}
        {subsection("leads", t("privacy.leads.title"), [t("privacy.leads.text", { leadDays })])}
        {subsection("chat", t("privacy.chat.title"), [
          t("privacy.chat.text", { chatDays }),
          t(legal.chat === "claude" ? "privacy.chat.claude" : "privacy.chat.offline"),
          ...(legal.chatDigest ? [t("privacy.chat.digest")] : []),
        ])}
        {subsection(
          "mail",
          t("privacy.mail.title"),
          legal.smtp ? [t("privacy.mail.text"), t("privacy.mail.smtp")] : [t("privacy.mail.text")],
        )}
        {subsection("audience", t("privacy.audience.title"), [
          t("privacy.audience.text", { analyticsDays }),
          t("privacy.audience.partner"),
        ])}
        {subsection("ip", t("privacy.ip.title"), [t("privacy.ip.text")])}
        {subsection("payment", t("privacy.payment.title"), [
          t(legal.payment === "stripe" ? "privacy.payment.stripe" : "privacy.payment.test"),
        ])}
      </Section>
      <Section id="cookies" title={t("privacy.cookies.title")}>
        <p>{t("privacy.cookies.text")}</p>
      </Section>
      <Section id="recipients" title={t("privacy.recipients.title")}>
        <p>{t("privacy.recipients.text", { hostingProvider: value("hostingProvider") })}</p>
        {legal.backup !== null ? (
          <p>{legal.backup.storage !== null ? t("privacy.backup.storage", { storage: legal.backup.storage }) : t("privacy.backup.disk")}</p>
        ) : null}
      </Section>
      <Section id="rights" title={t("privacy.rights.title")}>
        <p>{t("privacy.rights.text")}</p>
        <p>{t("privacy.rights.unsubscribe")}</p>
        <p>{t("privacy.rights.complaint")}</p>
      </Section>
      <SeeAlso pages={["legal-notice", "terms"]} />
    </LegalPage>
  );
}
