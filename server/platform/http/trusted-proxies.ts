import { BlockList, isIP } from "node:net";
import * as v from "valibot";

/**
 * Which peers may tell the site who the client is (X-Forwarded-For), whether the visitor came over
 * HTTPS (X-Forwarded-Proto) and the request's id (X-Request-Id): the reverse proxy's own addresses.
 * `any` is the old `TRUST_PROXY=true`: every peer is believed, which is only safe when nothing but
 * the proxy can reach the port (a start-up warning says so).
 */
export type TrustedProxies =
  | { kind: "none" }
  | { kind: "any" }
  | { kind: "list"; ranges: readonly string[]; trusts: (address: string) => boolean };

export const NO_PROXY: TrustedProxies = { kind: "none" };

/** The forwarded headers a peer that is not a trusted proxy may not set. */
export const FORWARDED_HEADERS = ["x-forwarded-for", "x-forwarded-proto", "x-request-id"] as const;

/** `::ffff:10.0.0.1`, how an IPv4 client looks on a dual-stack socket, is 10.0.0.1. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** One address (`127.0.0.1`, `::1`) or range (`10.0.0.0/8`, `fd00::/8`), or a message saying what is wrong. */
function addRange(list: BlockList, entry: string): string | null {
  const [base = "", prefix, ...rest] = entry.split("/");
  const family = isIP(base);
  if (family === 0 || rest.length > 0) return `"${entry}" is not an IP address or a CIDR range (10.0.0.0/8)`;
  const type = family === 4 ? "ipv4" : "ipv6";
  if (prefix === undefined) {
    list.addAddress(base, type);
    return null;
  }
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
  if (!(bits >= 0 && bits <= (family === 4 ? 32 : 128))) return `"${entry}" has a prefix length outside 0-${family === 4 ? 32 : 128}`;
  list.addSubnet(base, bits, type);
  return null;
}

/** TRUST_PROXY: true/false (and 1/0, yes/no), or a comma-separated list of addresses and CIDR ranges. */
export const TrustProxySetting = v.pipe(
  v.optional(v.string(), "false"),
  v.rawTransform(({ dataset, addIssue, NEVER }): TrustedProxies => {
    const value = dataset.value.trim().toLowerCase();
    if (["", "false", "0", "no", "off"].includes(value)) return NO_PROXY;
    if (["true", "1", "yes", "on"].includes(value)) return { kind: "any" };
    const list = new BlockList();
    const ranges = value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    for (const entry of ranges) {
      const problem = addRange(list, entry);
      if (problem !== null) {
        addIssue({ message: `${problem}: give the proxy's addresses or ranges, comma-separated, or true/false` });
        return NEVER;
      }
    }
    const trusts = (address: string) => {
      const plain = plainAddress(address);
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 4 ? "ipv4" : "ipv6");
    };
    return { kind: "list", ranges, trusts };
  }),
);

/** Whether the peer at `address` (the socket's; undefined when there is none, as in tests) is a trusted proxy. */
export function isTrustedPeer(proxies: TrustedProxies, address: string | undefined): boolean {
  if (proxies.kind === "any") return true;
  if (proxies.kind === "none" || address === undefined) return false;
  return proxies.trusts(address);
}

/**
 * The client's address: the socket's, or behind trusted proxies the right-most X-Forwarded-For
 * entry that is not itself a trusted proxy (each proxy appends the address it saw; entries left of
 * the first untrusted one were written by the client and prove nothing).
 */
export function forwardedClient(proxies: TrustedProxies, socketIp: string | undefined, forwardedFor: string | null): string | undefined {
  if (!isTrustedPeer(proxies, socketIp) || forwardedFor === null) return socketIp;
  const hops = forwardedFor
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plainAddress(hops[i] ?? "");
    if (proxies.kind === "any" || !isTrustedPeer(proxies, hop)) return hop;
  }
  // Every hop a trusted proxy: the left-most is the nearest thing to a client.
  return hops.length > 0 ? plainAddress(hops[0] ?? "") : socketIp;
}

export const ANY_PROXY_WARNING =
  "TRUST_PROXY=true believes X-Forwarded-For from anyone: if the port can be reached without the proxy, a client can pick its address and escape every rate limit. Set TRUST_PROXY to the proxy's addresses instead (127.0.0.1, 10.0.0.0/8, a comma list).";
