import { Button } from "@react-email/button";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { MailKind } from "../../../../db/schema";
import { LOCALE_TAGS } from "../../../../shared/locales";
import { type Formats, formatsFor, hourLabel, weekdayName } from "../../../../shared/owner-formats";
import type { MailPayloads } from "../outbox";
import { button, colors, Fact, heading, MailLayout, small, text } from "./layout";
import type { MailContext } from "./messages";

export type DigestPayload = MailPayloads["owner-digest"];

/** A message of the queue as the digest names it. */
export type DigestMailRow = { kind: MailKind; recipient: string; lastError: string | null; createdAt: number };

/**
 * What the digest reads when it is written rather than when it is queued: the questions of its
 * period still stored, and the e-mail queue as it is now.
 */
export type DigestLists = {
  handOvers: { question: string; locale: string; at: number }[];
  /** How many of the period's questions there are in all (the list holds the newest few). */
  handOverCount: number;
  failed: { count: number; rows: DigestMailRow[] };
  late: { count: number; rows: DigestMailRow[] };
  /**
   * The HTTPS certificate the site gets itself, when its last attempt to get or renew it failed
   * (null otherwise, and without DOMAIN): the owner learns of it weeks before visitors would.
   */
  certificate?: {
    domains: string[];
    notAfter: number | null;
    lastError: string;
    lastErrorAt: number | null;
    nextAttemptAt: number | null;
  } | null;
};

const FUNNEL_STEPS = ["visitors", "paymentPage", "checkoutStarted", "paid"] as const;

/** The period as the subject and the title name it: a day, or a week with its dates. */
export function digestPeriodLabel(c: MailContext, p: DigestPayload): string {
  const tag = LOCALE_TAGS[c.locale].bcp47;
  // The dates are calendar dates: formatted at noon UTC, they are the same day in any zone.
  const noon = (date: string) => new Date(`${date}T12:00:00Z`);
  if (p.frequency === "daily") return new Intl.DateTimeFormat(tag, { dateStyle: "full", timeZone: "UTC" }).format(noon(p.firstDay));
  const range = new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeZone: "UTC" }).formatRange(noon(p.firstDay), noon(p.lastDay));
  return c.t("mail.digest.week", { week: Number(p.period.slice(6)), range });
}

export function digestSubject(c: MailContext, p: DigestPayload, fmt: Formats = formatsFor(c.locale)): string {
  return c.t("mail.digest.subject", {
    period: digestPeriodLabel(c, p),
    orders: p.sales.paidOrders,
    net: fmt.money(p.sales.net, p.currency),
    visitors: p.audience.visitors,
  });
}

/**
 * The owner's digest: sales and revenue, visitors and the purchase funnel, the questions the
 * assistant handed over, the e-mails failing or late, and the console's address. The figures are
 * the console's own (its overview, audience, support and e-mail pages), in the owner's language.
 */
