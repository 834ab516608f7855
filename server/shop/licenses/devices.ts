import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { licenseActivations, licenses, orders } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import type { DeviceEntry } from "../../../shared/schemas/licenses";
import { freeInstance } from "./service";

// The buyer's own view of a licence's devices (the page behind the access e-mail's signed link):
// the installations holding a slot, and freeing one of them.

/** `provider`: the order's payment provider (a test-checkout order's pages offer no review in production). */
export type LicenseDevices = { devices: DeviceEntry[]; disabled: boolean; provider: string };

/** The licence of the order of this reference, as the signed link names it. */
const licenseOfReference = (db: Pick<Db, "select">, reference: string) =>
  db
    .select({ id: licenses.id, status: licenses.status, provider: orders.provider })
    .from(licenses)
    .innerJoin(orders, eq(orders.id, licenses.orderId))
    .where(eq(orders.reference, reference))
    .get();

/** The devices of the licence of an order; null when the order has no licence. */
export function devicesOfOrder(db: Db, reference: string): LicenseDevices | null {
  const license = licenseOfReference(db, reference);
  if (license === undefined) return null;
  const rows = db
    .select({ instanceId: licenseActivations.instanceId, name: licenseActivations.instanceName, createdAt: licenseActivations.createdAt })
    .from(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, license.id), isNull(licenseActivations.deactivatedAt)))
    .orderBy(asc(licenseActivations.createdAt), asc(licenseActivations.id))
    .all();
  return {
    devices: rows.map((r) => ({ instanceId: r.instanceId, name: r.name, activatedAt: r.createdAt.getTime() })),
    disabled: license.status === "disabled",
    provider: license.provider,
  };
}

/** Frees one device of the licence of an order: its slot is open again, and its instance stays freed. */
export function freeDeviceOfOrder(write: Write, reference: string, instanceId: string, now: Date): Promise<"freed" | "unknown"> {
  return write((tx) => {
    const license = licenseOfReference(tx, reference);
    if (license === undefined) return "unknown";
    return freeInstance(tx, license.id, instanceId, now) ? "freed" : "unknown";
  });
}
