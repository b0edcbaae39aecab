import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { LoadMore } from '../../../components/load-more.tsx';
import { paths, searchHref } from '../../../config/paths.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import { findTags, type TagsReply } from '../api/find-tags.ts';
import { TagMerge } from './tag-merge.tsx';
import { TagRename } from './tag-rename.tsx';
import { TagUnmerge } from './tag-unmerge.tsx';

type Tag = TagsReply['tags'][number];
/** What is open on one tag: its rename, its merge, or the undoing of the merge of one of its aliases. */
type Action = { kind: 'rename' | 'merge' } | { kind: 'unmerge'; alias: string };
type Open = (Action & { slug: string }) | null;

/**
 * Curating the vocabulary (docs/curation.md#tags), for a key with `curate`: every tag with its
 * names, address, project count and aliases; rename one, merge it into another, or undo the merge
 * of one of its aliases (docs/curation.md#undoing-a-merge).
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
  const [note, setNote] = useState<ReactNode>(null);
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
  const done = (message: ReactNode) => {
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
      <div role="status" className="note">
        {note}
      </div>
      {query.isError && <ErrorNote error={query.error} onRetry={() => query.refetch()} />}
      {query.isPending && <p className="muted">{t.loading}</p>}
      <ul className="curate-list">
        {tags.map((tag) => (
          <li key={tag.id} data-tag={tag.slug}>
            <TagRow
              tag={tag}
              open={open?.slug === tag.slug ? open : null}
              onOpen={(action) => {
                setNote(null);
                setOpen(action ? { ...action, slug: tag.slug } : null);
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
  open: Action | null;
  onOpen(action: Action | null): void;
  onDone(note: ReactNode): void;
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
          <button type="button" className="ghost" onClick={() => props.onOpen({ kind: 'rename' })}>
            {t.renameTag(name)}
          </button>
          <button type="button" className="ghost" onClick={() => props.onOpen({ kind: 'merge' })}>
            {t.mergeTag(name)}
          </button>
          {tag.aliases.map((alias) => (
            <button
              key={alias}
              type="button"
              className="ghost"
              data-unmerge={alias}
              onClick={() => props.onOpen({ kind: 'unmerge', alias })}
            >
              {t.unmergeTag(alias)}
            </button>
          ))}
        </div>
      )}
      {props.open?.kind === 'rename' && (
        <TagRename tag={tag} onDone={props.onDone} onCancel={() => props.onOpen(null)} />
      )}
      {props.open?.kind === 'merge' && (
        <TagMerge tag={tag} onDone={props.onDone} onCancel={() => props.onOpen(null)} />
      )}
      {props.open?.kind === 'unmerge' && (
        <TagUnmerge
          tag={tag}
          alias={props.open.alias}
          onDone={props.onDone}
          onCancel={() => props.onOpen(null)}
        />
      )}
    </article>
  );
}
