import { useI18n } from "../i18n";
import { Island } from "../island";

/**
 * The FAQ as <details name="faq">: the browser keeps one open at a time, and it works with the
 * keyboard and without JavaScript, so the list is server HTML (only the form inside is an island).
 * The entries are the owner's published ones in this language (server/site/content/), in their
 * order; the one about receiving access carries the access-recovery form.
 */
export function FaqList() {
  const { t, facts } = useI18n();
  return (
    <div className="faq">
      {facts.faq.map((entry) => (
        <details key={entry.id} name="faq" className="faq__item" data-testid="faq-item">
          <summary>
            <span>{entry.question}</span>
            <span className="faq__chevron" aria-hidden="true" />
          </summary>
          <div className="faq__answer">
            <p>{entry.answer}</p>
            {entry.accessForm ? (
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
