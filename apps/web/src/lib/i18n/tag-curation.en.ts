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
    'Rename a tag in either language, or merge a tag into another: its projects get the tag kept, and its address and names become an alias of it. A merge can be undone from the alias.',
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
    `${n === 1 ? 'The project' : `The ${n} projects`} tagged “${from}” ${n === 1 ? 'gets' : 'get'} “${into}” in its place; “${from}” becomes an alias of “${into}” (filters and writes naming it get “${into}”). It can be undone afterwards, with “Undo merge” on “${into}”.`,
  mergeTagYes: (from: string, into: string) => `Merge ${from} into ${into}`,
  tagMergedNote: (from: string, into: string, n: number) =>
    `Merged ${from} into ${into}: ${n} ${n === 1 ? 'project' : 'projects'} changed.`,
  tagMergeConflict:
    'This merge is refused: a tag cannot be merged into itself or one of its aliases, nor merged twice. Reload the list.',
  // undoing a merge, from the alias (docs/curation.md#undoing-a-merge)
  unmergeTag: (alias: string) => `Undo merge of ${alias}…`,
  unmergeTitle: (alias: string) => `Undo the merge of ${alias}`,
  unmergeWhat: (alias: string, into: string) =>
    `“${alias}” becomes a tag of its own again, with the names and aliases it had, and the projects the merge moved to “${into}” get it back (one revision each). A project changed since the merge keeps its tags as they are; it is listed afterwards.`,
  unmergeYes: 'Undo merge',
  unmergedNote: (name: string, n: number) =>
    `Merge undone: ${name} is a tag of its own again; ${n} ${n === 1 ? 'project has' : 'projects have'} it again.`,
  unmergeSkipped: (n: number) =>
    n === 1
      ? '1 project was left as it was: it changed after the merge, so its tags now are a later choice.'
      : `${n} projects were left as they were: they changed after the merge, so their tags now are a later choice.`,
  unmergeReason: {
    'changed since the merge': 'changed since the merge',
    deleted: 'deleted since the merge',
    'a tag of it was merged since': 'another of its tags was merged since',
  } as Record<string, string>,
  unmergeBecause: (reason: string) => `(${reason})`,
  unmergeNotMerged: 'This tag is not merged any more (the merge was undone already). Reload the list.',
  unmergeNotRecorded: 'This merge was made before merges were recorded: it cannot be undone.',
  unmergeNameTaken:
    'Another tag has taken this tag’s name since the merge: rename that tag first, then undo the merge.',
  unmergeConflict: 'This merge cannot be undone now (see below). Reload the list.',
};
