import type { OpenApiMeta } from 'trpc-to-openapi';
import type { RequiredScope } from './domain/scopes.ts';
import type { ErrorKind } from './errors.ts';

/**
 * Every procedure's meta: `openapi.method` and `openapi.path` are its REST route, and
 * `openapi.protect` says whether it takes the API key (the key check itself is the choice of
 * `keyedProcedure`; `protect` must agree, and is required so that the document never guesses).
 * `openapi.description` is the operation's description in the OpenAPI document, and `examples`
 * its example request and response (both required: schema-driven tools use them).
 */
export type Meta = OpenApiMeta & {
  openapi: NonNullable<OpenApiMeta['openapi']> & { protect: boolean; description: string };
  /**
   * The scope a keyed procedure needs (docs/keys-and-limits.md#named-keys-and-scopes): a key without it
   * gets 403 `scope: this key lacks "<scope>"`; `any-key` takes any valid key. Required exactly when
   * `protect` is true (keyedProcedure refuses to run without it; core's meta test checks both ways).
   */
  scope?: RequiredScope;
  /** The procedure creates something: REST answers 201 Created instead of 200. */
  created?: true;
  /**
   * The failures the procedure itself reports, beyond input validation and the key (which
   * every procedure, and every keyed one, may report): they become its documented error responses.
   */
  errors?: readonly ErrorKind[];
  /**
   * A realistic request (the body, or the query/path parameters of a GET/DELETE) and its 200
   * response, drawn from the sample data (fixtures/projects.sample.json): shown in the OpenAPI
   * document so that schema-driven tools send and expect real values.
   */
  examples: {
    /** The body, with the path parameters; or the path and query parameters of a GET or DELETE. */
    request: Record<string, unknown>;
    response: Record<string, unknown>;
  };
  /**
   * A cursor-paged list: when the output's `field` is a string, REST answers with a
   * `Link: <this request with param=that string>; rel="next"` header.
   */
  nextLink?: { param: string; field: string };
  /**
   * A pure read of the read model: its answer depends only on the request and the model's
   * state, so a transport may keep the serialised answer until the model changes
   * (ReadModel.version), like a search engine's request cache.
   */
  readsModel?: true;
  /**
   * A DELETE whose input is its JSON body (not its query string), as a POST's is: the REST
   * adapter reads it from there, and the OpenAPI document describes a request body.
   */
  bodyInput?: true;
};
