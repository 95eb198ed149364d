/**
 * The same function, each call started once the call made before it with the same key has
 * settled: the calls of one key run one at a time, in the order they were made, whatever
 * each one waits for; calls of different keys do not wait for each other. A key is
 * forgotten once its last call has settled.
 */
export function oneAtATime<A, R>(keyOf: (arg: A) => string, run: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
  const tails = new Map<string, Promise<void>>();
  return (arg) => {
    const key = keyOf(arg);
    const next = (tails.get(key) ?? Promise.resolve()).then(() => run(arg));
    const tail: Promise<void> = next.then(
      () => forget(),
      () => forget(),
    );
    const forget = () => {
      if (tails.get(key) === tail) tails.delete(key);
    };
    tails.set(key, tail);
    return next;
  };
}
