import {
  forEachOpenApiProcedure,
  generateOpenApiDocument,
  type OpenAPIObject,
  type OpenApiMethod,
} from 'trpc-to-openapi';
import { type ErrorKind, KINDS } from './errors.ts';
import { EXPORT_PATH } from './export/export.types.ts';
import type { Meta } from './meta.ts';
import { EXPORT_ERRORS, exportHeaderSchema, exportPathItem } from './openapi-export.ts';
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
const BEARER_SCHEME = 'Bearer';
const KEY_HEADER = 'x-api-key';
const ENVELOPE = 'ErrorResponse';
const JSON_TYPE = 'application/json';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** `NOT_FOUND` → `NotFoundError`: the component schema of one kind of failure. */
const kindSchemaName = (kind: ErrorKind) =>
  `${kind.toLowerCase().replace(/(^|_)(\w)/g, (_, _sep, c: string) => c.toUpperCase())}Error`;

const BODY_KEY: Schema = {
  type: 'string',
  description:
    `The API key, instead of the ${KEY_HEADER} header: a keyed operation needs one of the two ` +
    '(when both are sent, both must match).',
};

/** The tags of the document, each with its description. */
const TAGS: Record<string, string> = {
  projects:
    'The directory: create or update projects in batches, read and delete them by slug, check for duplicates.',
  tasks:
    'The discovery queue: tasks for source URLs, moved through their states and completed with a project.',
  tags: 'Browse the tags of the directory with their project counts.',
  search: 'How search matches and orders: the synonym sets it applies, the curated results (pins).',
  history:
    "Nothing curated is lost: a project's revisions, diffs between them, revert, deleted projects and restore, and " +
    'locks that keep fields from being replaced by upserts and completes.',
  changes:
    'The change feed: every create, update and delete of a project or task, in commit order, from a cursor.',
  webhooks:
    'Webhook subscriptions: the same changes pushed to a URL, signed (Standard Webhooks), at least once.',
  keys: 'Named keys: who may do what (scopes) and how much (rate limits); shown once, stored as a hash.',
  backup: 'Restore an export into an empty directory, the same projects under the same ids (keys:admin).',
};

