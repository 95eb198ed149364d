/** Message headers carried with every bus request. */
export const HEADER = {
  requestId: 'Crm-Request-Id',
  /** Absolute deadline in epoch milliseconds; a worker drops work that is already late. */
  deadline: 'Crm-Deadline',
  idempotencyKey: 'Crm-Idempotency-Key',
  /** On operator calls only: see shared/bus/operator-signature.ts. */
  operatorSignature: 'Crm-Operator-Signature',
} as const;
