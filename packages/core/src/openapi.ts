import {
  forEachOpenApiProcedure,
  generateOpenApiDocument,
  type OpenAPIObject,
  type OpenApiMethod,
} from 'trpc-to-openapi';
import { type ErrorKind, KINDS } from './errors.ts';
import type { Meta } from './meta.ts';
import { appRouter } from './router.ts';

type PathItem = NonNullable<OpenAPIObject['paths']>[string];
type Operation = NonNullable<PathItem['get']>;
type Schema = Record<string, unknown>;

export interface OpenApiOptions {
  version: string;
  /** What a transport adds to an operation of this method, around its procedure. */
  transport(method: OpenApiMethod): {
    /** The request body is read: it may carry `apiKey`, and may be refused as too large. */
    readsBody: boolean;
    /** The failures the transport itself may answer with. */
    errors: readonly ErrorKind[];
  };
}

const KEY_SCHEME = 'ApiKey';
const KEY_HEADER = 'x-api-key';
const ENVELOPE = 'ErrorResponse';
const JSON_TYPE = 'application/json';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** `NOT_FOUND` → `NotFoundError`: the component schema of one kind of failure. */
const kindSchemaName = (kind: ErrorKind) =>
  `${kind.toLowerCase().replace(/(^|_)(\w)/g, (_, _sep, c: string) => c.toUpperCase())}Error`;

const BODY_KEY: Schema = {
  type: 'string',
  description: `The API key, instead of the ${KEY_HEADER} header (when both are sent, both must match)`,
};

/** The error responses of an operation, one per status, each in the envelope with its `error` strings. */
function errorResponses(kinds: ReadonlySet<ErrorKind>): Operation['responses'] {
  const byStatus = new Map<number, ErrorKind[]>();
  // the table's order: VALIDATION before INVALID_EXPLORATION_DATA
  for (const kind of Object.keys(KINDS) as ErrorKind[]) {
    if (!kinds.has(kind)) continue;
    const { status } = KINDS[kind];
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  const responses: Operation['responses'] = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const [only] = group;
    responses[String(status)] = {
      description: group.map((kind) => KINDS[kind].error).join(' or '),
      content: {
        [JSON_TYPE]: {
          schema:
            only && group.length === 1
              ? ref(kindSchemaName(only))
              : { oneOf: group.map(kindSchemaName).map(ref) },
        },
      },
    };
  }
  return responses;
}

/** The envelope, and one schema per kind of failure that narrows its `error` to the kind's string. */
function errorSchemas(): Record<string, Schema> {
  const kinds = Object.keys(KINDS) as ErrorKind[];
  const schemas: Record<string, Schema> = {
    [ENVELOPE]: {
      type: 'object',
      description: 'Every error response: `success` false, the error type, and human-readable details.',
      properties: {
        success: { type: 'boolean', const: false },
        error: { type: 'string', enum: [...new Set(kinds.map((kind) => KINDS[kind].error))] },
        details: {
          type: 'array',
          items: { type: 'string' },
          description: 'For validation errors, `<field path>: <message>`',
        },
      },
      required: ['success', 'error', 'details'],
      additionalProperties: false,
    },
  };
  for (const kind of kinds) {
    schemas[kindSchemaName(kind)] = {
      description: `${KINDS[kind].status} ${KINDS[kind].error}`,
      allOf: [ref(ENVELOPE), { type: 'object', properties: { error: { const: KINDS[kind].error } } }],
    };
  }
  return schemas;
}

/** The body schema of an operation with `apiKey` added; a DELETE, which has no other body fields, gets one. */
function withBodyKey(operation: Operation): Operation['requestBody'] {
  const body = operation.requestBody;
  if (!body) {
    return {
      required: false,
      content: { [JSON_TYPE]: { schema: { type: 'object', properties: { apiKey: BODY_KEY } } } },
    };
  }
  const schema = ('content' in body ? body.content[JSON_TYPE]?.schema : undefined) as Schema | undefined;
  if (!schema || typeof schema.properties !== 'object') {
    throw new Error(`cannot add apiKey to the request body of ${operation.operationId}`);
  }
  schema.properties = { ...schema.properties, apiKey: BODY_KEY };
  return body;
}

/**
 * The OpenAPI 3.1 document of the REST API: trpc-to-openapi's document of the procedures
 * (paths, parameters, request and success schemas from zod), with what it cannot know put right:
 * the API key scheme on exactly the keyed operations (and `apiKey` in their bodies), and error
 * responses in the service's envelope for exactly the statuses an operation can answer with —
 * input validation (every procedure), the key (keyed ones), the procedure's own `meta.errors`,
 * and the transport's — their statuses and `error` strings looked up in KINDS.
 */
export function openApiDocument(options: OpenApiOptions): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: 'Project Directory API',
    version: options.version,
    description:
      'A bilingual (Chinese and English) directory of AI projects and a queue of discovery tasks. ' +
      `Keyed operations take the API key in the \`${KEY_HEADER}\` header or in the body's \`apiKey\`. ` +
      'Errors come as `{"success": false, "error": <type>, "details": [<message>, …]}`.',
    baseUrl: '/',
    tags: ['projects', 'tasks', 'tags'],
    securitySchemes: { [KEY_SCHEME]: { type: 'apiKey', in: 'header', name: KEY_HEADER } },
  });

  forEachOpenApiProcedure(appRouter._def.procedures, ({ meta }) => {
    const { openapi, errors = [] } = meta as Meta;
    const operation = document.paths?.[openapi.path]?.[openapi.method.toLowerCase() as 'get'];
    if (!operation) throw new Error(`no operation for ${openapi.method} ${openapi.path}`);
    const transport = options.transport(openapi.method);

    if (openapi.protect) {
      operation.security = [{ [KEY_SCHEME]: [] }];
      if (transport.readsBody) operation.requestBody = withBodyKey(operation);
    } else {
      delete operation.security;
    }

    // trpc-to-openapi's own error responses are tRPC-shaped: keep only the success response.
    const kinds = new Set<ErrorKind>([
      'VALIDATION',
      ...(openapi.protect ? (['UNAUTHORIZED'] as const) : []),
      ...errors,
      ...transport.errors,
    ]);
    operation.responses = { 200: operation.responses?.[200], ...errorResponses(kinds) };
  });

  const schemas = { ...document.components?.schemas, ...errorSchemas() };
  // Without the schemas of the tRPC-shaped errors replaced above.
  document.components = { ...document.components, schemas: referenced(schemas, document.paths) };
  return document;
}

/** The component schemas that `root` refers to, directly or through other component schemas. */
function referenced<T>(schemas: Record<string, T>, root: unknown): Record<string, T> {
  const kept: Record<string, T> = {};
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const target = (node as { $ref?: unknown }).$ref;
    const name = typeof target === 'string' ? target.match(/^#\/components\/schemas\/(.+)$/)?.[1] : undefined;
    if (name !== undefined && !(name in kept) && schemas[name] !== undefined) {
      kept[name] = schemas[name];
      visit(schemas[name]);
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(root);
  return kept;
}