const INFO_DESCRIPTION =
  'A bilingual (Chinese and English) directory of AI projects and a queue of discovery tasks.\n\n' +
  `**API key.** Keyed operations take the key in the \`${KEY_HEADER}\` header or, for operations with a ` +
  "JSON body, in the body's `apiKey` property (when both are sent, both must match). The document says " +
  'so in two ways: the `ApiKey` security scheme (the header), and, on operations with a body, an empty ' +
  'security alternative `{}` next to it together with the described `apiKey` body property — a request ' +
  'that sends neither gets 401. `Authorization: Bearer <key>` is accepted too. Each keyed operation ' +
  'names the scope it needs (`x-scope`, and in its description); a valid key without it gets 403. ' +
  'Reads of one record (a project by slug, a task by id) are public.\n\n' +
  '**Errors** come as `{"success": false, "error": <type>, "details": [<message>, …]}`.';

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
        location: {
          type: 'string',
          description: '301 only: where the resource is now (also the `Location` header)',
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

/**
 * An operation's example request and response: each parameter's value from the request example,
 * the rest of it as the body's example (a DELETE's body, which only carries the key, gets none).
 */
function addExamples(operation: Operation, examples: Meta['examples']): void {
  const body: Record<string, unknown> = { ...examples.request };
  for (const parameter of operation.parameters ?? []) {
    if (!('name' in parameter)) continue;
    // a path parameter is always required (a preprocessed one, such as a revision number, is not seen as such)
    if (parameter.in === 'path') parameter.required = true;
    if (parameter.name in body) parameter.example = body[parameter.name];
    delete body[parameter.name];
  }
  const media =
    operation.requestBody && 'content' in operation.requestBody && operation.requestBody.content[JSON_TYPE];
  if (media && Object.keys(body).length > 0) media.example = body;
  const ok = operation.responses?.[200];
  const okMedia = ok && 'content' in ok ? ok.content?.[JSON_TYPE] : undefined;
  if (!okMedia) throw new Error(`no 200 response for ${operation.operationId}`);
  okMedia.example = examples.response;
}

/**
 * A DELETE whose input is its body (meta.bodyInput): trpc-to-openapi describes a DELETE's input
 * as query parameters, so they become the properties of a JSON request body.
 */
function queryToBody(operation: Operation): void {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  operation.parameters = (operation.parameters ?? []).filter((parameter) => {
    if (!('name' in parameter) || parameter.in !== 'query') return true;
    properties[parameter.name] = {
      ...(parameter.schema as Schema),
      ...(parameter.description && { description: parameter.description }),
    };
    if (parameter.required) required.push(parameter.name);
    return false;
  });
  if (operation.parameters.length === 0) delete operation.parameters;
  operation.requestBody = {
    required: true,
    content: {
      [JSON_TYPE]: {
        schema: { type: 'object', properties, ...(required.length > 0 && { required }) } as never,
      },
    },
  };
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
    description: INFO_DESCRIPTION,
    baseUrl: '/',
    tags: Object.keys(TAGS),
    securitySchemes: {
      [KEY_SCHEME]: { type: 'apiKey', in: 'header', name: KEY_HEADER },
      [BEARER_SCHEME]: { type: 'http', scheme: 'bearer' },
    },
  });

  document.info.contact = { name: 'Project Directory maintainers' };
  document.info.license = { name: 'MIT', identifier: 'MIT' };
  document.tags = Object.entries(TAGS).map(([name, description]) => ({ name, description }));

  forEachOpenApiProcedure(appRouter._def.procedures, ({ meta }) => {
    const { openapi, errors = [], examples, bodyInput, scope } = meta as Meta;
    const operation = document.paths?.[openapi.path]?.[openapi.method.toLowerCase() as 'get'];
    if (!operation) throw new Error(`no operation for ${openapi.method} ${openapi.path}`);
    if (bodyInput) queryToBody(operation);
    const transport = options.transport(openapi.method);

    if (openapi.protect && transport.readsBody) {
      // the header, or (the empty alternative) the body's described apiKey property
      operation.security = [{ [KEY_SCHEME]: [] }, { [BEARER_SCHEME]: [] }, {}];
      operation.requestBody = withBodyKey(operation);
    } else {
      operation.security = openapi.protect ? [{ [KEY_SCHEME]: [] }, { [BEARER_SCHEME]: [] }] : [];
    }
    addExamples(operation, examples);
    if (scope !== undefined) {
      // the scope a key needs here (403 without it; docs/keys-and-limits.md#named-keys-and-scopes)
      const needs = scope === 'any-key' ? 'any valid key' : `a key with the scope \`${scope}\``;
      operation.description = `${operation.description ?? ''}\n\n**Key:** ${needs}.`.trim();
      (operation as Record<string, unknown>)['x-scope'] = scope;
    }

    // trpc-to-openapi's own error responses are tRPC-shaped: keep only the success response.
    const kinds = new Set<ErrorKind>([
      'VALIDATION',
      ...(openapi.protect ? (['UNAUTHORIZED'] as const) : []),
      ...(scope !== undefined && scope !== 'any-key' ? (['FORBIDDEN'] as const) : []),
      ...errors,
      ...transport.errors,
    ]);
    // a create answers 201 Created (meta.created)
    const success = (meta as Meta).created ? 201 : 200;
    const ok = operation.responses?.[200];
    if (ok && 'description' in ok && success === 201) ok.description = 'Created';
    operation.responses = { [success]: ok, ...errorResponses(kinds) };
  });

  // the streamed export (openapi-export.ts), beside the procedures
  const exportErrors = new Set([...EXPORT_ERRORS, ...options.transport('GET').errors]);
  const listParameters = document.paths?.['/api/projects']?.get?.parameters ?? [];
  document.paths = {
    ...document.paths,
    [EXPORT_PATH]: exportPathItem(listParameters, errorResponses(exportErrors) ?? {}),
  };

  const schemas = { ...document.components?.schemas, ...errorSchemas(), ExportHeader: exportHeaderSchema() };
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
