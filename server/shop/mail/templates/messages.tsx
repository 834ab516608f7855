import { Button } from "@react-email/button";
import { Link } from "@react-email/link";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { Translate } from "../../../../shared/i18n";
import { formatTermsVersion, type LegalIdentity } from "../../../../shared/legal";
import { LOCALE_TAGS, type Locale } from "../../../../shared/locales";
import { formatExactMoney } from "../../../../shared/price";
import type { AccessPaperwork, RefundPaperwork } from "../../paperwork/mail-paperwork";
import { orderName } from "../order-name";
import type { MailPayloads } from "../outbox";
import { button, colors, Fact, heading, MailLayout, small, text } from "./layout";

/** What every template gets besides its payload: texts and values already in the message's language. */
export type MailContext = {
  locale: Locale;
  t: Translate;
  siteName: string;
  supportEmail: string;
  /** Who sells: every e-mail to a buyer names them (the legal notice's settings). */
  seller: LegalIdentity;
  baseUrl: string;
  money: (minor: number, currency: string) => string;
  /** A VAT rate in basis points as the language writes a percentage (20 %, 5,5 %). */
  rate: (basisPoints: number) => string;
  date: (ms: number) => string;
  /** Absolute URL of a site path in the message's language. */
  link: (path: string) => string;
};

function SupportFooter({ c }: { c: MailContext }) {
  return <Text style={small}>{c.t("mail.supportLine", { email: c.supportEmail })}</Text>;
}

/** The seller's identity and contact, as the contract's confirmation must give them. */
function SellerLine({ c }: { c: MailContext }) {
  const { t, seller } = c;
  const todo = (what: Parameters<typeof t>[0]) => t("legal.todo", { what: t(what) });
  return (
    <Text style={small} data-testid="seller">
      {t("mail.seller", {
        name: seller.sellerName ?? todo("legal.sellerName"),
        address: seller.sellerAddress ?? todo("legal.sellerAddress"),
        registration: seller.sellerRegistration ?? todo("legal.sellerRegistration"),
        email: c.supportEmail,
      })}
      {seller.sellerVatId !== null ? ` ${t("terms.seller.vat", { vatId: seller.sellerVatId })}` : null}
    </Text>
  );
}

