/**
 * A queue of asynchronous work run one at a time, in the order given: each runs once the one before it has
 * settled, whether it succeeded or failed. Answers what the work answers.
 */
export function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const result = tail.then(work, work);
    tail = result.catch(() => undefined);
    return result;
  };
}
