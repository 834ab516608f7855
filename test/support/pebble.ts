import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

// Pebble, Let's Encrypt's own ACME test server (Debian package `pebble`, with
// pebble-challtestsrv as its DNS), started on loopback for a test: a real ACME directory over
// HTTPS, real orders and http-01 challenges checked by connecting to the site's HTTP port.

export type Pebble = {
  directoryUrl: string;
  /** The CA of the directory's own HTTPS certificate (made for this run): ACME_CA_FILE. */
  caFile: string;
  /** Pebble's issuing root and intermediate, PEM: what a client trusts to check the site's certificate. */
  issuers(): Promise<string>;
  stop(): Promise<void>;
};

/** A port free now (bound, then let go): Pebble and its DNS take theirs from their configuration. */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

function run(cmd: string[]): void {
  const result = Bun.spawnSync({ cmd, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${result.stderr.toString()}`);
}

/** Resolves once `ready` does, polling until `deadlineMs` has passed (then rejects with `what`). */
export async function waitFor<T>(what: string, ready: () => Promise<T | null>, deadlineMs = 30_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await ready().catch(() => null);
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/**
 * Starts Pebble checking http-01 challenges on `httpPort` of 127.0.0.1 (every name resolves there
 * through pebble-challtestsrv's DNS).
 */
export async function startPebble(options: { httpPort: number; validitySeconds?: number }): Promise<Pebble> {
  const dir = mkdtempSync(join(tmpdir(), "pebble-"));
  const caKey = join(dir, "ca.key");
  const caFile = join(dir, "ca.pem");
  const key = join(dir, "directory.key");
  const cert = join(dir, "directory.pem");
  run([
    "openssl",
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    caKey,
    "-out",
    caFile,
    "-days",
    "2",
    "-subj",
    "/CN=Test ACME directory CA",
  ]);
  run([
    "openssl",
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    key,
    "-out",
    join(dir, "d.csr"),
    "-subj",
    "/CN=127.0.0.1",
  ]);
  writeFileSync(join(dir, "ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  run([
    "openssl",
    "x509",
    "-req",
    "-in",
    join(dir, "d.csr"),
    "-CA",
    caFile,
    "-CAkey",
    caKey,
    "-CAcreateserial",
    "-out",
    cert,
    "-days",
    "2",
    "-extfile",
    join(dir, "ext"),
  ]);

  const acmePort = freePort();
  const managementPort = freePort();
  const dnsPort = freePort();
  const config = join(dir, "pebble.json");
  writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: cert,
        privateKey: key,
        httpPort: options.httpPort,
        tlsPort: freePort(),
        ocspResponderURL: "",
        externalAccountBindingRequired: false,
        // Short-lived certificates when asked: a renewal comes while the test's server runs.
        ...(options.validitySeconds !== undefined ? { certificateValidityPeriod: options.validitySeconds } : {}),
      },
    }),
  );
  // Not installed: say so at once rather than wait a minute for a directory that never comes.
  for (const program of ["pebble", "pebble-challtestsrv"])
    if (Bun.which(program) === null)
      throw new Error(`${program} is not installed: run bash scripts/ensure-pebble.sh (Debian package pebble)`);
  const setpriv = Bun.which("setpriv");
  const guard = setpriv === null ? [] : [setpriv, "--pdeathsig", "KILL", "--"];
  const output: string[] = [];
  const keep = (proc: Subprocess<"ignore", "pipe", "pipe">) => {
    for (const stream of [proc.stdout, proc.stderr]) void new Response(stream).text().then((text) => output.push(text));
  };
  const dns = Bun.spawn({
    cmd: [
      ...guard,
      "pebble-challtestsrv",
      "-dns01",
      `127.0.0.1:${dnsPort}`,
      "-http01",
      "",
      "-https01",
      "",
      "-tlsalpn01",
      "",
      "-management",
      `127.0.0.1:${freePort()}`,
      "-defaultIPv4",
      "127.0.0.1",
      "-defaultIPv6",
      "",
    ],
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  keep(dns);
  const pebble = Bun.spawn({
    cmd: [...guard, "pebble", "-config", config, "-dnsserver", `127.0.0.1:${dnsPort}`],
    // No random sleeps before checking a challenge, no nonces refused on purpose, no authorisation reused.
    env: { PATH: process.env.PATH ?? "", PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0", PEBBLE_AUTHZREUSE: "0" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  keep(pebble);
  const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
  const ca = await Bun.file(caFile).text();
  const stop = async () => {
    pebble.kill("SIGKILL");
    dns.kill("SIGKILL");
    await Promise.all([pebble.exited, dns.exited]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Pebble makes its keys first: a few seconds on a loaded machine.
    await waitFor("Pebble's directory", async () => ((await fetch(directoryUrl, { tls: { ca } })).ok ? true : null), 60_000);
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output.join("\n")}`);
  }
  const management = `https://127.0.0.1:${managementPort}`;
  return {
    directoryUrl,
    caFile,
    async issuers() {
      const get = async (path: string) => (await fetch(`${management}${path}`, { tls: { ca } })).text();
      return `${await get("/roots/0")}\n${await get("/intermediates/0")}`;
    },
    stop,
  };
}
