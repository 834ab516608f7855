import { render, toPlainText } from "@react-email/render";
import type { ReactElement } from "react";
import { DEFAULT_LOCALE, isLocale, LOCALE_TAGS, type Locale } from "../../../shared/locales";
import { SELLER_TIME_ZONE } from "../../../shared/offer";
import { formatMoney } from "../../../shared/price";
import { pathFor } from "../../../shared/routes";
import type { Config } from "../../platform/config";
import type { PublishedContent } from "../../site/content/published";
import type { MailLinks } from "../licenses/tokens";
import type { MailPaperwork } from "../paperwork/mail-paperwork";
import { orderName } from "./order-name";
import { type OutboxRow, readPayload } from "./outbox";
import { type DigestLists, DigestMail, type DigestPayload, digestSubject } from "./templates/digest";
import { AccessMail, DemoMail, type MailContext, OwnerMail, RefundMail } from "./templates/messages";
import { ReviewInviteMail, ReviewRefusedMail } from "./templates/reviews";
import type { OutgoingMail } from "./transport";

/** Reads the digest's lists (questions handed over, e-mails failing) when the message is written. */
export type DigestListsReader = (payload: DigestPayload) => DigestLists;

/** Receipts show the seller's local date and time. */
export const RECEIPT_TIME_ZONE = SELLER_TIME_ZONE;

/** The public unsubscribe address of a lead (the List-Unsubscribe header and the visible link). */
export const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl}/unsubscribe?token=${encodeURIComponent(token)}`;

/** The message written from an outbox row, in the row's language; null when its payload is unreadable. */
export async function composeMail(
  row: OutboxRow,
  config: Config,
  content: PublishedContent,
  contexts?: Map<Locale, MailContext>,
  links?: MailLinks,
  paperwork?: MailPaperwork,
  digestLists?: DigestListsReader,
): Promise<OutgoingMail | null> {
  const locale: Locale = isLocale(row.locale) ? row.locale : DEFAULT_LOCALE;
  // The sender keeps one context per language: building the facts and Intl formatters is a third
  // of the cost of a message otherwise.
  let c = contexts?.get(locale);
  if (c === undefined) {
    c = mailContext(config, content, locale);
    contexts?.set(locale, c);
  }
  const mail = await composeKind(row, config, content, locale, c, links, paperwork, digestLists);
  return mail !== null && config.site.testCheckout ? markedTest(mail, c) : mail;
}

/**
 * A message from a production site taking orders with the test checkout: "[TEST]" before its
 * subject and a line saying so above its text, whatever it is about (a buyer who "paid" with a test
 * card must not take its licence for a purchase, nor the owner its notices for sales).
 */
function markedTest(mail: OutgoingMail, c: MailContext): OutgoingMail {
  const mark = c.t("mail.testMark");
  const prefix = c.t("mail.testSubjectPrefix");
  const banner = `<div style="background:#ffc857;color:#1a1400;font-weight:700;padding:12px 16px;margin:0 0 8px;font-family:Arial,sans-serif;font-size:15px;line-height:22px">${escapeHtml(mark)}</div>`;
  return {
    ...mail,
    // The owner's notice of a test order says so in its subject already.
    subject: mail.subject.startsWith(prefix) ? mail.subject : `${prefix} ${mail.subject}`,
    text: `${mark}\n\n${mail.text}`,
    html: /<body[^>]*>/.test(mail.html) ? mail.html.replace(/<body[^>]*>/, (body) => `${body}${banner}`) : `${banner}${mail.html}`,
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

async function composeKind(
  row: OutboxRow,
  config: Config,
  content: PublishedContent,
  locale: Locale,
  c: MailContext,
  links?: MailLinks,
  paperwork?: MailPaperwork,
  digestLists?: DigestListsReader,
): Promise<OutgoingMail | null> {
  const base = { outboxId: row.id, from: mailFrom(config, content), to: row.recipient, messageId: row.messageId, date: row.createdAt };
  const buyerHeaders = { "Reply-To": config.site.supportEmail };

  switch (row.kind) {
    case "access": {
      const p = readPayload("access", row.payload);
      if (p === null) return null;
      const guideUrl = c.link(pathFor("guide", locale));
      // Signed when the message is written, so a resent e-mail carries a fresh link.
      const devicesUrl = links === undefined || p.reference === undefined ? undefined : await links.devices(p.reference, locale);
      const refundUrl = links === undefined || p.reference === undefined ? undefined : await links.refund(p.reference, locale);
      // The invoice and the terms accepted, made now (not in the payment's transaction).
      const papers = (await paperwork?.forAccess(p.orderId)) ?? null;
      return {
        ...base,
        ...(await both(<AccessMail c={c} p={p} guideUrl={guideUrl} devicesUrl={devicesUrl} refundUrl={refundUrl} papers={papers} />)),
        subject: c.t("mail.access.subject"),
        headers: buyerHeaders,
        attachments: papers?.attachments ?? [],
      };
    }
    case "refund": {
      const p = readPayload("refund", row.payload);
      if (p === null) return null;
      const papers = (await paperwork?.forRefund(p.orderId)) ?? null;
      return {
        ...base,
        ...(await both(<RefundMail c={c} p={p} papers={papers} />)),
        subject: c.t("mail.refund.subject", { order: orderName(p) }),
        headers: buyerHeaders,
        attachments: papers?.attachments ?? [],
      };
    }
    case "demo": {
      const p = readPayload("demo", row.payload);
      if (p === null) return null;
      const unsubscribe = unsubscribeUrl(config.publicBaseUrl, p.unsubscribeToken);
      const element = (
        <DemoMail
          c={c}
          demoUrl={c.link(pathFor("demo", locale))}
          paymentUrl={c.link(pathFor("payment", locale))}
          unsubscribeUrl={unsubscribe}
        />
      );
      return {
        ...base,
        ...(await both(element)),
        subject: c.t("mail.demo.subject"),
        // RFC 8058: mail providers offer their own unsubscribe button and POST to this address.
        headers: { ...buyerHeaders, "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      };
    }
    case "owner-sale":
    case "owner-refund":
    case "owner-refund-request": {
      const p = readPayload(row.kind, row.payload);
      if (p === null) return null;
      const notice = row.kind === "owner-sale" ? "sale" : row.kind === "owner-refund" ? "refund" : "request";
      const amount = c.money(p.amountMinor, p.currency);
      const subjectKey = {
        sale: "mail.owner.saleSubject",
        refund: "mail.owner.refundSubject",
        request: "mail.owner.requestSubject",
      } as const;
      // A 100 % code's claim is not a sale: its notice names the code, not "€0".
      const subject =
        notice === "sale" && p.amountMinor === 0 && p.code != null
          ? c.t("mail.owner.freeSubject", { code: p.code, order: orderName(p) })
          : c.t(subjectKey[notice], { amount, order: orderName(p) });
      return {
        ...base,
        ...(await both(<OwnerMail c={c} p={p} notice={notice} />)),
        subject: p.provider === "test" ? `[TEST] ${subject}` : subject,
        headers: {},
      };
    }
    case "owner-digest": {
      const p = readPayload("owner-digest", row.payload);
      if (p === null) return null;
      const element = (
        <DigestMail
          c={c}
          p={p}
          lists={digestLists?.(p)}
          consoleUrl={`${config.publicBaseUrl}/admin`}
          schedule={{ weekday: config.digest.weekday, hour: config.digest.hour }}
        />
      );
      return { ...base, ...(await both(element)), subject: digestSubject(c, p), headers: {} };
    }
    case "review-invite": {
      const p = readPayload("review-invite", row.payload);
      if (p === null || links === undefined) return null;
      const stopUrl = links.reviewStop(p.reference, locale);
      const element = <ReviewInviteMail c={c} reviewUrl={links.review(p.reference, locale)} stopUrl={stopUrl} reference={p.reference} />;
      return {
        ...base,
        ...(await both(element)),
        subject: c.t("mail.reviewInvite.subject"),
        // RFC 8058: the mail client's own button posts to the stop link.
        headers: { ...buyerHeaders, "List-Unsubscribe": `<${stopUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      };
    }
    case "review-refused": {
      const p = readPayload("review-refused", row.payload);
      if (p === null || links === undefined) return null;
      const element = <ReviewRefusedMail c={c} reviewUrl={links.review(p.reference, locale)} reason={p.reason} />;
      return { ...base, ...(await both(element)), subject: c.t("mail.reviewRefused.subject"), headers: buyerHeaders };
    }
  }
}

