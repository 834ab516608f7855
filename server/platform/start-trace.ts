// START_TRACE=1 prints, on standard error, when each phase of a process's start was reached: the
// milliseconds since this program image started (a re-exec starts the count again) and the wall
// clock, and the CPU time the process used so far (which a re-exec keeps counting: a figure that
// a machine busy with other work changes little), so that a bench can line the phases up with the moment it spawned the process
// (bench/static.ts --cold-only). Read here rather than through the configuration: the first phases come
// before the configuration is loaded, and the server may re-execute itself before it is.
const tracing = process.env.START_TRACE === "1";

/** Notes that this process reached `phase` of its start, when START_TRACE=1. */
export function startTrace(phase: string): void {
  if (!tracing) return;
  const sinceStart = performance.now();
  const wall = performance.timeOrigin + sinceStart;
  const { user, system } = process.cpuUsage();
  const cpu = (user + system) / 1000;
  process.stderr.write(
    `start-trace pid=${process.pid} +${sinceStart.toFixed(1)}ms cpu=${cpu.toFixed(1)}ms at=${wall.toFixed(1)} ${phase}\n`,
  );
}
