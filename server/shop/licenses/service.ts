import { randomBytes } from "node:crypto";
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accessRequests, accessResends, licenseActivations, licenses, orders } from "../../../db/schema";
import type { DbWriter, Write } from "../../../db/writer";
import { type DeliverySettings, queueAccessMailAgain } from "../checkout/delivery";

// Licence checks for the app (verify, activate, deactivate, in the manner of Gumroad's and Lemon
// Squeezy's licence APIs), the owner's controls, and the buyer's self-serve access recovery.

export type LicenseState = "active" | "inactive" | "disabled";
export type LicenseSummary = { valid: boolean; status: LicenseState; activations: number; activationLimit: number };

type License = typeof licenses.$inferSelect;

const activeCount = (db: Pick<Db, "select">, licenseId: number): number =>
  db
    .select({ n: count() })
    .from(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, licenseId), isNull(licenseActivations.deactivatedAt)))
    .get()?.n ?? 0;

function summary(license: License, activations: number, limit: number): LicenseSummary {
  // Lemon Squeezy's words: a key in use somewhere is active; one never activated (or all freed) inactive.
  const status: LicenseState = license.status === "disabled" ? "disabled" : activations > 0 ? "active" : "inactive";
  return { valid: status !== "disabled", status, activations, activationLimit: limit };
}

/** Where an installation named by the app stands: freed ones stay freed (a new activation is a new instance). */
export type InstanceState = "active" | "freed" | "unknown";

export type LicenseCheck = LicenseSummary & { instance?: InstanceState };

/**
 * What the app may know of a key: never who bought it. null for a key this site never issued. With
 * an instance, `valid` also says whether that installation still holds one of the key's slots.
 */
export function verifyLicense(db: Db, key: string, limit: number, instanceId?: string): LicenseCheck | null {
  const license = db.select().from(licenses).where(eq(licenses.key, key)).get();
  if (license === undefined) return null;
  const found = summary(license, activeCount(db, license.id), limit);
  if (instanceId === undefined) return found;
  const row = db
    .select({ deactivatedAt: licenseActivations.deactivatedAt })
    .from(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, license.id), eq(licenseActivations.instanceId, instanceId)))
    .get();
  const instance: InstanceState = row === undefined ? "unknown" : row.deactivatedAt === null ? "active" : "freed";
  return { ...found, valid: found.valid && instance === "active", instance };
}

export type ActivateResult =
  | { kind: "activated"; instanceId: string; activations: number; again: boolean }
  | { kind: "not-found" }
  | { kind: "disabled" }
  | { kind: "limit"; activations: number };

/**
 * One more installation of the key. Counted and inserted in one IMMEDIATE transaction, so activations
 * racing each other (or arriving at two processes) can never pass the limit. A device the app names
 * (`deviceId`) that already holds a slot gets its instance back (`again`) instead of a second slot.
 */
export function activateLicense(
  write: Write,
  key: string,
  device: { instanceName: string; deviceId?: string },
  limit: number,
  now: Date,
): Promise<ActivateResult> {
  return write((tx): ActivateResult => {
    const license = tx.select().from(licenses).where(eq(licenses.key, key)).get();
    if (license === undefined) return { kind: "not-found" };
    if (license.status === "disabled") return { kind: "disabled" };
    const activations = activeCount(tx, license.id);
    if (device.deviceId !== undefined) {
      const held = tx
        .select({ instanceId: licenseActivations.instanceId })
        .from(licenseActivations)
        .where(
          and(
            eq(licenseActivations.licenseId, license.id),
            eq(licenseActivations.deviceId, device.deviceId),
            isNull(licenseActivations.deactivatedAt),
          ),
        )
        .get();
      if (held !== undefined) return { kind: "activated", instanceId: held.instanceId, activations, again: true };
    }
    if (activations >= limit) return { kind: "limit", activations };
    const instanceId = `ins_${randomBytes(12).toString("hex")}`;
    tx.insert(licenseActivations)
      .values({ licenseId: license.id, instanceId, instanceName: device.instanceName, deviceId: device.deviceId ?? null, createdAt: now })
      .run();
    return { kind: "activated", instanceId, activations: activations + 1, again: false };
  });
}

export type DeactivateResult = { kind: "deactivated"; activations: number } | { kind: "not-found" } | { kind: "unknown-instance" };

/**
 * Frees one active installation of a licence, whoever asks (the app, the buyer's devices page):
 * its slot is open again and the instance stays freed. False when it was not active.
 */
export function freeInstance(tx: DbWriter, licenseId: number, instanceId: string, now: Date): boolean {
  const freed = tx
    .update(licenseActivations)
    .set({ deactivatedAt: now })
    .where(
      and(
        eq(licenseActivations.licenseId, licenseId),
        eq(licenseActivations.instanceId, instanceId),
        isNull(licenseActivations.deactivatedAt),
      ),
    )
    .returning({ id: licenseActivations.id })
    .all();
  return freed.length > 0;
}

/** Frees one installation (a disabled key too, so the app can clean up). */
export function deactivateLicense(write: Write, key: string, instanceId: string, now: Date): Promise<DeactivateResult> {
  return write((tx): DeactivateResult => {
    const license = tx.select().from(licenses).where(eq(licenses.key, key)).get();
    if (license === undefined) return { kind: "not-found" };
    if (!freeInstance(tx, license.id, instanceId, now)) return { kind: "unknown-instance" };
    return { kind: "deactivated", activations: activeCount(tx, license.id) };
  });
}

