import type { ChangeEventHandler, Ref } from "react";
import { pathFor } from "../../shared/routes";
import { useText } from "../i18n";
import { LinkedText } from "./linked-text";

/** The texts the box shows: its islands (pay button, test card form) list them. */
export const CONSENT_TEXT = ["consent.label", "consent.labelFree", "consent.required", "consent.requiredFree"] as const;

/**
 * The one box a buyer ticks before paying: the terms of sale accepted (linked), immediate
 * access asked for, the loss of the withdrawal right acknowledged (Directive 2011/83/EU art. 16(m)).
 * Never ticked in advance. Posted as `name=yes`; a browser sends nothing for an unticked box.
 */
export function ConsentBox(props: {
  id: string;
  name: string;
  error: string | null;
  inputRef?: Ref<HTMLInputElement>;
  onChange?: ChangeEventHandler<HTMLInputElement>;
  autoFocus?: boolean;
  /** Ticked by the buyer in the form the server sends back (no JavaScript); never ticked in advance otherwise. */
  defaultChecked?: boolean;
  /** Free access (a 100 % code): nothing is paid, so no money-back guarantee is promised. */
  free?: boolean;
}) {
  const { t, locale } = useText(CONSENT_TEXT);
  const errorId = `${props.id}-error`;
  return (
    <div className="consent">
      <div className="consent__row">
        <input
          ref={props.inputRef}
          type="checkbox"
          id={props.id}
          name={props.name}
          value="yes"
          className="consent__box"
          aria-required="true"
          aria-invalid={props.error !== null ? true : undefined}
          aria-describedby={props.error !== null ? errorId : undefined}
          onChange={props.onChange}
          autoFocus={props.autoFocus}
          defaultChecked={props.defaultChecked}
          data-testid="consent-box"
        />
        <label htmlFor={props.id} className="consent__label">
          <LinkedText text={t(props.free === true ? "consent.labelFree" : "consent.label")} href={pathFor("terms", locale)} />
        </label>
      </div>
      {props.error !== null ? (
        <p className="form-error consent__error" id={errorId} data-testid="consent-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
