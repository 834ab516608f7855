import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { licenseActivations, licenses } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import type { DeviceEntry } from "../../../shared/schemas/licenses";
import { freeInstance } from "./service";

// The buyer's own view of a licence's devices (the page behind the access e-mail's signed link):
// the installations holding a slot, and freeing one of them.

export type LicenseDevices = { devices: DeviceEntry[]; disabled: boolean };

/** The devices of the licence of an order; null when the order has no licence. */
export function devicesOfOrder(db: Db, orderId: number): LicenseDevices | null {
  const license = db.select().from(licenses).where(eq(licenses.orderId, orderId)).get();
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
  };
}

/** Frees one device of the licence of an order: its slot is open again, and its instance stays freed. */
export function freeDeviceOfOrder(write: Write, orderId: number, instanceId: string, now: Date): Promise<"freed" | "unknown"> {
  return write((tx) => {
    const license = tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.orderId, orderId)).get();
    if (license === undefined) return "unknown";
    return freeInstance(tx, license.id, instanceId, now) ? "freed" : "unknown";
  });
}