/** How many access e-mails one address may ask for again in a day. */
export const ACCESS_RESENDS_PER_DAY = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * "Lost your access e-mail?", the part done while the visitor waits: the request is recorded, the
 * same work whatever the address, so neither the answer nor its time tells whether it bought.
 */
export function recordAccessRequest(write: Write, email: string, now: Date): Promise<void> {
  const address = email.trim().toLowerCase();
  return write((tx) => {
    tx.insert(accessRequests).values({ email: address, createdAt: now }).run();
  });
}

/** Whether recovery requests wait to be handled (left by a process that stopped). */
export const hasAccessRequests = (db: Db): boolean =>
  db.select({ id: accessRequests.id }).from(accessRequests).limit(1).get() !== undefined;

export type AccessRequestsHandled = { queued: number; noOrder: number; limited: number };

/**
 * The recorded requests, handled after the answer (and by whichever process looks next, should one
 * stop in between): the access e-mail of every paid, non-refunded order of the address is queued
 * again, at most ACCESS_RESENDS_PER_DAY times in 24 hours. Each request is deleted once handled.
 */
export function handleAccessRequests(write: Write, delivery: DeliverySettings, now: Date): Promise<AccessRequestsHandled> {
  return write((tx) => {
    const handled: AccessRequestsHandled = { queued: 0, noOrder: 0, limited: 0 };
    const pending = tx.delete(accessRequests).returning({ email: accessRequests.email }).all();
    for (const { email } of pending) {
      const outcome = resendAccess(tx, email, delivery, now);
      if (outcome === "queued") handled.queued++;
      else if (outcome === "no-order") handled.noOrder++;
      else handled.limited++;
    }
    return handled;
  });
}

function resendAccess(tx: DbWriter, address: string, delivery: DeliverySettings, now: Date): "queued" | "no-order" | "limited" {
  const paid = tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(sql`lower(${orders.customerEmail})`, address), eq(orders.status, "paid")))
    .all();
  if (paid.length === 0) return "no-order";
  const recent =
    tx
      .select({ n: count() })
      .from(accessResends)
      .where(and(eq(accessResends.email, address), gt(accessResends.createdAt, new Date(now.getTime() - DAY_MS))))
      .get()?.n ?? 0;
  if (recent >= ACCESS_RESENDS_PER_DAY) return "limited";
  for (const order of paid) queueAccessMailAgain(tx, order.id, delivery, now);
  tx.insert(accessResends).values({ email: address, createdAt: now }).run();
  return "queued";
}

// The owner's controls (server/owner/cli.ts).

export type LicenseRecord = License & {
  orderId: number;
  /** The order's reference, which the buyer quotes and the owner finds orders by. */
  orderReference: string;
  orderStatus: string;
  email: string | null;
  activations: { instanceId: string; instanceName: string; createdAt: Date }[];
};

/** The licences of a key (any form) or of a buyer's address. */
export function findLicenses(db: Db, keyOrEmail: string, normalizedKey: string | null): LicenseRecord[] {
  const rows = db
    .select({ license: licenses, orderReference: orders.reference, orderStatus: orders.status, email: orders.customerEmail })
    .from(licenses)
    .innerJoin(orders, eq(orders.id, licenses.orderId))
    .where(
      normalizedKey !== null ? eq(licenses.key, normalizedKey) : eq(sql`lower(${orders.customerEmail})`, keyOrEmail.trim().toLowerCase()),
    )
    .all();
  return rows.map((r) => ({
    ...r.license,
    orderReference: r.orderReference,
    orderStatus: r.orderStatus,
    email: r.email,
    activations: db
      .select({
        instanceId: licenseActivations.instanceId,
        instanceName: licenseActivations.instanceName,
        createdAt: licenseActivations.createdAt,
      })
      .from(licenseActivations)
      .where(and(eq(licenseActivations.licenseId, r.license.id), isNull(licenseActivations.deactivatedAt)))
      .all(),
  }));
}

/**
 * Disables a key (the owner's decision) or enables it again. A refunded order's key stays disabled
 * (and keeps "refunded" as its reason): the money went back, so the access does not come back.
 */
export function setLicenseEnabled(write: Write, key: string, enabled: boolean, now: Date): Promise<"done" | "unknown" | "refunded"> {
  return write((tx) => {
    const license = tx.select().from(licenses).where(eq(licenses.key, key)).get();
    if (license === undefined) return "unknown";
    if (license.disabledReason === "refunded") return "refunded";
    tx.update(licenses)
      .set(
        enabled
          ? { status: "active", disabledReason: null, updatedAt: now }
          : { status: "disabled", disabledReason: "owner", updatedAt: now },
      )
      .where(eq(licenses.id, license.id))
      .run();
    return "done";
  });
}

/** Frees every installation of a key (a buyer who changed all their devices); null for an unknown key. */
export function resetActivations(write: Write, key: string, now: Date): Promise<number | null> {
  return write((tx) => {
    const license = tx.select().from(licenses).where(eq(licenses.key, key)).get();
    if (license === undefined) return null;
    return tx
      .update(licenseActivations)
      .set({ deactivatedAt: now })
      .where(and(eq(licenseActivations.licenseId, license.id), isNull(licenseActivations.deactivatedAt)))
      .returning({ id: licenseActivations.id })
      .all().length;
  });
}
