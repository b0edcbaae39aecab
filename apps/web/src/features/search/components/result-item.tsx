import { TagChips } from '../../../components/tag-chips.tsx';
import { projectHref } from '../../../config/paths.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import type { SearchItem } from '../api/find-projects.ts';

export function ResultItem({ item }: { item: SearchItem }) {
  const { t, lang } = useI18n();
  const [name, other] = localName(lang, item.name, item.nameEn);
  const description = lang === 'en' && item.descriptionEn ? item.descriptionEn : item.description;
  const types = [...new Set(item.links.map((l) => l.type))];
  return (
    <li className="result" data-slug={item.slug}>
      <div className="result-title">
        <h2>
          <Link href={projectHref(item.slug)}>{name}</Link>
        </h2>
        {other && <span className="other-name">{other}</span>}
        {item.status === 'ARCHIVED' && <span className="badge muted-badge">{t.ARCHIVED}</span>}
      </div>
      <p className="description">{description}</p>
      <div className="result-meta">
        <TagChips tags={item.tags} />
        <span className="link-types">{types.map((type) => t[type]).join(' · ')}</span>
      </div>
    </li>
  );
}
