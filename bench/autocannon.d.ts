// The part of autocannon 9's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /**
       * Called before each request is built; must return the request to send. With `workers`, the
       * path of a CommonJS file that exports that function (a thread takes a file, not a function).
       */
      setupRequest?: ((request: Request, context: Record<string, unknown>) => Request) | string;
      /** Setting it makes autocannon keep each response body. */
      onResponse?: (
        status: number,
        body: string,
        context: Record<string, unknown>,
        headers: Record<string, string>,
      ) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      requests?: Request[];
      /** Worker threads that send the requests (each runs its share of the connections). */
      workers?: number;
    }

    interface Histogram {
      average: number;
      p50: number;
      p99: number;
      total: number;
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
      requests: Histogram;
      latency: Histogram;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
