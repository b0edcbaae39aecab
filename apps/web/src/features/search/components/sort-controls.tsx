import { useId } from 'react';
import type { SearchParams } from '../../../config/paths.ts';
import type { Messages } from '../../../lib/i18n/i18n.tsx';

export function SortControls({
  params,
  set,
  t,
}: {
  params: SearchParams;
  set: (change: Partial<SearchParams>) => void;
  t: Messages;
}) {
  const id = useId();
  const sort = params.sort ?? (params.q ? 'relevance' : 'updated');
  const order = params.order ?? (sort === 'name' ? 'asc' : 'desc');
  return (
    <div className="sort">
      <label htmlFor={`${id}-sort`}>{t.sortBy}</label>
      <select
        id={`${id}-sort`}
        value={sort}
        onChange={(e) => set({ sort: e.target.value as SearchParams['sort'], order: undefined })}
      >
        {params.q && <option value="relevance">{t.sortRelevance}</option>}
        <option value="updated">{t.sortUpdated}</option>
        <option value="created">{t.sortCreated}</option>
        <option value="name">{t.sortName}</option>
      </select>
      <label htmlFor={`${id}-order`}>{t.order}</label>
      <select
        id={`${id}-order`}
        value={order}
        onChange={(e) => set({ order: e.target.value as SearchParams['order'] })}
      >
        <option value="desc">{t.orderDesc}</option>
        <option value="asc">{t.orderAsc}</option>
      </select>
    </div>
  );
}