export function AccessMail({
  c,
  p,
  guideUrl,
  devicesUrl,
  refundUrl,
  papers,
}: {
  c: MailContext;
  p: MailPayloads["access"];
  guideUrl: string;
  devicesUrl?: string;
  /** The order's signed refund page (the 7-day guarantee). */
  refundUrl?: string;
  papers: AccessPaperwork | null;
}) {
  const { t } = c;
  const vat = papers?.vat ?? null;
  // A company reverse-charged, or a consumer outside the EU, pays no VAT: the receipt says why rather
  // than "VAT included" beside a VAT of 0, as the attached invoice does.
  const noVat = vat !== null && (vat.vatRule === "reverse-charge" || vat.vatRule === "outside-eu");
  const vatCase: { vat?: string } =
    vat === null
      ? {}
      : {
          vat:
            vat.vatScheme === "franchise"
              ? "none"
              : vat.vatRule === "reverse-charge"
                ? "reverse"
                : vat.vatRule === "outside-eu"
                  ? "outside"
                  : "included",
        };
  return (
    <MailLayout
      locale={c.locale}
      preview={t("mail.access.preview")}
      siteName={c.siteName}
      baseUrl={c.baseUrl}
      footer={<SupportFooter c={c} />}
    >
      <Text style={heading}>{t("mail.access.title")}</Text>
      <Text style={text}>{t("mail.access.intro")}</Text>
      <Section style={{ backgroundColor: colors.soft, borderRadius: "10px", padding: "16px 20px", margin: "0 0 20px" }}>
        <Text style={{ ...small, margin: "0 0 4px" }}>{t("mail.access.keyLabel")}</Text>
        <Text
          style={{
            color: colors.ink,
            fontFamily: "Menlo, Consolas, monospace",
            fontSize: "20px",
            fontWeight: 700,
            letterSpacing: "1px",
            margin: 0,
          }}
        >
          {p.licenseKey}
        </Text>
      </Section>
      <Text style={text}>{t("mail.access.guideText")}</Text>
      <Section style={{ margin: "0 0 24px" }}>
        <Button href={guideUrl} style={button}>
          {t("mail.access.guideButton")}
        </Button>
      </Section>
      {devicesUrl === undefined ? null : <DevicesLink c={c} url={devicesUrl} />}
      <Text style={{ ...heading, fontSize: "18px" }}>{t("mail.receipt.title")}</Text>
      <Fact locale={c.locale} label={t("mail.receipt.order")} value={orderName(p)} />
      <Fact locale={c.locale} label={t("mail.receipt.date")} value={c.date(p.paidAt)} />
      <Fact locale={c.locale} label={t("mail.receipt.product")} value={t("orderProduct")} />
      {/* A code's reduction, as the invoice writes it: the price, what the code took off, then what was paid. */}
      {p.discountCode != null && p.listAmountMinor != null && p.discountMinor != null ? (
        <>
          <Fact locale={c.locale} label={t("mail.receipt.listPrice")} value={formatExactMoney(p.listAmountMinor, p.currency, c.locale)} />
          <Fact
            locale={c.locale}
            label={t("mail.receipt.discount", { code: p.discountCode })}
            // With its cents, as the attached invoice writes the reduction.
            value={`−${formatExactMoney(p.discountMinor, p.currency, c.locale)}`}
          />
        </>
      ) : null}
      <Fact
        locale={c.locale}
        label={t("mail.receipt.amount")}
        value={
          // Nothing paid (a 100 % code): "0,00 €", as the list price and reduction above it, with no VAT wording.
          p.amountMinor === 0
            ? formatExactMoney(0, p.currency, c.locale)
            : t("mail.receipt.amountValue", {
                amount: c.money(p.amountMinor, p.currency),
                // The sale's own scheme and rule when its invoice says them; else the site's (facts).
                ...vatCase,
              })
        }
      />
      {vat === null || vat.vatScheme === "franchise" || noVat || p.amountMinor === 0 ? null : (
        <Fact
          locale={c.locale}
          label={t("mail.receipt.vat")}
          // With its cents, as the attached invoice writes the VAT ("5,00 €", not "5 €").
          value={t("mail.receipt.vatValue", { amount: formatExactMoney(vat.vatAmount, vat.currency, c.locale), rate: c.rate(vat.vatRate) })}
        />
      )}
      {/* A 100 % code's order took no card: the receipt says so, as its invoice does. */}
      <Fact
        locale={c.locale}
        label={t("mail.receipt.payment")}
        value={t(p.amountMinor === 0 ? "mail.receipt.free" : "mail.receipt.card")}
      />
      <Fact locale={c.locale} label={t("mail.receipt.email")} value={p.email} />
      {/* The confirmation on a durable medium of the consent to immediate access (Directive 2011/83/EU art. 8(7)(b)). */}
      {p.termsAcceptedAt != null && p.termsVersion != null ? (
        <Text style={{ ...text, marginTop: "20px" }}>
          {/* Free access: nothing was paid, and the money-back guarantee has nothing to give back. */}
          {t(p.amountMinor === 0 ? "mail.access.consentFree" : "mail.access.consent", {
            version: formatTermsVersion(p.termsVersion, c.locale),
            date: c.date(p.termsAcceptedAt),
          })}
        </Text>
      ) : null}
      {/* Nothing was paid (a 100 % code): no refund of nothing is offered. */}
      {p.amountMinor === 0 ? null : (
        <Text style={{ ...text, marginTop: "20px" }}>{t("mail.access.guarantee", { email: c.supportEmail })}</Text>
      )}
      {refundUrl === undefined || p.amountMinor === 0 ? null : (
        <Text style={text}>
          <Link href={refundUrl} style={{ color: colors.ink, textDecoration: "underline" }}>
            {t("mail.access.refundLink")}
          </Link>
        </Text>
      )}
      {papers?.invoiceNumber != null ? (
        <Text style={text}>
          {t("mail.access.invoice", { number: papers.invoiceNumber })}{" "}
          <Link href={papers.invoiceUrl} style={{ color: colors.ink, textDecoration: "underline" }}>
            {t("mail.access.invoiceLink")}
          </Link>
        </Text>
      ) : null}
      <Text style={text}>{t("mail.access.keep")}</Text>
      <SellerLine c={c} />
    </MailLayout>
  );
}

export function RefundMail({ c, p, papers }: { c: MailContext; p: MailPayloads["refund"]; papers: RefundPaperwork | null }) {
  const { t } = c;
  return (
    <MailLayout
      locale={c.locale}
      preview={t("mail.refund.preview", { order: orderName(p) })}
      siteName={c.siteName}
      baseUrl={c.baseUrl}
      footer={<SupportFooter c={c} />}
    >
      <Text style={heading}>{t("mail.refund.title")}</Text>
      <Text style={text}>{t("mail.refund.text", { order: orderName(p), amount: c.money(p.amountMinor, p.currency) })}</Text>
      {p.licenseKey === null ? null : <Text style={text}>{t("mail.refund.license", { key: p.licenseKey })}</Text>}
      {papers?.creditNoteNumber != null ? (
        <Text style={text}>{t("mail.refund.creditNote", { number: papers.creditNoteNumber, invoice: papers.invoiceNumber ?? "" })}</Text>
      ) : null}
      <Text style={text}>{t("mail.refund.thanks")}</Text>
      <SellerLine c={c} />
    </MailLayout>
  );
}

