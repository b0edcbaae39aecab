import type { SearchParams } from '../../../config/paths.ts';
import { localName, type Messages, useI18n } from '../../../lib/i18n/i18n.tsx';
import type { SearchReply } from '../api/find-projects.ts';
import { toggle } from '../utils/search-params.ts';

type LinkType = NonNullable<SearchParams['linkType']>[number];

export function Facets({
  reply,
  params,
  set,
  t,
}: {
  reply: SearchReply | undefined;
  params: SearchParams;
  set: (change: Partial<SearchParams>) => void;
  t: Messages;
}) {
  const { lang } = useI18n();
  const facets = reply?.facets;
  const statusCounts = new Map((facets?.status ?? []).map((f) => [f.value, f.count]));
  const total = [...statusCounts.values()].reduce((a, b) => a + b, 0);
  return (
    <>
      <fieldset className="facet">
        <legend>{t.facetStatus}</legend>
        {(['', 'ACTIVE', 'ARCHIVED'] as const).map((value) => (
          <label key={value || 'all'} className="facet-option">
            <input
              type="radio"
              name="status"
              checked={(params.status ?? '') === value}
              onChange={() => set({ status: value || undefined })}
            />
            <span className="facet-name">{value ? t[value] : t.all}</span>
            <span className="count">{value ? (statusCounts.get(value) ?? 0) : total}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="facet">
        <legend>{t.facetLinkTypes}</legend>
        {(facets?.linkTypes ?? []).map((f) => (
          <label key={f.value} className="facet-option">
            <input
              type="checkbox"
              checked={params.linkType?.includes(f.value as LinkType) ?? false}
              onChange={() => set({ linkType: toggle(params.linkType, f.value as LinkType) })}
            />
            <span className="facet-name">{t[f.value as keyof Messages] as string}</span>
            <span className="count">{f.count}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="facet facet-tags">
        <legend>{t.facetTags}</legend>
        {(facets?.tags ?? []).map((f) => (
          <label key={f.slug} className="facet-option" data-tag={f.slug}>
            <input
              type="checkbox"
              checked={params.tag?.includes(f.slug) ?? false}
              onChange={() => set({ tag: toggle(params.tag, f.slug) })}
            />
            <span className="facet-name">{localName(lang, f.name, f.nameEn)[0]}</span>
            <span className="count">{f.count}</span>
          </label>
        ))}
        {(params.tag?.length ?? 0) > 1 && (
          <label className="facet-option">
            <input
              type="checkbox"
              checked={params.tagMode === 'any'}
              onChange={(e) => set({ tagMode: e.target.checked ? 'any' : undefined })}
            />
            <span className="facet-name">{t.anyTag}</span>
          </label>
        )}
      </fieldset>
    </>
  );
}
