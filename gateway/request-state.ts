import type { CallContext } from '../shared/contracts/call-context.js';
import type { Scope } from '../shared/auth/scopes.js';

/** What the gateway resolved from a request's credential. */
export interface ResolvedCredential {
  kind: 'api_token' | 'oauth' | 'session';
  workspaceId: string;
  scopes: Scope[];
  /** Travels with every bus call made for this request. */
  context: CallContext;
  tokenId?: string;
  /** For OAuth: the grant the access token belongs to. */
  grantId?: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by the request-id middleware on every request. */
      requestId: string;
      /** Set by an authentication middleware. */
      credential?: ResolvedCredential;
    }
  }
}

export {};
