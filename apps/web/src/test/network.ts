// The network edge faked for console tests: answers by method and path, every call recorded.
import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  url: URL;
  body: string | null;
  headers: Record<string, string>;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function fakeNetwork() {
  const routes: { method: string; path: string; handler: Handler }[] = [];
  const calls: RecordedCall[] = [];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://careplane.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const call: RecordedCall = {
      method,
      url,
      body: typeof init.body === 'string' ? init.body : null,
      headers,
    };
    calls.push(call);
    const route = routes.find((entry) => entry.method === method && entry.path === url.pathname);
    if (!route)
      return json(
        { statusCode: 404, error: 'Not Found', message: `No fake for ${method} ${url.pathname}` },
        404,
      );
    return route.handler(call);
  });

  return {
    fetch: fetchMock,
    calls,
    /** Answers `method path` with the handler (the last one registered for a path wins). */
    on(method: string, path: string, handler: Handler) {
      routes.unshift({ method, path, handler });
      return this;
    },
    /** Answers the listed responses in turn, repeating the last one. */
    sequence(method: string, path: string, answers: (() => Response)[]) {
      let index = 0;
      routes.unshift({
        method,
        path,
        handler: () => {
          const answer = answers[Math.min(index, answers.length - 1)]!;
          index += 1;
          return answer();
        },
      });
      return this;
    },
    callsTo(method: string, path: string) {
      return calls.filter((call) => call.method === method && call.url.pathname === path);
    },
    install() {
      vi.stubGlobal('fetch', fetchMock);
      return this;
    },
  };
}
export type FakeNetwork = ReturnType<typeof fakeNetwork>;
