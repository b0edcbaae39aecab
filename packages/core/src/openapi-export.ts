import type { OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import type { ErrorKind } from './errors.ts';
import {
  EXPORT_CONTENT_TYPES,
  EXPORT_CURSOR_HEADER,
  EXPORT_SCOPE,
  ExportHeader,
} from './export/export.types.ts';

type PathItem = NonNullable<OpenAPIObject['paths']>[string];
type Operation = NonNullable<PathItem['get']>;
type Parameter = NonNullable<Operation['parameters']>[number];

/** What the export can be refused with, besides what the transport adds (docs/api.md#export-get-apiexport). */
export const EXPORT_ERRORS: readonly ErrorKind[] = [
  'VALIDATION',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'METHOD_NOT_ALLOWED',
  'RATE_LIMITED',
  'UNAVAILABLE',
];

const LIST_FILTERS = ['status', 'tag', 'updatedAfter'];

const NDJSON_EXAMPLE =
  '{"type":"export","version":1,"asOf":"2026-11-21T09:30:00.000Z","cursor":"YzEuNzc5LjUx","count":1}\n' +
  '{"id":"k3b9x2m1q8w7e6r5t4y3u2i1","name":"通义千问","nameEn":"Qwen","slug":"qwen",…,"aliases":["qwen-chat"]}\n';
const CSV_EXAMPLE =
  'id,slug,name,nameEn,description,descriptionEn,status,source,createdAt,updatedAt,tags,links,stars,downloads,content,contentEn\r\n' +
  'k3b9x2m1q8w7e6r5t4y3u2i1,qwen,通义千问,Qwen,"阿里云推出的超大规模语言模型系列，支持中英文对话与代码生成。",' +
  'Alibaba Cloud large language model family.,ACTIVE,github,2026-11-20T08:00:00.000Z,2026-11-21T09:30:00.000Z,' +
  'llm,https://github.com/QwenLM/Qwen,98000,,,\r\n';

/** The ExportHeader component schema: the NDJSON's first line. */
export function exportHeaderSchema(): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(ExportHeader, { target: 'draft-2020-12' });
  return schema;
}

/**
 * GET /api/export in the OpenAPI document: not a procedure (it streams), so described here, with
 * the list's filter parameters as the document already has them (the same schemas validate both).
 */
export function exportPathItem(
  listParameters: readonly Parameter[],
  errors: NonNullable<Operation['responses']>,
): PathItem {
  const filters = listParameters.filter((p) => 'name' in p && LIST_FILTERS.includes(p.name));
  const header = (description: string, schema: Record<string, unknown>) => ({ description, schema });
  return {
    get: {
      operationId: 'exportProjects',
      tags: ['projects'],
      summary: 'Export the directory as of one snapshot (NDJSON or CSV, streamed)',
      description:
        'Every project (or the list’s `status`, `tag` and `updatedAfter` filters of them) as of one database ' +
        'snapshot, in id order, streamed. NDJSON: a header line (`ExportHeader`: asOf, the change feed `cursor` of ' +
        'the snapshot, count), then one project per line exactly as GET /api/projects/{slug} answers it, with `aliases` added (the slugs ' +
        'that lead to it, of projects merged into it; a restore keeps them). CSV: a ' +
        'header row, then one RFC 4180 row per project (tags and links joined by a space). Follow ' +
        '`GET /api/changes?after=<cursor>` for what changed since: nothing is missed or repeated. `after=<id>` ' +
        'resumes after a cut. gzip when Accept-Encoding allows. One export at a time per key (429).' +
        `\n\n**Key:** a key with the scope \`${EXPORT_SCOPE}\`.`,
      security: [{ ApiKey: [] }, { Bearer: [] }],
      parameters: [
        {
          name: 'format',
          in: 'query',
          required: false,
          description: '`ndjson` (default) or `csv`',
          schema: { type: 'string', enum: ['ndjson', 'csv'], default: 'ndjson' },
          example: 'ndjson',
        },
        ...structuredClone(filters),
        {
          name: 'after',
          in: 'query',
          required: false,
          description:
            'Resume an interrupted export: the projects after this id (the last line received), from a new snapshot',
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
        },
      ],
      responses: {
        200: {
          description:
            'The export, streamed (Content-Encoding: gzip when asked). NDJSON lines: `ExportHeader`, then `Project`s',
          headers: {
            [EXPORT_CURSOR_HEADER]: header('The change feed cursor of the snapshot', { type: 'string' }),
            'X-Export-As-Of': header('When the snapshot was taken', { type: 'string', format: 'date-time' }),
            'X-Export-Count': header('How many projects the export holds', { type: 'integer', minimum: 0 }),
          },
          content: {
            [EXPORT_CONTENT_TYPES.ndjson]: {
              schema: {
                type: 'string',
                description:
                  'Lines of JSON (contentSchema: the lines as an array): the first an ExportHeader, each other a Project',
                contentMediaType: EXPORT_CONTENT_TYPES.ndjson,
                contentSchema: {
                  type: 'array',
                  prefixItems: [{ $ref: '#/components/schemas/ExportHeader' }],
                  items: { $ref: '#/components/schemas/Project' },
                },
              },
              example: NDJSON_EXAMPLE,
            },
            [EXPORT_CONTENT_TYPES.csv]: {
              schema: { type: 'string', description: 'RFC 4180 CSV with a header row' },
              example: CSV_EXAMPLE,
            },
          },
        },
        ...errors,
      },
      'x-scope': EXPORT_SCOPE,
    } as Operation,
  };
}
