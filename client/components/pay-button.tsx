import { useI18n } from "../i18n";
import { Icon } from "./icons";

/**
 * The pay button: a plain form post to /api/payment, which answers 303 to the hosted card page, so
 * paying works without JavaScript. The checkout issue (#4) adds the busy state and error toast.
 */
export function PayButton() {
  const { t, locale } = useI18n();
  return (
    <form method="post" action="/api/payment" className="pay-form">
      <input type="hidden" name="locale" value={locale} />
      <button type="submit" className="button button--primary button--large button--block">
        <Icon name="lock" />
        {t("payButton")}
      </button>
    </form>
  );
}
