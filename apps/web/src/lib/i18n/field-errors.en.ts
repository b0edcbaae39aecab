import type { FieldProblem } from '../field-errors.ts';

/** What a field the API refused says under it (lib/field-errors.ts). */
export const fieldErrorsEn = {
  fieldProblem: (p: FieldProblem): string => {
    switch (p.key) {
      case 'required':
        return 'This field is required.';
      case 'tooLong':
        return `At most ${p.max} characters.`;
      case 'tooShort':
        return `At least ${p.min} characters.`;
      case 'tooMany':
        return `At most ${p.max} entries.`;
      case 'invalidUrl':
        return 'Not a valid URL: it must start with http:// or https://.';
      case 'urlTooLong':
        return `The URL is too long (at most ${p.max} bytes).`;
      case 'badOption':
        return 'Choose one of the listed values.';
      case 'listedTwice':
        return 'This URL is listed twice.';
      case 'takenUrl':
        return `This URL belongs to project "${p.slug}".`;
      case 'badText':
        return 'Contains characters that cannot be stored.';
      case 'tagNameTaken':
        return `The tag "${p.slug}" already has this name: merge the two tags instead.`;
      case 'invalid':
        return 'This field is not valid.';
    }
  },
};
