import { Button } from "@react-email/button";
import { Link } from "@react-email/link";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { RefusalReason } from "../../../../shared/reviews";
import { button, colors, heading, MailLayout, small, text } from "./layout";
import type { MailContext } from "./messages";

// The buyer's e-mails about reviews: the one invitation of an order, and the owner's refusal of a
// review with its reason. Both carry the order's review link (to write, edit or delete it).

export function ReviewInviteMail({
  c,
  reviewUrl,
  stopUrl,
  reference,
}: {
  c: MailContext;
  reviewUrl: string;
  stopUrl: string;
  reference: string;
}) {
  const { t } = c;
  return (
    <MailLayout
      locale={c.locale}
      preview={t("mail.reviewInvite.preview")}
      siteName={c.siteName}
      baseUrl={c.baseUrl}
      footer={
        <>
          <Text style={small}>{t("mail.reviewInvite.why", { reference })}</Text>
          <Text style={small}>
            <Link href={stopUrl} style={{ color: colors.muted, textDecoration: "underline" }}>
              {t("mail.reviewInvite.stop")}
            </Link>
          </Text>
        </>
      }
    >
      <Text style={heading}>{t("mail.reviewInvite.title")}</Text>
      <Text style={text}>{t("mail.reviewInvite.intro")}</Text>
      <Section style={{ margin: "0 0 24px" }}>
        <Button href={reviewUrl} style={button}>
          {t("mail.reviewInvite.button")}
        </Button>
      </Section>
      <Text style={text}>{t("mail.reviewInvite.how")}</Text>
    </MailLayout>
  );
}

export function ReviewRefusedMail({ c, reviewUrl, reason }: { c: MailContext; reviewUrl: string; reason: RefusalReason }) {
  const { t } = c;
  return (
    <MailLayout
      locale={c.locale}
      preview={t("mail.reviewRefused.preview")}
      siteName={c.siteName}
      baseUrl={c.baseUrl}
      footer={<Text style={small}>{t("mail.supportLine", { email: c.supportEmail })}</Text>}
    >
      <Text style={heading}>{t("mail.reviewRefused.title")}</Text>
      <Text style={text}>{t("mail.reviewRefused.intro")}</Text>
      <Text style={text}>
        <strong>{t(`reviews.reason.${reason}`)}</strong>
      </Text>
      <Text style={text}>{t("mail.reviewRefused.edit")}</Text>
      <Section style={{ margin: "0 0 24px" }}>
        <Button href={reviewUrl} style={button}>
          {t("mail.reviewRefused.button")}
        </Button>
      </Section>
    </MailLayout>
  );
}
