/**
 * Resolves when the user stops the command (Ctrl-C, SIGTERM) or `stop()` is called; the signal
 * handlers are removed then.
 */
export function untilStopped(): { stopped: Promise<void>; stop: () => void } {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    stop = done;
  });
  return { stopped, stop };
}
