import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";

// Who holds a message being sent. A process id alone is not enough: in a container without an init
// the server is pid 1 (or 7) at every start, so a restarted server took its dead predecessor's
// messages for its own and left them for the whole lease; and a pid may come back for another
// program. A holder is therefore named by its pid plus a random id for this sender, the machine's
// boot and, on Linux, the process's start time (from /proc), which together name one run of one
// process. Pids are only compared within one machine and one pid namespace: a data folder is served
// by one server (or one server's processes) at a time, so a pid this process cannot see, or its own,
// belongs to a sender that is gone (a previous container of the same volume, say).

/** One sender of one run of a process: `holder` is written beside the pid on each message it takes. */
export type SenderIdentity = { pid: number; holder: string };

/** What is known of the sender holding a message. */
export type HolderState =
  /** This run of this process. */
  | "self"
  /** Gone: its pid is free, taken by this process or by another program, or the machine restarted since. */
  | "gone"
  /** Still running: it alone knows whether the mail server took the message. */
  | "alive"
  /** Not known (a row written before holders were named, whose pid is taken): its lease decides. */
  | "unknown";

type HolderFacts = { instance: string; boot: string; start: string };

const readOr = (read: () => string): string => {
  try {
    return read().trim();
  } catch {
    return "";
  }
};

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. "" when unknown. */
function startTicksOf(pid: number | "self"): string {
  const stat = readOr(() => readFileSync(`/proc/${pid}/stat`, "utf8"));
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[19] ?? "";
}

const bootId = () => readOr(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8"));

// "/" separates the parts: none of them holds one (a UUID, a boot id, digits).
const formatHolder = (f: HolderFacts) => [f.instance, f.boot, f.start].join("/");
function parseHolder(text: string): HolderFacts | null {
  const [instance, boot, start, ...rest] = text.split("/");
  if (instance === undefined || instance === "" || boot === undefined || start === undefined || rest.length > 0) return null;
  return { instance, boot, start };
}

let processFacts: Omit<HolderFacts, "instance"> | null = null;
// The senders of this process that have not stopped: with this pid, those alone are alive.
const runningHere = new Set<string>();

/** A new identity for a sender of this process (the process's facts read once), running until `retireSender`. */
export function senderIdentity(): SenderIdentity {
  processFacts ??= { boot: bootId(), start: startTicksOf("self") };
  const holder = formatHolder({ instance: randomUUID(), ...processFacts });
  runningHere.add(holder);
  return { pid: process.pid, holder };
}

/** The sender stopped: what it still holds is another sender's to take. */
export function retireSender(identity: SenderIdentity): void {
  runningHere.delete(identity.holder);
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

/** What `me` can tell of the sender that wrote `pid` and `holder` on a message. */
export function judgeHolder(me: SenderIdentity, pid: number | null, holder: string | null): HolderState {
  if (holder !== null && holder === me.holder) return "self";
  if (pid === null) return "gone";
  const facts = holder === null ? null : parseHolder(holder);
  const own = parseHolder(me.holder);
  if (facts !== null && own !== null) {
    // Written before the machine last started: that process is gone, whatever holds its pid now.
    if (facts.boot !== "" && own.boot !== "" && facts.boot !== own.boot) return "gone";
  }
  // Two running processes of one namespace never share a pid: with this one's, the holder is one of
  // its own senders (alive until stopped) or a run before it.
  if (pid === me.pid) return holder !== null && runningHere.has(holder) ? "alive" : "gone";
  if (!pidExists(pid)) return "gone";
  // A row from before holders were named: its pid is taken, maybe by another program.
  if (facts === null) return "unknown";
  if (facts.start !== "") {
    const now = startTicksOf(pid);
    // The pid was given to a process started later: ours is gone.
    if (now !== "" && now !== facts.start) return "gone";
  }
  return "alive";
}
