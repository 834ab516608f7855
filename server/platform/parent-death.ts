// Children that go when the first process dies, however it dies.

/**
 * `command` started so that the kernel itself signals it when this process dies, however it dies
 * (Linux's parent-death signal, set by util-linux's `setpriv` and kept across its exec): a child
 * still loading its code on a busy machine cannot notice anything by itself yet. Where `setpriv` is
 * missing the command is started as it is, and the child must notice by itself. `signal`: the
 * site's own children get one that tells them why they go (processes.ts); another program
 * (Litestream) is ended outright, so that it writes nothing more once its server is gone.
 */
export function endingWithThisProcess(command: string[], signal: "SIGUSR2" | "SIGKILL"): string[] {
  const setpriv = process.platform === "linux" ? Bun.which("setpriv") : null;
  return setpriv === null ? command : [setpriv, "--pdeathsig", signal.slice(3), "--", ...command];
}
