/**
 * At most `slots` of the tasks handed to it run at once; the others wait their turn, first come
 * first served. The browser journeys of a file run their tests side by side (`test.concurrent`):
 * most of a page visit is waiting (the server, the network, a frame), but the machine may have two
 * cores, so a file caps how many pages are being worked on at one time rather than opening one per test.
 */
export function limiter(slots: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A slot is free, or one is handed over by the task that ends (it stays counted as running).
    if (running < slots) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}
