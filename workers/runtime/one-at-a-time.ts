/**
 * The same function, each call started once the call made before it has settled: calls run
 * in the order they were made, one at a time, whatever each one waits for.
 */
export function oneAtATime<A, R>(run: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
  let previous: Promise<unknown> = Promise.resolve();
  return (arg) => {
    const next = previous.then(() => run(arg));
    previous = next.catch(() => undefined);
    return next;
  };
}
