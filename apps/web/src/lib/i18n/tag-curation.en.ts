/**
 * The texts of tag curation (features/tags: rename, merge, aliases; docs/curation.md#tags) and of
 * the summary every curation write may carry (components/summary-field.tsx;
 * docs/curation.md#edit-summaries).
 */
export const tagCurationEn = {
  // the summary of a write
  summaryLabel: 'Summary (optional)',
  summaryHelp: 'Why: kept with the revisions this stores, and shown in History.',
  revisionSummary: 'Summary:',
  // the Tags page's way in
  curateTagsLink: 'Rename and merge tags',
  // the curation page
  curateTagsTitle: 'Curate tags',
  curateTagsHelp:
    'Rename a tag in either language, or merge a tag into another: its projects get the tag kept, and its address and names become an alias of it.',
  allTags: 'All tags',
  tagSlug: 'Address',
  tagAliases: (slugs: string) => `Aliases: ${slugs}`,
  tagNoAliases: 'No aliases',
  tagNameZh: 'Chinese name',
  tagNameEnLabel: 'English name',
  renameTag: (name: string) => `Rename ${name}…`,
  renameSave: 'Save names',
  renamedNote: (name: string) => `Renamed: now ${name}.`,
  renameUnchanged: 'Nothing changed.',
  renameConflict: 'Another tag already has this name: see the marked field.',
  tagConflict: 'It conflicts with another tag (see below). Reload the list, then try again.',
  mergeTag: (name: string) => `Merge ${name} into…`,
  mergeTitle: (name: string) => `Merge ${name} into another tag`,
  mergeFind: 'Find the tag to keep',
  mergeNoMatch: 'No other tag matches.',
  mergeAway: 'Merged away',
  mergeKept: 'Kept',
  mergeWhat: (from: string, into: string, n: number) =>
    `${n === 1 ? 'The project' : `The ${n} projects`} tagged “${from}” ${n === 1 ? 'gets' : 'get'} “${into}” in its place; “${from}” becomes an alias of “${into}” (filters and writes naming it get “${into}”). This cannot be undone here.`,
  mergeTagYes: (from: string, into: string) => `Merge ${from} into ${into}`,
  tagMergedNote: (from: string, into: string, n: number) =>
    `Merged ${from} into ${into}: ${n} ${n === 1 ? 'project' : 'projects'} changed.`,
  tagMergeConflict:
    'This merge is refused: a tag cannot be merged into itself or one of its aliases, nor merged twice. Reload the list.',
};
