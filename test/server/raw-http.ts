import { connect } from "node:net";

export type RawAnswer = { status: number | null; headers: Record<string, string>; body: string; socketError: string | null };

/**
 * Sends bytes as they are over a new TCP connection (what fetch cannot: a bad or missing Host,
 * HTTP/1.0, a whole body in one write) and reads the answer until the server closes or `waitMs`.
 */
export function rawRequest(baseUrl: string, bytes: string | Uint8Array, waitMs = 5000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let socketError: string | null = null;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString("latin1"), socketError));
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (chunk) => chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      socketError = error.code ?? error.message;
    });
    socket.on("close", finish);
    socket.write(bytes);
  });
}

/** Opens a request, sends part of its body, and hangs up. */
export function hangUpMidUpload(baseUrl: string, head: string, partOfBody: string): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(head + partOfBody);
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 150);
    });
    socket.on("error", () => {});
  });
}

function parse(text: string, socketError: string | null): RawAnswer {
  const end = text.indexOf("\r\n\r\n");
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: status === undefined ? null : Number(status), headers, body: end === -1 ? "" : text.slice(end + 4), socketError };
}
