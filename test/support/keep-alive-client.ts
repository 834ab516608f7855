import { connect, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";

export type KeepAliveResult = { answered: number; failures: string[]; slowestMs: number };

/**
 * One HTTP/1.1 client on a kept-alive connection, asking `paths` in turn, one request after the
 * other, until `more()` says stop. Unlike fetch it never sends a request again: a connection
 * closed before its answer is a failed request, as a browser's POST or a program without retries
 * would see it. A `Connection: close` answer is honoured: the next request opens a new connection.
 */
export async function keepAliveClient(
  baseUrl: string,
  paths: string[],
  more: () => boolean,
  /** Over TLS (an https:// base), the CA to check the certificate with and the name it must hold. */
  tls?: { ca: string; servername: string },
  /** Milliseconds to rest before the next request (none unless given): a pace for the dull stretches of a test. */
  restMs: () => number = () => 0,
): Promise<KeepAliveResult> {
  const { hostname, port } = new URL(baseUrl);
  const failures: string[] = [];
  let answered = 0;
  let slowestMs = 0;
  let socket: Socket | null = null;
  for (let i = 0; more(); i++) {
    const rest = i === 0 ? 0 : restMs();
    if (rest > 0) await Bun.sleep(rest);
    const path = paths[i % paths.length] ?? "/";
    const started = performance.now();
    try {
      socket ??= await open(Number(port), hostname, tls);
      const { status, close } = await ask(
        socket,
        `GET ${path} HTTP/1.1\r\nHost: ${tls?.servername ?? hostname}:${port}\r\nAccept: */*\r\n\r\n`,
      );
      if (status === 200) answered++;
      else failures.push(`${path}: ${status}`);
      if (close) {
        socket.destroy();
        socket = null;
      }
    } catch (error) {
      failures.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      socket?.destroy();
      socket = null;
    }
    slowestMs = Math.max(slowestMs, performance.now() - started);
  }
  socket?.destroy();
  return { answered, failures, slowestMs };
}

function open(port: number, host: string, tls?: { ca: string; servername: string }): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ready = () => {
      socket.off("error", reject);
      resolve(socket);
    };
    const socket = tls === undefined ? connect(port, host, ready) : connectTls({ port, host, ...tls }, ready);
    socket.once("error", reject);
  });
}

/** Sends one request and reads its answer (Content-Length or chunked); rejects if the connection ends first. */
function ask(socket: Socket, request: string): Promise<{ status: number; close: boolean }> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const done = (error: Error | null, answer?: { status: number; close: boolean }) => {
      socket.off("data", onData);
      socket.off("close", onClose);
      socket.off("error", onError);
      if (error !== null) reject(error);
      else if (answer !== undefined) resolve(answer);
    };
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf("\r\n\r\n");
      if (end === -1) return;
      const head = buffer.subarray(0, end).toString("latin1");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const close = /\r\nconnection:\s*close/i.test(head);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
      const body = buffer.subarray(end + 4);
      const complete = length !== undefined ? body.length >= Number(length) : body.includes("0\r\n\r\n");
      if (complete) done(null, { status, close });
    };
    const onClose = () => done(new Error("connection closed before the answer"));
    const onError = (error: Error) => done(error);
    socket.on("data", onData);
    socket.on("close", onClose);
    socket.on("error", onError);
    socket.write(request);
  });
}
