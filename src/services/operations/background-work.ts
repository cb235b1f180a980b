/**
 * Work a request starts and does not wait for (sending a mail and storing what it carries). It begins a
 * turn of the event loop later (setImmediate): a JSON answer given right after the service call is written
 * first, so an account that gets a mail answers as fast as an address that does not. (A page drawn after
 * further reads may overlap it.) `idle()` resolves once everything started so far has finished (tests,
 * shutdown). The work must not throw: it logs its own failures.
 */
export function createBackgroundWork() {
  const pending = new Set<Promise<void>>();

  function start(work: () => Promise<void>): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve)).then(work);
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  async function idle(): Promise<void> {
    await Promise.allSettled([...pending]);
  }

  return { start, idle };
}
