import { useRef, type SyntheticEvent } from "react";
import { useI18n } from "../i18n";
import { AccessForm } from "./access-form";

export const FAQ_COUNT = 5;
/** "How do I receive my access?": its answer carries the access-recovery form. */
const DELIVERY_QUESTION = 3;

/**
 * Five questions as <details name="faq">: the browser keeps one open at a time and it works with
 * the keyboard and without JavaScript. The toggle handler gives the same behaviour to browsers that
 * predate exclusive <details>.
 */
export function FaqList() {
  const { t } = useI18n();
  const listRef = useRef<HTMLDivElement>(null);
  const onToggle = (event: SyntheticEvent<HTMLDetailsElement>) => {
    const opened = event.currentTarget;
    if (!opened.open) return;
    for (const other of listRef.current?.querySelectorAll("details") ?? []) {
      if (other !== opened && other.open) other.open = false;
    }
  };
  return (
    <div className="faq" ref={listRef}>
      {Array.from({ length: FAQ_COUNT }, (_, i) => (
        <details key={i} name="faq" className="faq__item" onToggle={onToggle} data-testid="faq-item">
          <summary>
            <span>{t(`faqQuestion${i + 1}`)}</span>
            <span className="faq__chevron" aria-hidden="true" />
          </summary>
          <div className="faq__answer">
            <p>{t(`faqAnswer${i + 1}`)}</p>
            {i + 1 === DELIVERY_QUESTION ? (
              <div className="faq__access">
                <h3 className="faq__access-title">{t("access.title")}</h3>
                <AccessForm />
              </div>
            ) : null}
          </div>
        </details>
      ))}
    </div>
  );
}
