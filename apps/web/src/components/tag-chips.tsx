import { searchHref } from '../config/paths.ts';
import { localName, useI18n } from '../lib/i18n/i18n.tsx';
import { Link } from '../lib/router.tsx';

/** A project's tags as chips, each a search by that tag (a search result, the project page). */
export function TagChips({
  tags,
}: {
  tags: readonly { id: string; slug: string; name: string; nameEn: string | null }[];
}) {
  const { t, lang } = useI18n();
  return (
    <ul className="chips" aria-label={t.tags}>
      {tags.map((tag) => (
        <li key={tag.id}>
          <Link className="chip" href={searchHref({ tag: [tag.slug] })}>
            {localName(lang, tag.name, tag.nameEn)[0]}
          </Link>
        </li>
      ))}
    </ul>
  );
}
