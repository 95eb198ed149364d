/** What one delivery counts against: its workspace's share and its endpoint's. */
export interface SharedDelivery {
  workspace_id: string;
  endpoint_id: string;
}

export interface ShareCaps {
  /** Attempts in flight at once for one workspace (WEBHOOK_IN_FLIGHT_PER_WORKSPACE). */
  perWorkspace: number;
  /** Attempts in flight at once for one endpoint (WEBHOOK_IN_FLIGHT_PER_ENDPOINT). */
  perEndpoint: number;
}

/** How many more deliveries of each workspace and endpoint a claim may take; those not named may take their whole cap. */
export interface ClaimRooms {
  perWorkspace: number;
  perEndpoint: number;
  workspaces: Map<string, number>;
  endpoints: Map<string, number>;
}

/**
 * The attempts in flight in this copy, counted per workspace and per endpoint: one
 * workspace's endpoints that never answer hold at most its share of the slots, each for
 * WEBHOOK_TIMEOUT, and the other slots stay free for other workspaces.
 */
export class InFlightShares {
  private readonly ofWorkspace = new Map<string, number>();
  private readonly ofEndpoint = new Map<string, number>();

  constructor(readonly caps: ShareCaps) {}

  /** Whether an attempt of this delivery may start now. */
  hasRoom(delivery: SharedDelivery): boolean {
    return (this.ofWorkspace.get(delivery.workspace_id) ?? 0) < this.caps.perWorkspace && (this.ofEndpoint.get(delivery.endpoint_id) ?? 0) < this.caps.perEndpoint;
  }

  take(delivery: SharedDelivery): void {
    add(this.ofWorkspace, delivery.workspace_id, 1);
    add(this.ofEndpoint, delivery.endpoint_id, 1);
  }

  release(delivery: SharedDelivery): void {
    add(this.ofWorkspace, delivery.workspace_id, -1);
    add(this.ofEndpoint, delivery.endpoint_id, -1);
  }

  /** What a claim may take beside the attempts in flight and the deliveries already `waiting` for a slot. */
  claimRooms(waiting: readonly SharedDelivery[]): ClaimRooms {
    const workspaces = new Map(this.ofWorkspace);
    const endpoints = new Map(this.ofEndpoint);
    for (const delivery of waiting) {
      add(workspaces, delivery.workspace_id, 1);
      add(endpoints, delivery.endpoint_id, 1);
    }
    const rooms = (held: Map<string, number>, cap: number) => new Map([...held].map(([id, n]) => [id, Math.max(0, cap - n)]));
    return { perWorkspace: this.caps.perWorkspace, perEndpoint: this.caps.perEndpoint, workspaces: rooms(workspaces, this.caps.perWorkspace), endpoints: rooms(endpoints, this.caps.perEndpoint) };
  }
}

function add(counts: Map<string, number>, id: string, n: number): void {
  const next = (counts.get(id) ?? 0) + n;
  if (next > 0) counts.set(id, next);
  else counts.delete(id);
}
