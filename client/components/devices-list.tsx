import { type FormEvent, useRef, useState } from "react";
import { DEVICES_FREE } from "../../shared/api";
import { LOCALE_TAGS, type Locale } from "../../shared/locales";
import { SELLER_TIME_ZONE } from "../../shared/offer";
import type { IslandProps } from "../../shared/page-data";
import type { DeviceEntry, DevicesFlash } from "../../shared/schemas/licenses";
import { useText } from "../i18n";

// The buyer's devices, each with a "free" button. Every button is a real form (POST
// /api/devices/free, answered with a redirect back here and the outcome), so it works without
// JavaScript; with JavaScript it posts JSON, removes the device in place and says so.

export const DEVICES_TEXT = [
  "devices.count",
  "devices.none",
  "devices.activated",
  "devices.free",
  "devices.freeLabel",
  "devices.freeing",
  "devices.freed",
  "devices.unknown",
  "devices.rateLimited",
  "devices.error",
  "devices.disabled",
] as const;

const dateOf = (at: number, locale: Locale) =>
  new Intl.DateTimeFormat(LOCALE_TAGS[locale].bcp47, { dateStyle: "long", timeZone: SELLER_TIME_ZONE }).format(new Date(at));

export function DevicesList({ devices: initial }: IslandProps["devices"]) {
  const { t, locale } = useText(DEVICES_TEXT);
  const [devices, setDevices] = useState<DeviceEntry[]>(initial.devices);
  const [flash, setFlash] = useState<DevicesFlash | undefined>(initial.flash);
  const [busy, setBusy] = useState<string | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);

  const free = async (event: FormEvent<HTMLFormElement>, instanceId: string) => {
    event.preventDefault();
    if (busy !== null) return;
    setBusy(instanceId);
    let outcome: DevicesFlash = "error";
    try {
      const response = await fetch(DEVICES_FREE.path, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ t: initial.link, instanceId, locale }),
      });
      outcome = response.ok ? "freed" : response.status === 429 ? "rate-limited" : response.status >= 500 ? "error" : "unknown";
      if (response.ok || response.status === 404) setDevices((list) => list.filter((d) => d.instanceId !== instanceId));
    } catch {
      outcome = "error";
    } finally {
      setBusy(null);
      setFlash(outcome);
      // The button just pressed is gone: the outcome takes the focus, so a keyboard user is not lost.
      statusRef.current?.focus();
    }
  };

  const flashText =
    flash === undefined
      ? null
      : { freed: t("devices.freed"), unknown: t("devices.unknown"), "rate-limited": t("devices.rateLimited"), error: t("devices.error") }[
          flash
        ];
  return (
    <div className="devices">
      <div ref={statusRef} tabIndex={-1} aria-live="polite" className="devices__status">
        {flashText === null ? null : (
          <p className={flash === "freed" ? "devices__flash devices__flash--ok" : "devices__flash form-error"} data-testid="devices-flash">
            {flashText}
          </p>
        )}
      </div>
      {initial.disabled ? <p className="devices__disabled">{t("devices.disabled")}</p> : null}
      <p className="devices__count">{t("devices.count", { count: devices.length, limit: initial.activationLimit })}</p>
      {devices.length === 0 ? (
        <p>{t("devices.none")}</p>
      ) : (
        <ul className="devices__list">
          {devices.map((device) => (
            <li key={device.instanceId} className="devices__item" data-instance={device.instanceId}>
              <div>
                <p className="devices__name">{device.name}</p>
                <p className="devices__date">{t("devices.activated", { date: dateOf(device.activatedAt, locale) })}</p>
              </div>
              <form method="post" action={DEVICES_FREE.path} onSubmit={(event) => void free(event, device.instanceId)}>
                <input type="hidden" name="t" value={initial.link} />
                <input type="hidden" name="instanceId" value={device.instanceId} />
                <input type="hidden" name="locale" value={locale} />
                <button
                  type="submit"
                  className="button button--ghost devices__free"
                  aria-label={t("devices.freeLabel", { name: device.name })}
                  disabled={busy !== null}
                >
                  {busy === device.instanceId ? t("devices.freeing") : t("devices.free")}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
