import type { AppRouter } from '@directory/core';
import { createTRPCClient, httpBatchLink, type TRPCClient } from '@trpc/client';

export interface DirectoryTrpcClientOptions {
  /** Where the service runs; the tRPC endpoint is `${baseUrl}/trpc`. */
  baseUrl: string;
  /** Sent as `x-api-key` on every request. */
  apiKey?: string;
  fetch?: typeof globalThis.fetch;
}

export type DirectoryTrpcClient = TRPCClient<AppRouter>;

/**
 * The same procedures over tRPC (`client.projects.get.query({ slug })`), for internal tools.
 * Failures are TRPCClientErrors whose `data` holds `httpStatus`, `error` and `details`.
 */
export function createDirectoryTrpcClient(options: DirectoryTrpcClientOptions): DirectoryTrpcClient {
  const { baseUrl, apiKey, fetch } = options;
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${baseUrl.replace(/\/+$/, '')}/trpc`,
        headers: () => (apiKey === undefined ? {} : { 'x-api-key': apiKey }),
        ...(fetch && { fetch }),
      }),
    ],
  });
}
