import { checkResponseContract } from './openapi-contract.js';

/** A small JSON client for the REST API; every /v1 response is checked against the OpenAPI document. */
export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function request<T = Record<string, unknown>>(
  url: string,
  options: { method?: string; token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text.
  }
  await checkResponseContract(new URL(url), options.method ?? (body === undefined ? 'GET' : 'POST'), res.status, res.headers, parsed);
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** Bound to one base URL and token. */
export function client(baseUrl: string, token?: string) {
  return {
    get: <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) =>
      request<T>(path.startsWith('http') ? path : `${baseUrl}${path}`, { token, headers }),
    post: <T = Record<string, unknown>>(path: string, body: unknown, headers?: Record<string, string>) =>
      request<T>(`${baseUrl}${path}`, { method: 'POST', token, body, headers }),
    send: <T = Record<string, unknown>>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) =>
      request<T>(`${baseUrl}${path}`, { method, token, ...options }),
  };
}
