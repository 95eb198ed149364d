import express, { type RequestHandler } from 'express';

/**
 * RFC 6749 §3.1: "Parameters sent without a value MUST be treated as if they were omitted
 * from the request." Clients send `scope=` or `resource=` when they have none; read as
 * values, those were an empty scope (invalid_scope) or a resource that is no URL.
 */
export function withoutEmptyParameters(params: unknown): unknown {
  if (typeof params !== 'object' || params === null) return params;
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ''));
}

/**
 * The form of a token or revocation request, parsed as the SDK's handler would parse it
 * (it then leaves the parsed body alone), without its empty parameters.
 */
export function formWithoutEmptyParameters(): RequestHandler[] {
  return [
    express.urlencoded({ extended: false }),
    (req, _res, next) => {
      req.body = withoutEmptyParameters(req.body);
      next();
    },
  ];
}
