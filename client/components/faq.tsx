import { useI18n } from "../i18n";
import { Island } from "../island";

const QUESTIONS = [1, 2, 3, 4, 5] as const;
/** "How do I receive my access?": its answer carries the access-recovery form. */
const DELIVERY_QUESTION = 3;

/**
 * Five questions as <details name="faq">: the browser keeps one open at a time, and it works with
 * the keyboard and without JavaScript, so the list is server HTML (only the form inside is an island).
 */
export function FaqList() {
  const { t } = useI18n();
  return (
    <div className="faq">
      {QUESTIONS.map((n) => (
        <details key={n} name="faq" className="faq__item" data-testid="faq-item">
          <summary>
            <span>{t(`faqQuestion${n}`)}</span>
            <span className="faq__chevron" aria-hidden="true" />
          </summary>
          <div className="faq__answer">
            <p>{t(`faqAnswer${n}`)}</p>
            {n === DELIVERY_QUESTION ? (
              <div className="faq__access">
                <h3 className="faq__access-title">{t("access.title")}</h3>
                <Island name="access-form" props={{}} />
              </div>
            ) : null}
          </div>
        </details>
      ))}
    </div>
  );
}
