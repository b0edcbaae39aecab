import { describe, expect, it } from 'vitest';
import { isPlainName, shownName } from './plain-name.ts';

describe('plain names', () => {
  it('refuses controls, formats, separators, default-ignorables and blank fillers', () => {
    for (const name of [
      'evil\u202egnp.exe',
      'a\u200bb',
      'x\u2066y',
      'tab\there',
      'line\u2028break',
      'para\u2029graph',
      'cgj\u034Fx',
      'vs\uFE0Fx',
      '\u3164',
      'a\u115Fb',
      'a\u1160b',
      'a\uFFA0b',
      '\u2800',
      'soft\u00ADhyphen',
    ])
      expect(isPlainName(name), JSON.stringify(name)).toBe(false);
  });

  it('lets names in any script through', () => {
    for (const name of ['ana-curator', '爬虫 crawler', 'Zoë', '한국어 이름', 'نام', 'crawler #2 (nightly)'])
      expect(isPlainName(name), name).toBe(true);
  });

  it('shows a name stored before the rule with each hidden character as U+FFFD', () => {
    expect(shownName('evil\u202egnp.exe')).toBe('evil\uFFFDgnp.exe');
  });
});