export function DemoMail({
  c,
  demoUrl,
  paymentUrl,
  unsubscribeUrl,
}: {
  c: MailContext;
  /** The demo page in the lead's language: the video with its captions (a mail client runs no script). */
  demoUrl: string;
  paymentUrl: string;
  unsubscribeUrl: string;
}) {
  const { t } = c;
  return (
    <MailLayout
      locale={c.locale}
      preview={t("mail.demo.preview")}
      siteName={c.siteName}
      baseUrl={c.baseUrl}
      footer={
        <>
          <Text style={small}>{t("mail.demo.why")}</Text>
          <Text style={small}>
            <Link href={unsubscribeUrl} style={{ color: colors.muted, textDecoration: "underline" }}>
              {t("mail.unsubscribe")}
            </Link>
          </Text>
        </>
      }
    >
      <Text style={heading}>{t("mail.demo.title")}</Text>
      <Text style={text}>{t("mail.demo.intro")}</Text>
      <Section style={{ margin: "0 0 24px" }}>
        <Button href={demoUrl} style={button}>
          {t("mail.demo.watch")}
        </Button>
      </Section>
      <Text style={text}>{t("mail.demo.offer")}</Text>
      <Text style={text}>
        <Link href={paymentUrl} style={{ color: colors.accent, fontWeight: 600 }}>
          {t("mail.demo.cta")}
        </Link>
      </Text>
    </MailLayout>
  );
}

export function OwnerMail({ c, p, notice }: { c: MailContext; p: MailPayloads["owner-sale"]; notice: "sale" | "refund" | "request" }) {
  const { t } = c;
  const none = t("mail.owner.none");
  const free = notice === "sale" && p.amountMinor === 0 && p.code != null;
  const title = t(
    free
      ? "mail.owner.freeTitle"
      : notice === "sale"
        ? "mail.owner.saleTitle"
        : notice === "refund"
          ? "mail.owner.refundTitle"
          : "mail.owner.requestTitle",
  );
  return (
    <MailLayout
      locale={c.locale}
      preview={title}
      siteName={c.siteName}
      baseUrl={c.baseUrl}
      footer={<Text style={small}>{t("mail.owner.footer")}</Text>}
    >
      <Text style={heading}>{title}</Text>
      {notice === "request" ? (
        <Text style={text}>
          {t("mail.owner.requestText")}{" "}
          <Link href={`${c.baseUrl}/admin/orders/${p.orderId}`} style={{ color: colors.ink, textDecoration: "underline" }}>
            {`${c.baseUrl}/admin/orders/${p.orderId}`}
          </Link>
        </Text>
      ) : null}
      {p.provider === "test" ? <Text style={{ ...text, color: "#8a4b00", fontWeight: 700 }}>{t("mail.owner.testMode")}</Text> : null}
      <Fact locale={c.locale} label={t("mail.receipt.order")} value={orderName(p)} />
      <Fact locale={c.locale} label={t("mail.receipt.date")} value={c.date(p.at)} />
      <Fact locale={c.locale} label={t("mail.owner.amount")} value={c.money(p.amountMinor, p.currency)} />
      {p.code == null ? null : <Fact locale={c.locale} label={t("mail.owner.code")} value={p.code} />}
      <Fact locale={c.locale} label={t("mail.owner.language")} value={languageName(p.locale, c.locale)} />
      <Fact locale={c.locale} label={t("mail.owner.city")} value={p.city ?? none} />
      <Fact locale={c.locale} label={t("mail.owner.buyer")} value={p.customerEmail ?? none} />
      <Fact locale={c.locale} label={t("mail.owner.license")} value={p.licenseKey ?? none} />
    </MailLayout>
  );
}

/** The buyer's language named in the owner's ("inglese" to an Italian owner), the code if Intl has no name for it. */
function languageName(code: Locale, owner: Locale): string {
  try {
    return new Intl.DisplayNames([LOCALE_TAGS[owner].bcp47], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The signed link to the buyer's devices page: free a device without writing to support. */
function DevicesLink({ c, url }: { c: MailContext; url: string }) {
  return (
    <Text style={text}>
      {c.t("mail.access.devicesText")}{" "}
      <Link href={url} style={{ color: colors.ink, textDecoration: "underline" }}>
        {c.t("mail.access.devicesLink")}
      </Link>
    </Text>
  );
}
