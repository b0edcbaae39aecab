import { useId } from 'react';
import { LINK_TYPES } from '../../../lib/api-client.ts';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { type Draft, TEXT_FIELDS, type TextField } from '../api/draft.ts';
import { ListEditor, LockBadge } from './list-editor.tsx';

const LABEL = {
  name: 'fieldName',
  nameEn: 'fieldNameEn',
  description: 'fieldDescription',
  descriptionEn: 'fieldDescriptionEn',
  content: 'fieldContent',
  contentEn: 'fieldContentEn',
} as const satisfies Record<TextField, string>;

const LIMIT: Record<TextField, number> = {
  name: 200,
  nameEn: 200,
  description: 500,
  descriptionEn: 500,
  content: 10000,
  contentEn: 10000,
};

/**
 * Every field of a project in both languages, its status, tags and links; locked ones badged. A
 * field the API refused is marked and says why under it (`errors`: field path → message).
 */
export function EditForm({
  draft,
  onChange,
  locked,
  errors = new Map(),
}: {
  draft: Draft;
  onChange(next: Draft): void;
  locked: readonly string[];
  errors?: ReadonlyMap<string, string>;
}) {
  const { t } = useI18n();
  const id = useId();
  /** The attributes that mark a refused field and point at its message. */
  const mark = (path: string) =>
    errors.has(path) ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-err-${path}` } : {};
  const note = (path: string) => <FieldNote id={`${id}-err-${path}`} message={errors.get(path)} />;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => onChange({ ...draft, [key]: value });
  return (
    <div className="edit-form">
      <div className="edit-columns">
        {(['zh', 'en'] as const).map((lang) => (
          <div key={lang} className="edit-column" lang={lang === 'zh' ? 'zh-CN' : 'en'}>
            {TEXT_FIELDS.filter((f) => f.endsWith('En') === (lang === 'en')).map((f) => {
              const long = f.startsWith('content');
              const props = {
                id: `${id}-${f}`,
                value: draft[f],
                maxLength: LIMIT[f],
                required: f === 'name' || f === 'description',
                onChange: (e: { target: { value: string } }) => set(f, e.target.value),
                ...mark(f),
              };
              return (
                <div key={f} className="field">
                  <label htmlFor={`${id}-${f}`}>
                    {t[LABEL[f]]} {locked.includes(f) && <LockBadge />}
                  </label>
                  {long || f.startsWith('description') ? (
                    <textarea {...props} rows={long ? 8 : 3} />
                  ) : (
                    <input type="text" {...props} />
                  )}
                  {note(f)}
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <div className="field">
        <label htmlFor={`${id}-status`}>
          {t.status} {locked.includes('status') && <LockBadge />}
        </label>
        <select
          id={`${id}-status`}
          value={draft.status}
          onChange={(e) => set('status', e.target.value as Draft['status'])}
          {...mark('status')}
        >
          <option value="ACTIVE">{t.ACTIVE}</option>
          <option value="ARCHIVED">{t.ARCHIVED}</option>
        </select>
        {note('status')}
      </div>
      <ListEditor
        legend={t.tags}
        locked={locked.includes('tags')}
        items={draft.tags}
        onChange={(tags) => set('tags', tags)}
        blank={() => ({ name: '', nameEn: '' })}
        addLabel={t.addTag}
        max={10}
        label={(tag, i) => tag.name || `${t.tagName} ${i + 1}`}
        render={(tag, setTag, i) => (
          <>
            <input
              type="text"
              aria-label={`${t.tagName} ${i + 1}`}
              value={tag.name}
              {...mark(`tags.${i}.name`)}
              required
              maxLength={200}
              onChange={(e) => setTag({ ...tag, name: e.target.value })}
            />
            <input
              type="text"
              aria-label={`${t.tagNameEn} ${i + 1}`}
              value={tag.nameEn}
              {...mark(`tags.${i}.nameEn`)}
              maxLength={200}
              onChange={(e) => setTag({ ...tag, nameEn: e.target.value })}
            />
            {note(`tags.${i}.name`)}
            {note(`tags.${i}.nameEn`)}
          </>
        )}
      />
      {note('tags')}
      <ListEditor
        legend={t.links}
        locked={locked.includes('links')}
        items={draft.links}
        onChange={(links) => set('links', links)}
        blank={(): Draft['links'][number] => ({ type: 'WEBSITE', url: '', title: '' })}
        addLabel={t.addLink}
        max={10}
        label={(link, i) => link.url || `${t.linkUrl} ${i + 1}`}
        render={(link, setLink, i) => (
          <>
            <select
              aria-label={`${t.linkType} ${i + 1}`}
              value={link.type}
              {...mark(`links.${i}.type`)}
              onChange={(e) => setLink({ ...link, type: e.target.value as typeof link.type })}
            >
              {LINK_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t[type]}
                </option>
              ))}
            </select>
            <input
              type="url"
              aria-label={`${t.linkUrl} ${i + 1}`}
              value={link.url}
              {...mark(`links.${i}.url`)}
              required
              onChange={(e) => setLink({ ...link, url: e.target.value })}
            />
            <input
              type="text"
              aria-label={`${t.linkTitle} ${i + 1}`}
              value={link.title}
              {...mark(`links.${i}.title`)}
              onChange={(e) => setLink({ ...link, title: e.target.value })}
            />
            {note(`links.${i}.type`)}
            {note(`links.${i}.url`)}
            {note(`links.${i}.title`)}
          </>
        )}
      />
      {note('links')}
    </div>
  );
}

/** A field's message from the API, in the page's language; nothing when it has none. */
function FieldNote({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  );
}