export function DigestMail({
  c,
  p,
  lists,
  consoleUrl,
  schedule,
}: {
  c: MailContext;
  p: DigestPayload;
  /** Without them (a sender not given the reader), the two lists are left out rather than shown empty. */
  lists: DigestLists | undefined;
  consoleUrl: string;
  /** When the digest goes out, for the footer: the weekday (1 Monday) and hour of DIGEST_WEEKDAY and DIGEST_HOUR. */
  schedule: { weekday: number; hour: number };
}) {
  const { t, locale } = c;
  const fmt = formatsFor(locale);
  const tag = LOCALE_TAGS[locale].bcp47;
  const percent = new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 1 });
  const rate = (part: number, whole: number) => (whole === 0 ? "—" : percent.format(part / whole));
  const money = (minor: number) => fmt.money(minor, p.currency);
  const a = p.audience;
  const source = (key: string) => (key === "direct" ? t("admin.audience.direct") : key === "unknown" ? t("admin.audience.unknown") : key);
  const when = (ms: number) => fmt.when(new Date(ms));
  const section = { ...heading, fontSize: "18px", margin: "24px 0 12px" };
  const weekday = weekdayName(locale, schedule.weekday);
  const hour = hourLabel(schedule.hour);
  const mailRow = (m: DigestMailRow) => (
    <Text key={`${m.kind}-${m.createdAt}-${m.recipient}`} style={{ ...small, margin: "0 0 6px" }}>
      {t("mail.digest.mailRow", { kind: t(`admin.mailKind.${m.kind}`), to: m.recipient, date: when(m.createdAt) })}
      {m.lastError === null ? null : ` — ${m.lastError}`}
    </Text>
  );

  return (
    <MailLayout
      locale={locale}
      preview={digestSubject(c, p, fmt)}
      siteName={c.siteName}
      baseUrl={c.baseUrl}
      footer={<Text style={small}>{t("mail.digest.footer", { frequency: p.frequency, weekday, hour })}</Text>}
    >
      <Text style={heading}>{t("mail.digest.title", { frequency: p.frequency, period: digestPeriodLabel(c, p) })}</Text>

      <Text style={section}>{t("mail.digest.sales")}</Text>
      <Fact locale={locale} label={t("admin.overview.net")} value={money(p.sales.net)} />
      <Fact locale={locale} label={t("admin.overview.gross")} value={money(p.sales.gross)} />
      <Fact locale={locale} label={t("admin.overview.refunded")} value={money(p.sales.refunded)} />
      <Fact locale={locale} label={t("admin.overview.paidOrders")} value={fmt.number(p.sales.paidOrders)} />
      <Fact locale={locale} label={t("mail.digest.refundedOrders")} value={fmt.number(p.sales.refundedOrders)} />

      <Text style={section}>{t("mail.digest.audience")}</Text>
      <Fact locale={locale} label={t("admin.audience.step.visitors")} value={fmt.number(a.visitors)} />
      <Fact locale={locale} label={t("admin.audience.pageviews")} value={fmt.number(a.pageviews)} />
      {FUNNEL_STEPS.map((step, i) =>
        i === 0 ? null : (
          <Fact
            key={step}
            locale={locale}
            label={t(`admin.audience.step.${step}`)}
            value={`${fmt.number(a[step])} (${rate(a[step], a[FUNNEL_STEPS[i - 1] ?? "visitors"])})`}
          />
        ),
      )}
      <Fact locale={locale} label={t("admin.audience.conversion")} value={rate(a.paid, a.visitors)} />
      {a.sources.length === 0 ? null : (
        <Fact
          locale={locale}
          label={t("mail.digest.sources")}
          value={a.sources.map((s) => `${source(s.key)} (${fmt.number(s.visitors)})`).join(", ")}
        />
      )}
      <Text style={small}>{t("mail.digest.audienceNote")}</Text>

      {lists === undefined ? null : (
        <>
          <Text style={section}>{t("admin.support.handOvers")}</Text>
          {lists.handOverCount === 0 ? (
            <Text style={text}>{t("mail.digest.noQuestion")}</Text>
          ) : (
            <>
              <Text style={small}>{t("admin.support.handOversHint")}</Text>
              {lists.handOvers.map((h) => (
                <Text key={`${h.at}-${h.question.length}`} style={{ ...text, margin: "0 0 8px" }}>
                  <span lang={h.locale}>“{h.question}”</span> <span style={{ color: colors.muted }}>— {when(h.at)}</span>
                </Text>
              ))}
              {lists.handOverCount > lists.handOvers.length ? (
                <Text style={small}>{t("mail.digest.moreQuestions", { count: lists.handOverCount - lists.handOvers.length })}</Text>
              ) : null}
            </>
          )}

          <Text style={section}>{t("admin.mail.title")}</Text>
          {lists.failed.count + lists.late.count === 0 ? (
            <Text style={text}>{t("mail.digest.mailFine")}</Text>
          ) : (
            <>
              {lists.failed.count === 0 ? null : (
                <>
                  <Text style={{ ...text, margin: "0 0 8px" }}>{t("mail.digest.mailFailed", { count: lists.failed.count })}</Text>
                  {lists.failed.rows.map(mailRow)}
                </>
              )}
              {lists.late.count === 0 ? null : (
                <>
                  <Text style={{ ...text, margin: "8px 0" }}>{t("mail.digest.mailLate", { count: lists.late.count })}</Text>
                  {lists.late.rows.map(mailRow)}
                </>
              )}
            </>
          )}
        </>
      )}

      {lists?.certificate == null ? null : (
        <>
          <Text style={section}>{t("mail.digest.certificate")}</Text>
          <Text style={{ ...text, margin: "0 0 8px" }} data-testid="digest-certificate">
            {t("mail.digest.certificateFailed", {
              domains: lists.certificate.domains.join(", "),
              date: lists.certificate.lastErrorAt === null ? "—" : when(lists.certificate.lastErrorAt),
              error: lists.certificate.lastError,
            })}{" "}
            {lists.certificate.notAfter === null
              ? t("mail.digest.certificateNone", {
                  next: lists.certificate.nextAttemptAt === null ? "—" : when(lists.certificate.nextAttemptAt),
                })
              : t("mail.digest.certificateServed", {
                  date: when(lists.certificate.notAfter),
                  next: lists.certificate.nextAttemptAt === null ? "—" : when(lists.certificate.nextAttemptAt),
                })}
          </Text>
        </>
      )}

      <Section style={{ margin: "28px 0 8px" }}>
        <Button href={consoleUrl} style={button}>
          {t("mail.digest.console")}
        </Button>
      </Section>
    </MailLayout>
  );
}
