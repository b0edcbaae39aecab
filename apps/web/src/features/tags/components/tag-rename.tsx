import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldMessages, pathOf } from '../../../lib/field-errors.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { renameTag } from '../api/curate-tags.ts';
import type { TagsReply } from '../api/find-tags.ts';

type Tag = TagsReply['tags'][number];

/**
 * A tag's two names, to rename it (docs/curation.md#tags): only the names changed are sent. A name
 * another tag has (409) or one the API refuses (400) is marked on its field and said under it in
 * the page's language.
 */
export function TagRename(props: { tag: Tag; onDone(note: string): void; onCancel(): void }) {
  const { tag } = props;
  const { t, lang } = useI18n();
  const id = useId();
  const [name, setName] = useState(tag.name);
  const [nameEn, setNameEn] = useState(tag.nameEn ?? '');
  const [unchanged, setUnchanged] = useState(false);
  const save = useMutation({
    mutationFn: (names: { name?: string; nameEn?: string }) => renameTag(tag.slug, names),
    onSuccess: (reply) =>
      props.onDone(
        t.renamedNote(localName(lang, reply.tag.name, reply.tag.nameEn).filter(Boolean).join(' / ')),
      ),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const names = {
      ...(name.trim() !== tag.name && { name: name.trim() }),
      ...(nameEn.trim() !== (tag.nameEn ?? '') && { nameEn: nameEn.trim() }),
    };
    setUnchanged(Object.keys(names).length === 0);
    if (Object.keys(names).length > 0) save.mutate(names);
  };
  const errors =
    save.error instanceof ApiError && (save.error.status === 400 || save.error.status === 409)
      ? fieldMessages(t, save.error.details)
      : new Map<string, string>();
  const field = (key: 'name' | 'nameEn', label: string, value: string, set: (v: string) => void) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type="text"
        lang={key === 'name' ? 'zh-CN' : 'en'}
        value={value}
        maxLength={200}
        autoComplete="off"
        onChange={(e) => set(e.target.value)}
        {...(errors.has(key) && { 'aria-invalid': true, 'aria-describedby': `${id}-${key}-err` })}
      />
      {errors.has(key) && (
        <p id={`${id}-${key}-err`} className="field-error">
          {errors.get(key)}
        </p>
      )}
    </div>
  );
  return (
    <form className="tag-rename" onSubmit={submit} aria-label={t.renameTag(tag.name)}>
      <div className="tag-rename-fields">
        {field('name', t.tagNameZh, name, setName)}
        {field('nameEn', t.tagNameEnLabel, nameEn, setNameEn)}
      </div>
      {unchanged && <p className="muted">{t.renameUnchanged}</p>}
      {save.isError && (
        <ErrorNote
          error={save.error}
          shown={(d) => errors.has(pathOf(d) ?? '')}
          message={
            save.error instanceof ApiError && save.error.status === 409
              ? errors.size > 0
                ? t.renameConflict
                : t.tagConflict
              : undefined
          }
        />
      )}
      <div className="row">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? t.saving : t.renameSave}
        </button>
        <button type="button" className="ghost" onClick={props.onCancel}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}
