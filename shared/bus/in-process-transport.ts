import { BusTimeoutError, NoRespondersError } from './transport.js';
import type { BusHandler, BusHeaders, BusMessage, BusSubscription, BusTransport } from './transport.js';

interface Member {
  queue: string;
  handler: BusHandler;
  inFlight: Set<Promise<unknown>>;
  open: boolean;
}

/**
 * The bus for the embedded default (`crm start` without NATS_URL), where gateway and
 * workers share one process. Bytes are copied on the way in and out, as on a wire.
 */
export class InProcessTransport implements BusTransport {
  readonly kind = 'in-process' as const;
  private readonly members = new Map<string, Member[]>();
  private readonly listeners = new Map<string, Set<(data: Uint8Array) => void>>();
  private readonly nextMember = new Map<string, number>();
  private closed = false;

  maxMessageBytes(): number {
    return Number.POSITIVE_INFINITY;
  }

  isConnected(): boolean {
    return !this.closed;
  }

  async request(subject: string, data: Uint8Array, options: { headers: BusHeaders; timeoutMs: number }): Promise<BusMessage> {
    const open = (this.members.get(subject) ?? []).filter((m) => m.open);
    if (open.length === 0 || this.closed) throw new NoRespondersError(subject);
    const turn = this.nextMember.get(subject) ?? 0;
    this.nextMember.set(subject, turn + 1);
    const member = open[turn % open.length] as Member;

    const work = member.handler({ subject, data: data.slice(), headers: { ...options.headers } });
    member.inFlight.add(work);
    void work.catch(() => undefined).finally(() => member.inFlight.delete(work));

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BusTimeoutError(subject, options.timeoutMs)), options.timeoutMs);
    });
    try {
      const reply = await Promise.race([work, timeout]);
      return { subject, data: reply.slice(), headers: {} };
    } finally {
      clearTimeout(timer);
    }
  }

  subscribe(subject: string, queue: string, handler: BusHandler): BusSubscription {
    const member: Member = { queue, handler, inFlight: new Set(), open: true };
    const list = this.members.get(subject) ?? [];
    list.push(member);
    this.members.set(subject, list);
    return {
      drain: async () => {
        member.open = false;
        while (member.inFlight.size > 0) await Promise.allSettled([...member.inFlight]);
        const remaining = (this.members.get(subject) ?? []).filter((m) => m !== member);
        this.members.set(subject, remaining);
      },
    };
  }

  publish(subject: string, data: Uint8Array): void {
    for (const listener of this.listeners.get(subject) ?? []) queueMicrotask(() => listener(data.slice()));
  }

  listen(subject: string, handler: (data: Uint8Array) => void): BusSubscription {
    const set = this.listeners.get(subject) ?? new Set();
    set.add(handler);
    this.listeners.set(subject, set);
    return { drain: async () => void set.delete(handler) };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
