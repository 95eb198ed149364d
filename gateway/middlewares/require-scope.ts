import type { RequestHandler } from 'express';
import { missingScope, type Scope } from '../../shared/auth/scopes.js';
import { MissingScopeError, UnauthenticatedError } from '../../shared/errors.js';

/** 403 naming exactly the missing scope when none of `allowed` is held (the worker checks again); none: any valid credential. */
export function requireScope(allowed: readonly Scope[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.credential) return next(new UnauthenticatedError());
    const missing = missingScope(req.credential.scopes, allowed);
    if (missing) return next(new MissingScopeError(missing));
    next();
  };
}
