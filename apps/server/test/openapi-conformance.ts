import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import type { Reply, TestServer } from './helpers.ts';
import { DOC_ID, type Op, operation, segment } from './openapi-contract.ts';

/**
 * Real responses against the OpenAPI document (docs/api.md#errors): each reply's status is one its
 * operation documents and its body valid against that response's schema, and the statuses and
 * `error` strings seen are kept, so that openapi.test.ts can check every documented one was seen.
 * The cases (openapi-responses-*.ts) take these checks on the one server of openapi.test.ts.
 */

/** A body past the body limit (413). */
export const tooLarge = { raw: `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}` };
/** Headers past the header limit (431). */
export const hugeHeaders = { headers: { 'x-padding': 'x'.repeat(20 * 1024) } };
/** A NUL in a path parameter (400). */
export const NUL = '%00';

/** What a case of openapi-responses-*.ts is given: the server, its target, and the checks. */
export interface ResponseChecks {
  s: TestServer;
  target: { name: string; postgres: boolean };
  /** The reply's status is documented for the operation, and its body valid against that response's schema. */
  conforms(op: Op, reply: Reply, status: number): void;
  /** The operation, its path parameters filled in. */
  call(op: Op, params: Record<string, string>, options?: Parameters<TestServer['call']>[2]): Promise<Reply>;
  /** Documented status → error strings seen, per operation. */
  seen: Map<Op, Map<string, Set<string>>>;
}

/** The checks on server `s`, against the document (and its schema store) that `document` returns once fetched. */
export function responseChecks(
  s: TestServer,
  target: { name: string; postgres: boolean },
  document: () => { doc: any; ajv: Ajv2020 },
): ResponseChecks {
  const seen = new Map<Op, Map<string, Set<string>>>();
  const validators = new Map<string, ValidateFunction>();

  function conforms(op: Op, reply: Reply, status: number) {
    expect(reply.status, `${op}: ${reply.text.slice(0, 300)}`).toBe(status);
    const { doc, ajv } = document();
    const response = operation(doc, op).responses[String(reply.status)];
    expect(response, `${op} answered ${reply.status}, which its document does not list`).toBeDefined();
    const [method, path] = op.split(' ') as [string, string];
    const pointer = ['paths', path, method.toLowerCase(), 'responses', String(reply.status)]
      .concat(['content', 'application/json', 'schema'])
      .map(segment)
      .join('/');
    const key = `${op} ${reply.status}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}#/${pointer}` });
      validators.set(key, validate);
    }
    const valid = validate(reply.json);
    expect(valid, `${key}: ${ajv.errorsText(validate.errors)}\n${reply.text.slice(0, 500)}`).toBe(true);
    const statuses = seen.get(op) ?? new Map<string, Set<string>>();
    seen.set(op, statuses);
    const errors = statuses.get(String(reply.status)) ?? new Set<string>();
    statuses.set(String(reply.status), errors);
    if (reply.json.success === false) errors.add(reply.json.error);
  }

  const call = (op: Op, params: Record<string, string>, options?: Parameters<TestServer['call']>[2]) => {
    const [method, template] = op.split(' ') as [string, string];
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
    return s.call(method, path, options);
  };

  return { s, target, conforms, call, seen };
}
