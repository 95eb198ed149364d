/**
 * The reasons stored with a grant revoked because its code or refresh token came back a
 * second time: a copy is in someone else's hands, so the grant vouches for nothing.
 */
export const REVOKED_FOR_THEFT = {
  codeReplayed: 'authorization code replayed',
  refreshTokenReused: 'refresh token reused',
} as const;
