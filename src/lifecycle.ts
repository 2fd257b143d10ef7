/**
 * How a zarpay process ends (`npm start`, `zarpay dispatcher`): on SIGTERM or SIGINT it stops
 * what it runs, which finishes the work under way and closes every connection, and exits 0.
 * Should stopping hang (a bug, a database that stopped answering), it exits 1 after `hardLimitMs`
 * anyway: a process that ignores its signal is worse than one that drops a connection.
 */
export function exitOnSignal(stop: () => Promise<void>, log: (message: string, err?: unknown) => void, hardLimitMs = 5_000) {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: finishing work under way`);
    setTimeout(() => {
      log(`still stopping after ${hardLimitMs} ms: exiting now`);
      process.exit(1);
    }, hardLimitMs).unref();
    stop().then(
      () => process.exit(0),
      (err) => {
        log('shutdown failed', err);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
