import type { ListPage } from './api-types.js';
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

/** More pages than any test list has: a links.next that never ends fails the test instead of hanging it. */
const MAX_PAGES = 1_000;

/** Bound to one base URL and token. */
export function client(baseUrl: string, token?: string) {
  const get = <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) =>
    request<T>(path.startsWith('http') ? path : `${baseUrl}${path}`, { token, headers });
  return {
    get,
    /**
     * Every page of a list, following links.next as given from `path` on (each page must
     * answer 200): the records in order, their ids, and the pages. `onPage` sees each page
     * as it comes (to assert on its link, or to write between pages).
     */
    allPages: async <R extends { id: string }>(path: string, onPage?: (page: ListPage<R>, url: string) => unknown): Promise<{ items: R[]; ids: string[]; pages: ListPage<R>[] }> => {
      const pages: ListPage<R>[] = [];
      let url: string | null = path;
      while (url !== null) {
        if (pages.length >= MAX_PAGES) throw new Error(`${path}: links.next still not null after ${MAX_PAGES} pages`);
        const res: ApiResponse<ListPage<R>> = await get<ListPage<R>>(url);
        if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
        pages.push(res.body);
        await onPage?.(res.body, url);
        url = res.body.links.next;
      }
      const items = pages.flatMap((page) => page.data);
      return { items, ids: items.map((item) => item.id), pages };
    },
    post: <T = Record<string, unknown>>(path: string, body: unknown, headers?: Record<string, string>) =>
      request<T>(`${baseUrl}${path}`, { method: 'POST', token, body, headers }),
    send: <T = Record<string, unknown>>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) =>
      request<T>(`${baseUrl}${path}`, { method, token, ...options }),
  };
}
