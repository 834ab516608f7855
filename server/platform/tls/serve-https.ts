import type { Server } from "bun";
import type { Config } from "../config";
import { probePort } from "../http/listen";
import { securityHeaders } from "../http/security";
import type { Logger } from "../log";
import { type Certificate, readCertificate, readChallenge } from "./files";
import type { TlsSettings } from "./settings";

const CHALLENGE_PATH = "/.well-known/acme-challenge/";

/**
 * The plain-HTTP side of a site serving HTTPS itself: the CA's http-01 challenge answers (from the
 * tls folder, so whichever process the kernel hands the connection to can answer), a permanent
 * redirect to HTTPS for everything else once a certificate exists, and until then a short page in
 * the four languages saying the secure address is on its way (503, so nothing caches it).
 */
export function httpSideHandler(settings: TlsSettings, pendingPage: string, hasCertificate: () => boolean) {
  return (request: Request): Response => {
    const url = new URL(request.url);
    if (url.pathname.startsWith(CHALLENGE_PATH)) {
      const answer = readChallenge(settings.dir, url.pathname.slice(CHALLENGE_PATH.length));
      return answer === null
        ? new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } })
        : new Response(answer, { headers: { "content-type": "application/octet-stream", "cache-control": "no-store" } });
    }
    if (!hasCertificate())
      return new Response(pendingPage, {
        status: 503,
        headers: {
          ...securityHeaders(false),
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          "retry-after": "60",
        },
      });
    // Only the certificate's own names: a Host header of someone else's choosing never picks the address.
    const name = url.hostname.toLowerCase();
    const host = settings.domains.includes(name) ? name : settings.domains[0];
    const port = settings.httpsPort === 443 ? "" : `:${settings.httpsPort}`;
    // 308 keeps a POST a POST; browsers treat both as permanent.
    return new Response(null, {
      status: request.method === "GET" || request.method === "HEAD" ? 301 : 308,
      headers: { location: `https://${host}${port}${url.pathname}${url.search}`, "cache-control": "no-store" },
    });
  };
}

/** What serves the site's requests over HTTPS: the app (Elysia), listening again with each certificate. */
export type HttpsApp = {
  listen(options: { hostname: string; port: number; reusePort: boolean; tls: { cert: string; key: string } }): unknown;
  readonly server: { stop(closeActiveConnections?: boolean): Promise<void> } | null;
};

export type HttpsSite = {
  /** The HTTP port's server (challenges and redirects). */
  http: Server<undefined>;
  /** Serves `cert` on the HTTPS port: listens the first time, then swaps listeners without a refused request. */
  serve(cert: Certificate): Promise<void>;
  /** The certificate served now (null: HTTPS not listening yet). */
  serving(): Certificate | null;
  stopHttp(): Promise<void>;
};

/**
 * Listens for a site serving HTTPS itself: the HTTP port at once, the HTTPS port with the first
 * certificate. Every socket shares its port (SO_REUSEPORT) with the site's other processes. A new
 * certificate is put in place by opening a second HTTPS socket with it on the same port, then
 * closing the first one gracefully (requests under way finish): Bun cannot change the certificate
 * of a listening server.
 */
export function listenHttps(options: {
  app: HttpsApp;
  config: Pick<Config, "host">;
  settings: TlsSettings;
  log: Logger;
  pendingPage: string;
  /** The first process makes sure no other program holds the ports before sharing them. */
  first: boolean;
}): HttpsSite {
  const { app, config, settings, pendingPage, first } = options;
  let current: Certificate | null = null;
  if (first) {
    probePort(config.host, settings.httpPort);
    probePort(config.host, settings.httpsPort);
  }
  const handler = httpSideHandler(settings, pendingPage, () => current !== null || readCertificate(settings.dir) !== null);
  const http = Bun.serve({
    hostname: config.host,
    port: settings.httpPort,
    reusePort: true,
    development: false,
    fetch: handler,
    error: () => new Response("Internal error", { status: 500 }),
  });
  return {
    http,
    serving: () => current,
    async serve(cert) {
      const previous = current === null ? null : app.server;
      app.listen({ hostname: config.host, port: settings.httpsPort, reusePort: true, tls: { cert: cert.cert, key: cert.key } });
      current = cert;
      await previous?.stop();
    },
    async stopHttp() {
      await http.stop();
    },
  };
}
