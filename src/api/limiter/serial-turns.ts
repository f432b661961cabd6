/**
 * One operation at a time, in the order issued: the limiter's store work (grant decisions
 * and the reactions observe() queues) runs through it, so a reaction is in the store before
 * the next grant decision reads it. A failed operation does not stop the ones after it.
 */
export class SerialTurns {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(op: () => Promise<T>): Promise<T> {
    const result = this.tail.then(op);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Settles once every operation issued so far, and any issued meanwhile, is done. */
  async idle(): Promise<void> {
    for (;;) {
      const last = this.tail;
      await last;
      if (last === this.tail) return;
    }
  }
}
