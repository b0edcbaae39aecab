import { describe, expect, it } from 'vitest';
import type { ProjectInput } from '../schemas/project.ts';
import { identityKeys, identityLockKeys, projectLockKey } from './identity.ts';

const input = (
  links: ProjectInput['links'],
  name = '通义千问',
  nameEn: string | null = 'Qwen',
): ProjectInput =>
  ({
    name,
    ...(nameEn !== null && { nameEn }),
    description: 'Alibaba Cloud Qwen models.',
    tags: [{ name: 'LLM' }],
    links,
  }) as ProjectInput;

describe('identityKeys', () => {
  it('takes CODEHOST keys, then WEBSITE keys, in input order, and the slug of nameEn', () => {
    const keys = identityKeys(
      input([
        { type: 'WEBSITE', url: 'https://qwenlm.github.io/' },
        { type: 'CODEHOST', url: 'https://github.com/QwenLM/Qwen.git' },
        { type: 'MODELHUB', url: 'https://huggingface.co/Qwen' },
        { type: 'CODEHOST', url: 'https://github.com/QwenLM/Qwen2.5/tree/main' },
      ]),
    );
    expect(keys).toEqual({
      codehostKeys: ['github.com/qwenlm/qwen', 'github.com/qwenlm/qwen2.5'],
      websiteKeys: ['qwenlm.github.io'],
      slug: 'qwen',
    });
  });

  it('leaves MODELHUB and PAPER links out of identity', () => {
    const keys = identityKeys(
      input([
        { type: 'MODELHUB', url: 'https://huggingface.co/Qwen' },
        { type: 'PAPER', url: 'https://arxiv.org/abs/2309.16609' },
      ]),
    );
    expect(keys.codehostKeys).toEqual([]);
    expect(keys.websiteKeys).toEqual([]);
  });

  it('has no slug when the name leaves none (the project gets a fallback slug at create)', () => {
    expect(identityKeys(input([{ type: 'WEBSITE', url: 'https://example.com' }], '✨✨', null)).slug).toBe(
      null,
    );
  });
});

describe('identityLockKeys', () => {
  it('locks every identifying key and the slug, so spellings of one repository share a lock', () => {
    const a = identityLockKeys(
      identityKeys(input([{ type: 'CODEHOST', url: 'https://github.com/QwenLM/Qwen' }])),
    );
    const b = identityLockKeys(
      identityKeys(
        input([{ type: 'CODEHOST', url: 'http://www.github.com/qwenlm/qwen/' }], 'Other', 'Other'),
      ),
    );
    expect(a).toEqual([projectLockKey('CODEHOST', 'github.com/qwenlm/qwen'), projectLockKey('slug', 'qwen')]);
    expect(b.filter((k) => a.includes(k))).toEqual([projectLockKey('CODEHOST', 'github.com/qwenlm/qwen')]);
  });

  it('keeps kinds apart: a WEBSITE key never shares a lock with the same CODEHOST key', () => {
    expect(projectLockKey('WEBSITE', 'github.com/a/b')).not.toBe(
      projectLockKey('CODEHOST', 'github.com/a/b'),
    );
  });
});
