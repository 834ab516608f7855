/** How a message names its order: its reference (a message queued before references existed: its number). */
export const orderName = (p: { orderId: number; reference?: string | undefined }) => p.reference ?? `#${p.orderId}`;