/** The HTML part, and the plain-text part made from it (rather than rendering the template twice). */
async function both(element: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(element);
  return { html, text: toPlainText(html) };
}

/** MAIL_FROM, else no-reply@ the site's domain named after the product (as published). */
export function mailFrom(config: Config, content: PublishedContent): string {
  return config.mail.from ?? `"${content.site.name.replace(/["\\\r\n]/g, "")}" <no-reply@${config.mail.domain}>`;
}

export function mailContext(config: Config, content: PublishedContent, locale: Locale, now = new Date()): MailContext {
  const { t } = content.localized(locale, now);
  const bcp47 = LOCALE_TAGS[locale].bcp47;
  // The zone is named ("CET", "UTC+1"): a buyer elsewhere reads the time right.
  const dates = new Intl.DateTimeFormat(bcp47, {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone: RECEIPT_TIME_ZONE,
  });
  const percent = new Intl.NumberFormat(bcp47, { style: "percent", maximumFractionDigits: 2 });
  return {
    locale,
    t,
    siteName: content.site.name,
    supportEmail: config.site.supportEmail,
    seller: config.legal,
    baseUrl: config.publicBaseUrl,
    money: (minor, currency) => formatMoney(minor, currency, locale),
    rate: (basisPoints) => percent.format(basisPoints / 10_000),
    date: (ms) => dates.format(new Date(ms)),
    link: (path) => `${config.publicBaseUrl}${path}`,
  };
}
