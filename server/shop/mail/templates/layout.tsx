import { Body } from "@react-email/body";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { ReactNode } from "react";
import type { Locale } from "../../../../shared/locales";

// Mail clients ignore stylesheets and strip most CSS: styles are inline, the layout is one centred
// column (React Email renders it with tables), and nothing is loaded from elsewhere (no images, no
// trackers), so the message reads the same offline and with remote content blocked.

export const colors = { ink: "#14162b", muted: "#4a4f6a", line: "#e3e5ef", brand: "#0b0d17", accent: "#5b36f0", soft: "#f4f2ff" };
const font = '-apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const text = { color: colors.ink, fontSize: "16px", lineHeight: "24px", margin: "0 0 16px" };
export const small = { color: colors.muted, fontSize: "13px", lineHeight: "20px", margin: "0 0 8px" };
export const heading = { color: colors.ink, fontSize: "22px", lineHeight: "30px", fontWeight: 700, margin: "0 0 16px" };
export const button = {
  backgroundColor: colors.accent,
  borderRadius: "8px",
  color: "#ffffff",
  display: "inline-block",
  fontSize: "16px",
  fontWeight: 600,
  padding: "12px 22px",
  textDecoration: "none",
};

export function MailLayout({
  locale,
  preview,
  siteName,
  baseUrl,
  footer,
  children,
}: {
  locale: Locale;
  preview: string;
  siteName: string;
  baseUrl: string;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <Html lang={locale} dir="ltr">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: "#f6f7fb", fontFamily: font, margin: 0, padding: "24px 0" }}>
        <Container
          style={{
            maxWidth: "560px",
            margin: "0 auto",
            backgroundColor: "#ffffff",
            borderRadius: "12px",
            border: `1px solid ${colors.line}`,
          }}
        >
          <Section style={{ backgroundColor: colors.brand, borderRadius: "12px 12px 0 0", padding: "18px 28px" }}>
            <Link href={baseUrl} style={{ color: "#ffffff", fontSize: "18px", fontWeight: 700, textDecoration: "none" }}>
              {siteName}
            </Link>
          </Section>
          <Section style={{ padding: "28px" }}>{children}</Section>
          <Hr style={{ borderColor: colors.line, margin: 0 }} />
          <Section style={{ padding: "18px 28px" }}>
            {footer}
            <Text style={small}>
              <Link href={baseUrl} style={{ color: colors.muted }}>
                {baseUrl.replace(/^https?:\/\//, "")}
              </Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** A label and its value, one per row, readable in the plain-text part too. */
export function Fact({ locale, label, value }: { locale: Locale; label: string; value: string }) {
  // French puts a (non-breaking) space before a colon.
  const colon = locale === "fr" ? "\u00a0: " : ": ";
  return (
    <Text style={{ ...text, margin: "0 0 6px" }}>
      <span style={{ color: colors.muted }}>
        {label}
        {colon}
      </span>
      <strong>{value}</strong>
    </Text>
  );
}
