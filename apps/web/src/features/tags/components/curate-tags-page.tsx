import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { LoadMore } from '../../../components/load-more.tsx';
import { paths, searchHref } from '../../../config/paths.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import { findTags, type TagsReply } from '../api/find-tags.ts';
import { TagMerge } from './tag-merge.tsx';
import { TagRename } from './tag-rename.tsx';

type Tag = TagsReply['tags'][number];
type Open = { slug: string; kind: 'rename' | 'merge' } | null;

/**
 * Curating the vocabulary (docs/curation.md#tags), for a key with `curate`: every tag with its
 * names, address, project count and aliases; rename one, or merge it into another.
 */
export default function CurateTagsPage() {
  const { t } = useI18n();
  return (
    <KeyGate scope="curate" title={t.curateTagsTitle}>
      <CurateTags />
    </KeyGate>
  );
}

function CurateTags() {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<'count' | 'name'>('name');
  const [open, setOpen] = useState<Open>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 150);
    return () => clearTimeout(timer);
  }, [text]);
  const query = useInfiniteQuery({
    queryKey: ['tags', 'curate', q, sort],
    queryFn: ({ pageParam, signal }) => findTags({ q: q || undefined, sort, limit: 50 }, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: TagsReply) => (last.hasMore ? last.nextCursor : null),
    placeholderData: keepPreviousData,
  });
  const tags = query.data?.pages.flatMap((p) => p.tags) ?? [];
  const done = (message: string) => {
    setOpen(null);
    setNote(message);
    // every list of tags (this one, the Tags page, a merge's choices) and the projects' tags
    void client.invalidateQueries({ queryKey: ['tags'] });
    void client.invalidateQueries({ queryKey: ['project'] });
  };
  return (
    <section className="curate-tags" aria-labelledby={`${id}-h`}>
      <p>
        <Link href={paths.tags}>← {t.allTags}</Link>
      </p>
      <h1 id={`${id}-h`}>{t.curateTagsTitle}</h1>
      <p className="muted">{t.curateTagsHelp}</p>
      <div className="sort">
        <label htmlFor={`${id}-q`}>{t.tagFilter}</label>
        <input
          id={`${id}-q`}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoComplete="off"
        />
        <label htmlFor={`${id}-sort`}>{t.sortBy}</label>
        <select id={`${id}-sort`} value={sort} onChange={(e) => setSort(e.target.value as 'count' | 'name')}>
          <option value="name">{t.sortName}</option>
          <option value="count">{t.tagCount}</option>
        </select>
      </div>
      <p role="status" className="note">
        {note}
      </p>
      {query.isError && <ErrorNote error={query.error} onRetry={() => query.refetch()} />}
      {query.isPending && <p className="muted">{t.loading}</p>}
      <ul className="curate-list">
        {tags.map((tag) => (
          <li key={tag.id} data-tag={tag.slug}>
            <TagRow
              tag={tag}
              open={open?.slug === tag.slug ? open.kind : null}
              onOpen={(kind) => {
                setNote(null);
                setOpen(kind ? { slug: tag.slug, kind } : null);
              }}
              onDone={done}
            />
          </li>
        ))}
      </ul>
      <LoadMore query={query} />
    </section>
  );
}

function TagRow(props: {
  tag: Tag;
  open: 'rename' | 'merge' | null;
  onOpen(kind: 'rename' | 'merge' | null): void;
  onDone(note: string): void;
}) {
  const { tag } = props;
  const { t, lang } = useI18n();
  const id = useId();
  const [name, other] = localName(lang, tag.name, tag.nameEn);
  return (
    <article className="card curate-tag" aria-labelledby={`${id}-h`}>
      <div className="curate-tag-head">
        <h2 id={`${id}-h`}>
          <Link href={searchHref({ tag: [tag.slug] })}>{name}</Link>
          {other && <span className="other-name">{other}</span>}
        </h2>
        <p className="muted">
          <code>{tag.slug}</code> · {t.projectsCount(tag.projectCount)}
        </p>
        <p className="curate-aliases">
          {tag.aliases.length ? (
            t.tagAliases(tag.aliases.join(', '))
          ) : (
            <span className="muted">{t.tagNoAliases}</span>
          )}
        </p>
      </div>
      {props.open === null && (
        <div className="row">
          <button type="button" className="ghost" onClick={() => props.onOpen('rename')}>
            {t.renameTag(name)}
          </button>
          <button type="button" className="ghost" onClick={() => props.onOpen('merge')}>
            {t.mergeTag(name)}
          </button>
        </div>
      )}
      {props.open === 'rename' && (
        <TagRename tag={tag} onDone={props.onDone} onCancel={() => props.onOpen(null)} />
      )}
      {props.open === 'merge' && (
        <TagMerge tag={tag} onDone={props.onDone} onCancel={() => props.onOpen(null)} />
      )}
    </article>
  );
}
