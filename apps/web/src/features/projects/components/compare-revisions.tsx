import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { type Messages, useI18n } from '../../../lib/i18n/i18n.tsx';
import { getRevision, type Revision } from '../api/revisions.ts';

type Body = Revision['project'];

/** The rows of the comparison: a label and how to show the field of one side. */
function rows(t: Messages): { key: string; label: string; lang?: 'zh-CN' | 'en'; show(b: Body): string }[] {
  const text = (v: string | null | undefined) => v ?? '';
  return [
    { key: 'name', label: `${t.field_name} · ${t.chinese}`, lang: 'zh-CN', show: (b) => b.name },
    { key: 'nameEn', label: `${t.field_name} · ${t.english}`, lang: 'en', show: (b) => text(b.nameEn) },
    {
      key: 'description',
      label: `${t.field_description} · ${t.chinese}`,
      lang: 'zh-CN',
      show: (b) => b.description,
    },
    {
      key: 'descriptionEn',
      label: `${t.field_description} · ${t.english}`,
      lang: 'en',
      show: (b) => text(b.descriptionEn),
    },
    {
      key: 'content',
      label: `${t.field_content} · ${t.chinese}`,
      lang: 'zh-CN',
      show: (b) => text(b.content),
    },
    {
      key: 'contentEn',
      label: `${t.field_content} · ${t.english}`,
      lang: 'en',
      show: (b) => text(b.contentEn),
    },
    { key: 'status', label: t.field_status, show: (b) => t[b.status] },
    { key: 'source', label: t.field_source, show: (b) => text(b.source) },
    {
      key: 'tags',
      label: t.field_tags,
      show: (b) => b.tags.map((tag) => (tag.nameEn ? `${tag.name} / ${tag.nameEn}` : tag.name)).join('\n'),
    },
    {
      key: 'links',
      label: t.field_links,
      show: (b) => b.links.map((l) => `${t[l.type]}: ${l.url}${l.title ? ` (${l.title})` : ''}`).join('\n'),
    },
    {
      key: 'signals',
      label: t.field_signals,
      show: (b) =>
        b.signals
          ? [
              b.signals.stars === null ? '' : `${t.stars}: ${b.signals.stars}`,
              b.signals.downloads === null ? '' : `${t.downloads}: ${b.signals.downloads}`,
            ]
              .filter(Boolean)
              .join('\n')
          : '',
    },
    { key: 'lock', label: t.field_lock, show: (b) => (b.lock ? b.lock.fields.join(', ') : '') },
  ];
}

/** Two revisions side by side: every field in both languages, the differing rows marked. */
export function Compare({ slug, from, to }: { slug: string; from: number; to: number }) {
  const { t } = useI18n();
  const id = useId();
  const left = useQuery({
    queryKey: ['revision', slug, from],
    queryFn: ({ signal }) => getRevision(slug, from, signal),
  });
  const right = useQuery({
    queryKey: ['revision', slug, to],
    queryFn: ({ signal }) => getRevision(slug, to, signal),
  });
  if (left.isError || right.isError) return <ErrorNote error={left.error ?? right.error} />;
  if (!left.data || !right.data) return <p className="muted">{t.loading}</p>;
  const a = left.data.data.project;
  const b = right.data.data.project;
  const all = rows(t).map((row) => ({ ...row, from: row.show(a), to: row.show(b) }));
  const changed = all.filter((row) => row.from !== row.to).length;
  return (
    <section className="card compare" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t.compareTitle(from, to)}</h3>
      {changed === 0 && <p className="muted">{t.noChanges}</p>}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t.field_name}</span>
              </th>
              <th scope="col">{t.revisionN(from)}</th>
              <th scope="col">{t.revisionN(to)}</th>
            </tr>
          </thead>
          <tbody>
            {all.map((row) => {
              const differs = row.from !== row.to;
              return (
                <tr key={row.key} className={differs ? 'changed' : undefined} data-field={row.key}>
                  <th scope="row">
                    {row.label}
                    {differs && <span className="badge changed-badge">{t.changed}</span>}
                  </th>
                  <td lang={row.lang} className={differs ? 'was' : undefined}>
                    {row.from || <span className="muted">{t.none}</span>}
                  </td>
                  <td lang={row.lang} className={differs ? 'now' : undefined}>
                    {row.to || <span className="muted">{t.none}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
