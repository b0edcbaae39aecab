import type { fieldErrorsEn } from './field-errors.en.ts';

export const fieldErrorsZh: typeof fieldErrorsEn = {
  fieldProblem: (p) => {
    switch (p.key) {
      case 'required':
        return '此项必填。';
      case 'tooLong':
        return `最多 ${p.max} 个字符。`;
      case 'tooShort':
        return `至少 ${p.min} 个字符。`;
      case 'tooMany':
        return `最多 ${p.max} 项。`;
      case 'invalidUrl':
        return '不是有效的网址：须以 http:// 或 https:// 开头。';
      case 'urlTooLong':
        return `网址过长（最多 ${p.max} 字节）。`;
      case 'badOption':
        return '请从列出的选项中选择。';
      case 'listedTwice':
        return '此网址重复列出。';
      case 'takenUrl':
        return `此网址属于项目“${p.slug}”。`;
      case 'badText':
        return '含有无法保存的字符。';
      case 'tagNameTaken':
        return `标签“${p.slug}”已叫这个名字：请改为合并这两个标签。`;
      case 'invalid':
        return '此项无效。';
    }
  },
};
