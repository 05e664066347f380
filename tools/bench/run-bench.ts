/**
 * Runs a benchmark's main and ends the process with its outcome: 0 once the report is printed and the
 * benchmark's stack is stopped, 1 with the error otherwise. A benchmark is a script, so a client handle
 * left open in a library (a keep-alive socket, a Redis connection) must not keep it running.
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
